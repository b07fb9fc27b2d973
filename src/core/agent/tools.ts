/**
 * The contract between the tool-use loop and the tools it can run besides memory: Anthropic's
 * text editor (`text_editor_20250728`) and bash (`bash_20250124`) client tools, executed by the
 * extension host or the CLI. Pure types: no `vscode`, no `fs`.
 *
 * - The loop sends `definition` of every tool in `AgentOptions.tools` (after the memory tool) and
 *   dispatches each tool_use by `name`.
 * - `execute` never throws for an expected failure: it returns `{is_error: true, content}` with
 *   one model-safe sentence (no host path outside the workspace, no stack). A throw is a bug; the
 *   loop answers it with a generic error result and logs it.
 * - Consent lives inside the tool: a write or a command asks its `ToolApprover` before it runs,
 *   and a refusal is an `is_error` result ("the user declined ..."), after which the loop goes on.
 */
import type { BetaToolUnion } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { ResultContent, TouchedPath } from '../memory/types';

/** What a UI shows about a finished call, beyond the model-facing result. */
export type ToolCallDetail =
  /** A text editor write: workspace-folder-relative path (`/` separators) and the text before/after. */
  | { kind: 'edit'; path: string; before: string | undefined; after: string }
  /** A bash command: its exit code (undefined when killed), why it ended early, if it did, and whether it ran without the OS sandbox. */
  | { kind: 'command'; command: string; exitCode: number | undefined; ended?: 'timeout' | 'cancelled' | 'restart'; unsandboxed?: true }
  /** A memory write, as the model asked for it (memoryChangeOf in summary.ts): what the card shows changed. */
  | { kind: 'memory'; change: MemoryChange }
  /**
   * A text editor `view` that succeeded: the folder-relative path, the view_range asked for (1-based,
   * -1 = the end), the file's line count, or `directory` for a folder's listing.
   */
  | { kind: 'fileRead'; path: string; range?: [number, number]; lines?: number; directory?: boolean }
  /** A memory `view` that succeeded: whether it showed a file (text or image) or listed a directory. */
  | { kind: 'memoryRead'; target: 'file' | 'directory' };

/** What a memory write changed, from its input (the engine may still have redacted secrets in it). */
export type MemoryChange =
  | { type: 'create'; text: string }
  | { type: 'str_replace'; old: string; new: string }
  | { type: 'insert'; line: number; text: string }
  | { type: 'rename'; from: string; to: string };

export interface AgentToolResult {
  is_error: boolean;
  /** Exactly what goes into the tool_result block's `content`. */
  content: ResultContent;
  /** Memory tool calls: what they touched (tree reveal, card links). */
  touched?: TouchedPath;
  detail?: ToolCallDetail;
}

export interface ToolCallContext {
  /** The tool_use block's id: also the id of the UI card that shows the call. */
  toolUseId: string;
  signal?: AbortSignal;
  /** Live output of a running call (bash stdout/stderr as it arrives), for the UI only. */
  onOutput(chunk: string): void;
}

/** A label for a call before it runs: the card's title. */
export interface AgentToolLabel {
  command: string;
  /** The path (memory: `/memories/...`; editor: as the model wrote it) or the shell command. */
  path?: string;
}

export interface AgentTool {
  /** The tool's name in requests and tool_use blocks (`str_replace_based_edit_tool`, `bash`). */
  readonly name: string;
  /** The entry of the request's `tools` array. */
  definition(): BetaToolUnion;
  label(input: unknown): AgentToolLabel;
  /** One human line for the card and the CLI's stderr ("edited src/app.ts", "ran npm test (exit 1)"). */
  summarize(input: unknown, result: AgentToolResult): string;
  execute(input: unknown, context: ToolCallContext): Promise<AgentToolResult>;
}

/** What the user is asked to allow. */
export type ApprovalRequest =
  | {
      kind: 'command';
      toolUseId: string;
      command: string;
      /** The rules "Always allow" offers (core/workspace/ruleOffers.ts), one per part of a compound command that is not yet allowed. */
      prefixes: string[];
      /** The parts those rules cannot cover, in a few words: the command itself asks again after "Always allow". */
      stillAsks?: string;
      /** The command would run in the OS sandbox: the card may offer "Allow sandboxed commands in this chat". */
      sandboxed?: true;
      /** The command would run without the OS sandbox, and why: the card says so before the choice. */
      unsandboxed?: Unsandboxed;
    }
  /** `protected`: why the place is protected (code runs there); the card says it. */
  | { kind: 'edit'; toolUseId: string; path: string; before: string | undefined; after: string; protected?: string }
  /**
   * A running sandboxed command reaches for a host nobody allowed: `always` adds the host to the
   * user's allowed domains. `program`: the command's program when it has one part (`npm`), for the
   * card's words.
   */
  | { kind: 'network'; toolUseId: string; command: string; host: string; port?: number; program?: string };

/**
 * Why commands run without the OS sandbox: `off`, the user turned it off (the setting);
 * `unavailable`, it cannot run here (`why` names what is missing, `help` how to get it, if anything can).
 */
export type Unsandboxed = { mode: 'off' } | { mode: 'unavailable'; why: string; help?: string };

/** `always`: remember the request's prefixes for this workspace, then run. */
export type ApprovalDecision = 'once' | 'always' | 'deny';

/** A decision with what it said: `rule`, the one prefix "Always allow" remembers; `reason`, why the user denied (sent to Claude). */
export interface ApprovalAnswer {
  decision: ApprovalDecision;
  rule?: string;
  reason?: string;
}

/** The answer of a decision given either way. */
export function answerOf(value: ApprovalDecision | ApprovalAnswer): ApprovalAnswer {
  return typeof value === 'string' ? { decision: value } : value;
}

/** A card's answer: a decision, or `sandboxed` (allow once and run later commands of this chat without asking, sandboxed). */
export type CardDecision = ApprovalDecision | 'sandboxed';

/**
 * Asks the user. The chat answers through buttons on the call's card; the CLI answers from its
 * flags (nobody can click there). Resolves `deny` when the signal fires.
 */
export interface ToolApprover {
  ask(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalDecision | ApprovalAnswer>;
}
