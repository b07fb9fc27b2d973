/**
 * Anthropic's bash client tool (`bash_20250124`): one persistent shell per chat (ShellSession,
 * implemented by the platform), `restart`, output streamed to the UI and kept within a cap for the
 * model, a per-command timeout, and consent before anything runs: a command runs only when every
 * part of it is allowed by a rule (commandRules.ts) or the approver says once/always; a deny rule
 * refuses it without asking.
 */
import type { BetaToolUnion } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { answerOf, type AgentTool, type AgentToolLabel, type AgentToolResult, type ToolApprover, type ToolCallContext, type Unsandboxed } from '../agent/tools';
import { judgeCommand, withReadOnlyGit, type CommandRules } from './commandRules';
import { OutputCapture } from './outputCap';
import { loadShellParser, type CommandPart } from './shellCommands';

export const BASH_TOOL = { type: 'bash_20250124', name: 'bash' } as const;
export const DEFAULT_OUTPUT_CAP = 30_000;
export const DEFAULT_COMMAND_TIMEOUT_MS = 120_000;
/** Live output sent to the UI per command; beyond it the card says the rest went to the result only. */
const STREAM_LIMIT = 512 * 1024;

/**
 * What the OS sandbox lets a command do: `read-only` (allowed only because the rules judge it
 * read-only: nothing writable) or `workspace` (the user allowed it: the workspace folder and a
 * private TMPDIR are writable, protected places excepted).
 */
export type CommandAccess = 'read-only' | 'workspace';

/** A command that may run: the shell text to run (the command, or it wrapped for read-only git) and its access. */
interface Consent {
  shellText: string;
  access: CommandAccess;
}

/** Answer to a command's request for a host the user has not allowed. */
export type NetworkDecision = 'once' | 'always' | 'deny';

export interface ShellRunOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  onOutput(chunk: string): void;
  /** Default read-only. Without a sandbox the shell cannot enforce it (the rules are the defence). */
  access?: CommandAccess;
  /** Asked when the command reaches for a host that is not allowed; without it the request is refused. */
  askNetwork?(host: string, port: number | undefined): Promise<NetworkDecision>;
}

export interface ShellRunResult {
  /** Undefined when the command did not finish by itself. */
  exitCode: number | undefined;
  /** timeout/cancelled: the process tree was killed and the shell restarted; exited: the shell itself exited. */
  ended?: 'timeout' | 'cancelled' | 'exited';
  /**
   * Protected places (workspace-relative, `~/…` or `$TMPDIR/…`) the command made or changed,
   * which the sandbox moved out of the folder after it ended.
   */
  undone?: readonly string[];
}

/** One persistent shell (working directory and variables carry over between commands). */
export interface ShellSession {
  run(command: string, options: ShellRunOptions): Promise<ShellRunResult>;
  /** The directory the next command starts in (the shell keeps `cd` between commands). */
  directory?(): string;
  restart(): Promise<void>;
  dispose(): void;
}

/** What the host allows; asked before every call (trust can change). */
export type CommandPolicy = { mode: 'rules' } | { mode: 'refuse'; reason: string };

export interface BashToolOptions {
  /** Undefined: no shell can run here (a virtual workspace); `unavailable` says why. */
  shell?: () => ShellSession;
  unavailable?: string;
  policy(): CommandPolicy;
  rules(): CommandRules;
  /** Asked for commands no rule allows; without one (the CLI) `notAllowed` words the refusal. */
  approver?: ToolApprover;
  notAllowed?(prefixes: readonly string[]): string;
  /** "Always allow": remember these prefixes for the workspace. */
  remember?(prefixes: readonly string[]): void;
  timeoutMs?(): number;
  outputCap?: number;
  /**
   * Without the sandbox, asked before a command the read-only defaults allow: why it must ask
   * anyway (an argument that is a link to outside the workspace, the repository's git
   * configuration naming a program), or undefined. `cwd` is the shell's directory, undefined
   * before its first command. The sandbox makes this moot: there such reads stay read-only.
   */
  readOnlyCheck?(parts: readonly CommandPart[], cwd: string | undefined): Promise<string | undefined>;
  /** Whether commands run in the OS sandbox (read on every command). Default false. */
  sandboxed?(): boolean;
  /**
   * "Allow sandboxed commands": a command no rule allows runs without asking, in the sandbox with
   * workspace access. Honoured only while sandboxed() is true.
   */
  autoAllow?(): boolean;
  /**
   * Shown once, at the top of the first command's output, when commands run without the sandbox
   * and no approval card said so first (a command a rule allowed).
   */
  unsandboxedNotice?: string;
  /** Why commands run without the sandbox (read when sandboxed() is false): the approval card says it before the choice. */
  unsandboxed?(): Unsandboxed | undefined;
  /** The chat's question on the command's card for a host nobody allowed (Allow once / Always / Deny). */
  askNetwork?(request: { toolUseId: string; command: string; host: string; port: number | undefined; program?: string }, signal?: AbortSignal): Promise<NetworkDecision>;
}

export class BashTool implements AgentTool {
  readonly name = BASH_TOOL.name;
  private session: ShellSession | undefined;
  private noticeShown = false;

