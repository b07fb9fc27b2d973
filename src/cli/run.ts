/**
 * `claude-memory run PROMPT`: one Claude conversation with the memory tool, headless, over the
 * same AgentLoop and MemoryEngine as the extension. Assistant text streams to stdout, one line
 * per memory operation goes to stderr; `--json` writes every AgentEvent as one JSON line to stdout
 * instead. Exit codes: 0 finished, 1 failed or not finished (cut off at max_tokens, refused, empty
 * answer: one-line reason on stderr), 2 usage, 128 + the signal's number when stopped by SIGINT
 * (130), SIGTERM (143) or SIGHUP (129).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMPACTION_TRIGGER_TOKENS, MIN_COMPACTION_TRIGGER_TOKENS, storeFileReader } from '../core/agent/compaction';
import { AGENT_DEFAULTS } from '../core/agent/defaults';
import { AUTHORS, redactDeep, redactText } from '../core/memory';
import { AgentLoop } from '../core/agent/agentLoop';
import type { AgentEvent, AgentOutcome } from '../core/agent/events';
import type { AgentLogger } from '../core/agent/options';
import { createNodeMemoryEngine } from '../platform/node/nodeMemoryEngine';
import { openCheckpoints } from '../platform/node/checkpointRepository';
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../core/workspace/bashTool';
import { createRunTools } from './runTools';
import { CLI_NAME, parseOptions, parsePositiveInteger, startCommand, UsageError } from './args';
import { GUARDS_HELP, oneLine, STORE_FOLDER, storeProblem, type CliIo } from './exec';
import { signalExitCode, stopOnSignals } from './signals';

export const RUN_USAGE = `Usage: ${CLI_NAME} run [--workspace DIR] [--model M] [--max-turns N] [--allow-edits] [--allow-edits-protected] [--allow-command PREFIX]... [--allow-domain HOST]... [--no-sandbox] [--json] [--no-guards] PROMPT

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
      --compaction-trigger N  Prompt tokens from which the API compacts (default: ${COMPACTION_TRIGGER_TOKENS},
                        at least ${MIN_COMPACTION_TRIGGER_TOKENS}). At 75 % of it Claude is asked to save its state to
                        memory; after a compaction, progress.md's end, the checklist and startup.md are reloaded.
      --allow-edits     Let Claude create and edit files in DIR (never .git or the memory folder,
                        nor places where code runs: .vscode/, .git*, .husky/, .envrc, ...).
      --allow-edits-protected  As --allow-edits, and also the places where code runs on folder
                        open, commit or shell start (.vscode/tasks.json, .husky/, .envrc, ...).
      --allow-command PREFIX  Let Claude run commands starting with PREFIX (repeatable; '*' allows all).
                        A compound command runs only when every part is allowed.
      --allow-domain HOST  Let commands reach HOST over the network (repeatable; '*.example.com'
                        covers subdomains). Without it commands reach no network at all.
      --no-sandbox      Run commands without the OS sandbox. Sandboxed (the default where
                        bubblewrap and socat are installed on Linux, always on macOS), a command
                        allowed only as read-only writes nothing, an allowed one writes only DIR
                        and its TMPDIR (never git's configuration and hooks, .vscode, .husky,
                        .envrc, .npmrc, CI settings, the memory folder: what it makes there is
                        moved out when it ends), reads no credentials (~/.ssh, ~/.aws, ~/.npmrc,
                        shell histories, …), sees no API key, and everything it started ends with
                        it.
      --command-timeout SECONDS  Stop a command after this long (default: ${DEFAULT_COMMAND_TIMEOUT_MS / 1000}).
      --json            Write every agent event as one JSON line to stdout.
      --no-guards       Turn off the checklist guards (see above).
  -h, --help            Show this help.

Exit status: 0 when Claude finished its answer; 1 when the run failed or did not finish (an API
error, --max-turns reached, the answer cut off at max_tokens, a refusal, an empty answer), with
one line on stderr saying which; 2 on a usage error; 130, 143 or 129 when stopped by SIGINT
(Ctrl+C), SIGTERM or SIGHUP (the running command and everything it started end first; a second
signal exits at once).
`;

export interface RunIo extends CliIo {
  env: NodeJS.ProcessEnv;
  /** Fires to stop the run (in the real process: SIGINT, SIGTERM or SIGHUP, see signals.ts). */
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
export async function runCommand(argv: string[], given: RunIo = processIo()): Promise<number> {
  const io: RunIo = { ...given, stderr: redactingStderr(given.stderr) };
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
    io.stderr.write(`${CLI_NAME} run: cannot use ${path.join(workspace, STORE_FOLDER)} as the memory store: ${storeProblem(e)}\n`);
    return 1;
  }

  const workspaceTools = createRunTools(workspace, STORE_FOLDER, { ...args, env: io.env, onUnsandboxed: (m) => io.stderr.write(`${CLI_NAME} run: ${m}\n`), onNotice: (m) => io.stderr.write(`${CLI_NAME} run: ${m}\n`) }, (e) => logger.error(`[editor] internal error: ${oneLine(e)}`));
  const session = new AgentLoop({
    apiKey,
    baseURL: io.env.ANTHROPIC_BASE_URL?.trim() || undefined,
    model: args.model,
    maxTokens: args.maxTokens,
    maxTurns: args.maxTurns,
    memory: engine,
    promptCaching: args.caching,
    contextEditing: args.contextEditing,
    compaction: args.compaction,
    compactionTrigger: args.compactionTrigger,
    compactionInstructions: args.compaction ? readCompactionInstructions() : undefined,
    readMemoryFile: storeFileReader(store),
    tools: workspaceTools.tools,
    system: workspaceTools.systemPrompt,
    logger,
  });

  // Ctrl+C, a kill (SIGTERM) and a closed terminal (SIGHUP) stop the run the same way: the running
  // command is killed, the model gets no next turn, the sandbox's proxy and bridges stop.
  const stop = io.signal ? undefined : stopOnSignals();
  const signal = io.signal ?? stop!.signal;
  let outcome: AgentOutcome;
  try {
    await recordCheckpoint(workspace, engine, args.prompt, io);
    const printer = args.json ? jsonPrinter(io) : textPrinter(io);
    outcome = await session.send(args.prompt, printer, signal);
  } finally {
    await workspaceTools.dispose();
    stop?.dispose();
  }
  const received = stop?.received();
  if (outcome.ok) return received === undefined ? 0 : signalExitCode(received);
  const error = outcome.error ?? { kind: 'unknown', message: 'the run failed' };
  io.stderr.write(`${CLI_NAME} run: ${error.message}${received === undefined || received === 'SIGINT' ? '' : ` (${received})`}\n`);
  if (received !== undefined) return signalExitCode(received);
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
  compactionTrigger: number;
  json: boolean;
  guards: boolean;
  prompt: string;
  allowEdits: boolean;
  allowEditsProtected: boolean;
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
      'compaction-trigger': { type: 'string' },
      'allow-edits': { type: 'boolean' },
      'allow-edits-protected': { type: 'boolean' },
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
    compactionTrigger: compactionTriggerOf(values['compaction-trigger']),
    json: values.json === true,
    guards: values['no-guards'] !== true,
    prompt,
    allowEdits: values['allow-edits'] === true || values['allow-edits-protected'] === true,
    allowEditsProtected: values['allow-edits-protected'] === true,
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

