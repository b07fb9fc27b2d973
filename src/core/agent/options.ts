import type { ClientOptions } from '@anthropic-ai/sdk';
import type { BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { MemoryToolExecutor } from '../memory/types';
import type { AgentTool } from './tools';

/** Where the loop writes diagnostics. Never given the API key (it is not in anything the loop logs). */
export interface AgentLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface AgentOptions {
  /** Checked before any request: without it `send()` reports a `missing_key` error. */
  apiKey: string | undefined;
  /** API origin, e.g. a local scripted server in tests. Default: the SDK's (https://api.anthropic.com). */
  baseURL?: string;
  model: string;
  maxTokens: number;
  /** Model requests allowed per `send()`; when reached with tool calls pending, the send ends with `max_turns`. */
  maxTurns: number;
  memory: MemoryToolExecutor;
  /** Client tools besides memory (text editor, bash), sent after the memory tool; see tools.ts. */
  tools?: readonly AgentTool[];
  /** Cache breakpoints on the stable prefix and the moving end of the conversation. */
  promptCaching: boolean;
  /** Ask the API to clear old memory tool results server-side once the context grows (clear_tool_uses). */
  contextEditing: boolean;
  /**
   * Server-side compaction (compact_20260112) with pause_after_compaction: when the API compacts,
   * Claude is first asked to save what must survive into memory, then goes on (compaction.ts).
   */
  compaction?: boolean;
  /** Prompt size in tokens from which the API compacts (default: COMPACTION_TRIGGER_TOKENS). */
  compactionTrigger?: number;
  /**
   * Fraction of the trigger (0-1, default DEFAULT_SAVE_THRESHOLD) past which the next request asks
   * Claude to record its state in /memories before the API compacts; 0 or less: never ask.
   */
  compactionSaveThreshold?: number;
  /** The compaction edit's `instructions` (media/templates/compaction-instructions.md); blank: the server's default. */
  compactionInstructions?: string;
  /**
   * Reads a memory store file as text (`progress.md`, `features.json`, `startup.md`), undefined
   * when it does not exist: what the client reloads after a compaction. Default: the memory tool's
   * own `view`, with its line numbers taken off.
   */
  readMemoryFile?: (name: string) => Promise<string | undefined>;
  /** Sent as the system prompt as is; the API adds the memory tool's own protocol prompt itself. */
  system?: string;
  /** SDK retries on 408/409/429/5xx/529 and connection errors (default 2). */
  maxRetries?: number;
  /** Times a response stream that breaks mid-message is requested again (default 2). */
  streamRetries?: number;
  /** Request timeout in ms (SDK default: 10 minutes). */
  timeout?: number;
  /** Context editing knobs (defaults in request.ts, tuned with bench/agent; see clearing.ts). */
  /** Prompt size in tokens from which the API clears old tool results. */
  contextEditingTrigger?: number;
  /** Newest memory calls whose results are never cleared. */
  contextEditingKeep?: number;
  /** Tokens of old results that must be waiting before the clearing frontier moves (and the API's clear_at_least). */
  contextEditingClearAtLeast?: number;
  fetch?: ClientOptions['fetch'];
  logger?: AgentLogger;
  /**
   * A conversation to continue: another session's `conversation` (always complete tool_use/tool_result
   * pairs), e.g. when a settings change needs a new SDK client but not a new conversation.
   */
  conversation?: readonly BetaMessageParam[];
}