  constructor(private readonly options: BashToolOptions) {}

  definition(): BetaToolUnion {
    return { ...BASH_TOOL };
  }

  label(input: unknown): AgentToolLabel {
    const record = asRecord(input);
    if (record.restart === true) return { command: 'restart' };
    return typeof record.command === 'string' ? { command: 'run', path: record.command } : { command: 'run' };
  }

  summarize(input: unknown, result: AgentToolResult): string {
    const detail = result.detail?.kind === 'command' ? result.detail : undefined;
    if (asRecord(input).restart === true) return result.is_error ? firstLine(result.content) : 'restarted the shell';
    if (!detail) return firstLine(result.content) || 'the command did not run';
    const command = detail.command.length > 80 ? `${detail.command.slice(0, 80)}…` : detail.command;
    if (detail.ended === 'timeout') return `${command}: stopped by the timeout`;
    if (detail.ended === 'cancelled') return `${command}: stopped`;
    return `ran ${command} (exit ${detail.exitCode ?? '?'})`;
  }

  async execute(input: unknown, context: ToolCallContext): Promise<AgentToolResult> {
    const record = asRecord(input);
    if (!this.options.shell) return error(this.options.unavailable ?? 'Error: the bash tool is not available in this workspace.');
    const policy = this.options.policy();
    if (policy.mode === 'refuse') return error(policy.reason);
    if (record.restart === true) {
      await this.shell().restart();
      return { is_error: false, content: 'The shell was restarted: a fresh bash in the workspace folder.' };
    }
    const command = record.command;
    if (typeof command !== 'string' || command.trim() === '') {
      return error('Error: Parameter `command` is required: the bash command to run (or `restart: true` to restart the shell).');
    }
    const consent = await this.consent(command, context);
    if (!('access' in consent)) return consent;
    if (context.signal?.aborted) return error('Error: the command was cancelled before it ran; nothing was run.');
    return this.run(command, consent, context);
  }

  /** Shell of this chat, started on first use. */
  private shell(): ShellSession {
    this.session ??= this.options.shell!();
    return this.session;
  }

  dispose(): void {
    this.session?.dispose();
    this.session = undefined;
  }

  /**
   * What to run and with which access when the command may run, else the refusal. A command
   * allowed only as read-only runs with git's code-running configuration turned off and, in the
   * OS sandbox, with nothing writable; one the user allowed (a rule of theirs, Allow once or
   * Always, a CLI flag) may write the workspace.
   */
  private async consent(command: string, context: ToolCallContext): Promise<AgentToolResult | Consent> {
    let verdict = await judgeCommand(command, this.options.rules());
    if (verdict.kind === 'allowed' && verdict.readOnly && this.options.readOnlyCheck && this.options.sandboxed?.() !== true) {
      const why = await this.options.readOnlyCheck(verdict.parts ?? [], this.session?.directory?.());
      // Nothing to offer "Always allow": a rule would let the same read through with workspace access.
      if (why !== undefined) verdict = { kind: 'ask', prefixes: [], parts: verdict.parts ?? [], stillAsks: why };
    }
    if (verdict.kind === 'allowed') return verdict.readOnly ? { shellText: withReadOnlyGit(command), access: 'read-only' } : { shellText: command, access: 'workspace' };
    if (verdict.kind === 'denied') {
      return error(`Error: the command was not run: \`${short(verdict.part)}\` matches the deny rule "${verdict.rule}" in the user's settings.`);
    }
    // Auto-allow in the sandbox never passes a command the deny rules could not be checked against.
    if (this.options.sandboxed?.() === true && this.options.autoAllow?.() === true && verdict.unjudged !== true) return { shellText: command, access: 'workspace' };
    if (!this.options.approver) {
      return error(this.options.notAllowed?.(verdict.prefixes) ?? 'Error: the command was not run: no rule allows it and nobody can approve it here.');
    }
    const inSandbox = this.options.sandboxed?.() === true;
    const sandboxed = inSandbox && this.options.autoAllow !== undefined;
    const unsandboxed = inSandbox ? undefined : this.options.unsandboxed?.();
    // The card says it before the choice: the output need not say it again.
    if (unsandboxed) this.noticeShown = true;
    const answer = answerOf(
      await this.options.approver.ask(
        {
          kind: 'command',
          toolUseId: context.toolUseId,
          command,
          prefixes: verdict.prefixes,
          ...(verdict.stillAsks !== undefined ? { stillAsks: verdict.stillAsks } : {}),
          ...(sandboxed ? { sandboxed: true as const } : {}),
          ...(unsandboxed ? { unsandboxed } : {}),
        },
        context.signal,
      ),
    );
    if (answer.decision === 'deny' || context.signal?.aborted) {
      const reason = answer.reason?.trim();
      return error(`Error: the user declined to run this command; nothing was run.${reason ? ` The user said: ${reason}` : ''}`);
    }
    if (answer.decision === 'always') {
      // One rule per answer: the part the user chose (a compound command offers one per part).
      const chosen = answer.rule === undefined ? verdict.prefixes : verdict.prefixes.filter((p) => p === answer.rule);
      if (chosen.length > 0) this.options.remember?.(chosen);
    }
    return { shellText: command, access: 'workspace' };
  }