function compactionTriggerOf(value: string | undefined): number {
  if (value === undefined) return COMPACTION_TRIGGER_TOKENS;
  const n = parsePositiveInteger('compaction-trigger', value);
  if (n < MIN_COMPACTION_TRIGGER_TOKENS) throw new UsageError(`--compaction-trigger must be at least ${MIN_COMPACTION_TRIGGER_TOKENS} tokens (the API's minimum), got ${n}`);
  return n;
}

/**
 * The compaction edit's instructions: media/templates/compaction-instructions.md of the package
 * (one level above dist/cli.js, three above out/src/cli/). Undefined when it is not there.
 */
export function readCompactionInstructions(startDir: string = __dirname): string | undefined {
  let dir = startDir;
  for (let i = 0; i < 5; i++) {
    try {
      return fs.readFileSync(path.join(dir, 'media', 'templates', 'compaction-instructions.md'), 'utf8');
    } catch {
      dir = path.dirname(dir);
    }
  }
  return undefined;
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
        if (!atLineStart) text('\n');
        io.stderr.write(`[context] ${event.line}\n`);
        break;
      case 'memory_prompt':
        if (!atLineStart) text('\n');
        io.stderr.write(`[memory] ${event.label}\n`);
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

/**
 * `--json`: every event as one JSON line, secrets redacted (the lines end up in CI logs; a command
 * may have printed an `.env` file). Text deltas are held until the next other event and written
 * as one text event, so a secret split across deltas is still found whole.
 */
function jsonPrinter(io: RunIo): (event: AgentEvent) => void {
  let pending = '';
  const line = (event: AgentEvent) => io.stdout.write(`${JSON.stringify(redactDeep(event))}\n`);
  return (event) => {
    if (event.type === 'text') {
      pending += event.text;
      return;
    }
    if (pending.length > 0) line({ type: 'text', text: pending });
    pending = '';
    line(event);
  };
}

/** stderr with secrets redacted, line by line (every write to it is whole lines). */
function redactingStderr(stderr: RunIo['stderr']): RunIo['stderr'] {
  const write = (chunk: unknown, ...rest: unknown[]): boolean =>
    (stderr.write as (c: unknown, ...r: unknown[]) => boolean).call(stderr, typeof chunk === 'string' ? redactText(chunk) : chunk, ...rest);
  return new Proxy(stderr, {
    get: (target, key) => {
      if (key === 'write') return write;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The checkpoint before the prompt (see src/core/checkpoints): what Claude then changes in the
 * folder and in memory can be rewound with `claude-memory rewind ID`. A safety net, not a
 * condition: without git (or when it fails) the run goes on, and says so.
 */
async function recordCheckpoint(workspace: string, engine: import('../core/memory').MemoryEngine, prompt: string, io: RunIo): Promise<void> {
  try {
    const store = await openCheckpoints(workspace, { memoryFolder: STORE_FOLDER, memory: engine });
    // Quiet when it works ('claude-memory checkpoints' lists it): stderr is the run's own story.
    await store.create({ kind: 'run', prompt });
  } catch (e) {
    io.stderr.write(`${CLI_NAME} run: no checkpoint was recorded (${oneLine(e)}); the run goes on.\n`);
  }
}
