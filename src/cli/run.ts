/**
 * `claude-memory run PROMPT`: one Claude conversation with the memory tool, headless, over the
 * same AgentSession and MemoryEngine as the extension. Assistant text streams to stdout, one line
 * per memory operation goes to stderr; `--json` writes every AgentEvent as one JSON line to stdout
 * instead. Exit codes: 0 finished, 1 failed or not finished (cut off at max_tokens, refused, empty
 * answer: one-line reason on stderr), 2 usage, 130 interrupted.
 */
import * as path from 'node:path';
import { AGENT_DEFAULTS } from '../core/agent/defaults';
import { AUTHORS } from '../core/memory';
import { AgentSession } from '../core/agent/session';
import type { AgentEvent, AgentOutcome } from '../core/agent/events';
import type { AgentLogger } from '../core/agent/options';
import { createNodeMemoryEngine } from '../platform/node/nodeMemoryEngine';
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../core/workspace/bashTool';
import { createRunTools } from './runTools';
import { CLI_NAME, parseOptions, parsePositiveInteger, startCommand, UsageError } from './args';
import { GUARDS_HELP, oneLine, STORE_FOLDER, type CliIo } from './exec';

export const RUN_USAGE = `Usage: ${CLI_NAME} run [--workspace DIR] [--model M] [--max-turns N] [--allow-edits] [--allow-command PREFIX]... [--allow-domain HOST]... [--no-sandbox] [--json] [--no-guards] PROMPT

Runs Claude with the memory tool on DIR/${STORE_FOLDER}, the text editor and bash on DIR until it
finishes answering PROMPT. Reads are always allowed; writes and commands only with the flags below.
Needs ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL overrides the API address.
Assistant text goes to stdout, one line per tool call to stderr. Memory changes are kept as
versions by the author 'run' (see '${CLI_NAME} history').
${GUARDS_HELP}

Options:
  -w, --workspace DIR   Workspace folder (default: the current folder).
  -m, --model M         Model id (default: ${AGENT_DEFAULTS.model}).
      --max-turns N     Model turns allowed before stopping (default: ${AGENT_DEFAULTS.maxTurns}).
      --max-tokens N    Output tokens per model turn (default: ${AGENT_DEFAULTS.maxTokens}).
      --no-cache        Send no prompt-caching breakpoints.
      --no-context-editing  Do not ask the API to clear old tool results.
      --no-compaction   Do not let the API compact long conversations.
      --allow-edits     Let Claude create and edit files in DIR (never .git or the memory folder).
      --allow-command PREFIX  Let Claude run commands starting with PREFIX (repeatable; '*' allows all).
                        A compound command runs only when every part is allowed.
      --allow-domain HOST  Let commands reach HOST over the network (repeatable; '*.example.com'
                        covers subdomains). Without it commands reach no network at all.
      --no-sandbox      Run commands without the OS sandbox. Sandboxed (the default where
                        bubblewrap and socat are installed on Linux, always on macOS), a command
                        allowed only as read-only writes nothing, an allowed one writes only DIR
                        (never .git/hooks, .git/config, .vscode, .husky, .envrc, the memory folder)
                        and its TMPDIR, reads no credentials (~/.ssh, ~/.aws, …), sees no API key,
                        and everything it started ends with it.
      --command-timeout SECONDS  Stop a command after this long (default: ${DEFAULT_COMMAND_TIMEOUT_MS / 1000}).
      --json            Write every agent event as one JSON line to stdout.
      --no-guards       Turn off the checklist guards (see above).
  -h, --help            Show this help.

Exit status: 0 when Claude finished its answer; 1 when the run failed or did not finish (an API
error, --max-turns reached, the answer cut off at max_tokens, a refusal, an empty answer), with
one line on stderr saying which; 2 on a usage error; 130 when interrupted.
`;

export interface RunIo extends CliIo {
  env: NodeJS.ProcessEnv;
  /** Fires to stop the run (Ctrl+C in the real process). */
  signal?: AbortSignal;
}

const processIo = (): RunIo => ({
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
});

/** `claude-memory run`: `argv` is what follows `run`. Resolves to the exit code. */
export async function runCommand(argv: string[], io: RunIo = processIo()): Promise<number> {
  const start = startCommand('run', RUN_USAGE, argv, parseRunArgs, io);
  if ('exitCode' in start) return start.exitCode;
  const { args, workspace } = start;
  const apiKey = io.env.ANTHROPIC_API_KEY?.trim() || undefined;
  // Checked before the store is touched: nothing happens without a key.
  if (!apiKey) {
    io.stderr.write(`${CLI_NAME} run: ANTHROPIC_API_KEY is not set: export your Anthropic API key and run again.\n`);
    return 1;
  }
  const verbose = io.env.CLAUDE_MEMORY_DEBUG === '1';
  const logger: AgentLogger = {
    debug: (m) => verbose && io.stderr.write(`${m}\n`),
    info: (m) => verbose && io.stderr.write(`${m}\n`),
    warn: (m) => verbose && io.stderr.write(`${m}\n`),
    error: (m) => verbose && io.stderr.write(`${m}\n`),
  };
  const { fs: store, engine } = createNodeMemoryEngine(path.join(workspace, STORE_FOLDER), {
    guards: args.guards,
    author: AUTHORS.run,
    onInternalError: (e) => logger.error(`[memory] internal error: ${oneLine(e)}`),
  });
  try {
    await store.createDirectory('');
  } catch (e) {
    io.stderr.write(`${CLI_NAME} run: cannot create ${path.join(workspace, STORE_FOLDER)}: ${oneLine(e)}\n`);
    return 1;
  }

  const workspaceTools = createRunTools(workspace, STORE_FOLDER, { ...args, env: io.env, onUnsandboxed: (m) => io.stderr.write(`${CLI_NAME} run: ${m}\n`) }, (e) => logger.error(`[editor] internal error: ${oneLine(e)}`));
  const session = new AgentSession({
    apiKey,
    baseURL: io.env.ANTHROPIC_BASE_URL?.trim() || undefined,
    model: args.model,
    maxTokens: args.maxTokens,
    maxTurns: args.maxTurns,
    memory: engine,
    promptCaching: args.caching,
    contextEditing: args.contextEditing,
    compaction: args.compaction,
    tools: workspaceTools.tools,
    system: workspaceTools.systemPrompt,
    logger,
  });

  const printer = args.json ? jsonPrinter(io) : textPrinter(io);
  const { signal, dispose } = interruptSignal(io);
  let outcome: AgentOutcome;
  try {
    outcome = await session.send(args.prompt, printer, signal);
  } finally {
    dispose();
    await workspaceTools.dispose();
  }
  if (outcome.ok) return 0;
  const error = outcome.error ?? { kind: 'unknown', message: 'the run failed' };
  io.stderr.write(`${CLI_NAME} run: ${error.message}\n`);
  return error.kind === 'cancelled' ? 130 : 1;
}