  private async run(command: string, consent: Consent, context: ToolCallContext): Promise<AgentToolResult> {
    const { shellText, access } = consent;
    const inSandbox = this.options.sandboxed?.() === true;
    if (this.options.unsandboxedNotice !== undefined && !inSandbox && !this.noticeShown) {
      this.noticeShown = true;
      context.onOutput(`[${this.options.unsandboxedNotice}]\n`);
    }
    const askNetwork = this.options.askNetwork;
    const questions = new AbortController();
    // One question per host and port while the command runs (a client opens several connections at once).
    const asked = new Map<string, Promise<NetworkDecision>>();
    const ask = askNetwork && ((host: string, port: number | undefined): Promise<NetworkDecision> => {
      const key = `${host}:${port ?? ''}`;
      let answer = asked.get(key);
      if (!answer) {
        answer = programOf(command).then((program) => askNetwork({ toolUseId: context.toolUseId, command, host, port, ...(program ? { program } : {}) }, questions.signal));
        asked.set(key, answer);
      }
      return answer;
    });
    const stopAsking = () => questions.abort();
    context.signal?.addEventListener('abort', stopAsking, { once: true });
    const capture = new OutputCapture(this.options.outputCap ?? DEFAULT_OUTPUT_CAP);
    let streamed = 0;
    const timeoutMs = this.options.timeoutMs?.() ?? DEFAULT_COMMAND_TIMEOUT_MS;
    const result = await this.shell().run(shellText, {
      timeoutMs,
      signal: context.signal,
      access,
      // A question still open when the command ends is withdrawn (the request is refused, never
      // as the user's answer): its card must not wait for nobody.
      askNetwork: ask,
      onOutput: (chunk) => {
        capture.add(chunk);
        if (streamed >= STREAM_LIMIT) return;
        const shown = chunk.slice(0, STREAM_LIMIT - streamed);
        streamed += shown.length;
        context.onOutput(streamed >= STREAM_LIMIT ? `${shown}\n[live output stops here; Claude gets the start and the end]\n` : shown);
      },
    });
    context.signal?.removeEventListener('abort', stopAsking);
    questions.abort();
    const output = capture.text();
    const detail = {
      kind: 'command' as const,
      command,
      exitCode: result.exitCode,
      ...(result.ended && result.ended !== 'exited' ? { ended: result.ended } : {}),
      ...(!inSandbox && this.options.sandboxed !== undefined ? { unsandboxed: true as const } : {}),
    };
    const seconds = timeoutMs >= 1000 ? String(Math.round(timeoutMs / 1000)) : String(timeoutMs / 1000);
    const note =
      result.ended === 'timeout'
        ? `[The command was stopped after ${seconds} s, the per-command timeout: its processes were killed and the shell restarted, so the working directory and variables are back to the start.]`
        : result.ended === 'cancelled'
          ? '[The user stopped the command: its processes were killed and the shell restarted.]'
          : result.ended === 'exited'
            ? `[The shell exited${result.exitCode !== undefined ? ` with code ${result.exitCode}` : ''}; a fresh one starts with the next command.]`
            : result.exitCode !== 0
              ? `[exit code ${result.exitCode ?? 'unknown'}]`
              : undefined;
    const body = output === '' ? '(no output)' : output.replace(/\n$/, '');
    const undone = undoneNote(result.undone);
    // The user sees it on the card too: what they made at that moment may be among it.
    if (undone !== undefined) context.onOutput(`\n${undone}\n`);
    const notes = [note, undone].filter((n): n is string => n !== undefined);
    return {
      is_error: result.ended !== undefined,
      content: notes.length === 0 ? body : `${body}\n${notes.join('\n')}`,
      detail,
    };
  }
}

/** What the model is told when the sandbox took out what a command made in protected places. */
export function undoneNote(undone: readonly string[] | undefined): string | undefined {
  if (undone === undefined || undone.length === 0) return undefined;
  const shown = undone.length > 12 ? [...undone.slice(0, 12), `and ${undone.length - 12} more`] : undone;
  return (
    `[The sandbox moved what this command made in protected places out of the folder (to a quarantine the log names): ${shown.join(', ')}. ` +
    "Commands may not write where code runs by itself (git's configuration and hooks, editor, hook-manager, package-manager and CI settings); to change such a place, use the text editor, which asks the user.]"
  );
}

/** The program of a one-part command (`npm` of `npm test`), for the words of a network question. */
async function programOf(command: string): Promise<string | undefined> {
  try {
    const parsed = (await loadShellParser()).parse(command);
    const name = parsed.ok && parsed.parts.length === 1 ? parsed.parts[0].words[0] : undefined;
    return name === undefined ? undefined : name.slice(name.lastIndexOf('/') + 1) || undefined;
  } catch {
    return undefined;
  }
}

function error(content: string): AgentToolResult {
  return { is_error: true, content };
}

function short(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

function firstLine(content: AgentToolResult['content']): string {
  return (typeof content === 'string' ? content : '').split('\n')[0].trim();
}

function asRecord(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
}