interface RunArgs {
  help: boolean;
  workspace?: string;
  model: string;
  maxTurns: number;
  maxTokens: number;
  caching: boolean;
  contextEditing: boolean;
  compaction: boolean;
  json: boolean;
  guards: boolean;
  prompt: string;
  allowEdits: boolean;
  allowCommands: string[];
  allowDomains: string[];
  noSandbox: boolean;
  commandTimeoutSeconds: number;
}

function parseRunArgs(argv: string[]): RunArgs {
  const { values, positionals } = parseOptions(
    argv,
    {
      workspace: { type: 'string', short: 'w' },
      model: { type: 'string', short: 'm' },
      'max-turns': { type: 'string' },
      'max-tokens': { type: 'string' },
      'no-cache': { type: 'boolean' },
      'no-context-editing': { type: 'boolean' },
      'no-compaction': { type: 'boolean' },
      'allow-edits': { type: 'boolean' },
      'allow-command': { type: 'string', multiple: true },
      'allow-domain': { type: 'string', multiple: true },
      'no-sandbox': { type: 'boolean' },
      'command-timeout': { type: 'string' },
      json: { type: 'boolean' },
      'no-guards': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  const help = values.help === true;
  const prompt = positionals.join(' ').trim();
  if (!help && prompt === '') throw new UsageError('a PROMPT is required');
  const model = values.model?.trim();
  if (values.model !== undefined && !model) throw new UsageError('--model needs a model id');
  return {
    help,
    workspace: values.workspace,
    model: model ?? AGENT_DEFAULTS.model,
    maxTurns: values['max-turns'] === undefined ? AGENT_DEFAULTS.maxTurns : parsePositiveInteger('max-turns', values['max-turns']),
    maxTokens: values['max-tokens'] === undefined ? AGENT_DEFAULTS.maxTokens : parsePositiveInteger('max-tokens', values['max-tokens']),
    caching: values['no-cache'] !== true,
    contextEditing: values['no-context-editing'] !== true,
    compaction: values['no-compaction'] !== true,
    json: values.json === true,
    guards: values['no-guards'] !== true,
    prompt,
    allowEdits: values['allow-edits'] === true,
    allowCommands: (values['allow-command'] ?? []).map((p) => {
      if (p.trim() === '') throw new UsageError('--allow-command needs a command prefix');
      return p.trim();
    }),
    allowDomains: (values['allow-domain'] ?? []).map((h) => {
      const host = h.trim().toLowerCase();
      if (!/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/.test(host)) {
        throw new UsageError(`--allow-domain needs a host name such as example.com or *.example.com, not ${JSON.stringify(h)}`);
      }
      return host;
    }),
    noSandbox: values['no-sandbox'] === true,
    commandTimeoutSeconds:
      values['command-timeout'] === undefined ? DEFAULT_COMMAND_TIMEOUT_MS / 1000 : parsePositiveInteger('command-timeout', values['command-timeout']),
  };
}

/** Human output: text as it streams, one stderr line per memory operation. */
function textPrinter(io: RunIo): (event: AgentEvent) => void {
  let atLineStart = true;
  const text = (t: string) => {
    if (t.length === 0) return;
    io.stdout.write(t);
    atLineStart = t.endsWith('\n');
  };
  return (event) => {
    switch (event.type) {
      case 'text':
        text(event.text);
        break;
      case 'tool_end':
        io.stderr.write(`[${event.tool === 'str_replace_based_edit_tool' ? 'editor' : (event.tool ?? 'memory')}] ${event.is_error ? 'error: ' : ''}${event.summary}\n`);
        break;
      case 'compaction':
        io.stderr.write(`[context] compacted: about ${event.saved_tokens} tokens saved\n`);
        break;
      case 'retry':
        if (!atLineStart) text('\n');
        io.stderr.write(`[retry] ${event.message}\n`);
        break;
      case 'context_edit':
        io.stderr.write(`[context] the API cleared ${event.cleared_tool_uses} old tool results (${event.cleared_input_tokens} tokens)\n`);
        break;
      case 'done':
        if (!atLineStart) text('\n');
        break;
      default:
        break;
    }
  };
}

function jsonPrinter(io: RunIo): (event: AgentEvent) => void {
  return (event) => io.stdout.write(`${JSON.stringify(event)}\n`);
}

/** Ctrl+C stops the run cleanly (a running memory write finishes); a second one exits at once. */
function interruptSignal(io: RunIo): { signal: AbortSignal; dispose: () => void } {
  if (io.signal) return { signal: io.signal, dispose: () => undefined };
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => process.off('SIGINT', onSigint) };
}
