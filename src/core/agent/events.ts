/**
 * What an agent session reports while it runs, for the chat view, the CLI and tests. Every field is
 * safe to show: no API key, no host path, no stack trace.
 */
import type { TouchedPath } from '../memory/types';
import type { ApiRetryReason } from './apiRetries';
import type { ToolCallDetail } from './tools';

export type AgentErrorKind =
  | 'missing_key'
  | 'auth'
  | 'permission'
  | 'not_found'
  | 'bad_request'
  | 'rate_limit'
  | 'overloaded'
  | 'network'
  | 'stream'
  | 'max_turns'
  /** The last response was cut off at max_tokens: the answer is incomplete. */
  | 'max_tokens'
  /** The last response was cut off because the conversation filled the context window. */
  | 'context_window'
  /** Claude declined to answer (stop_reason `refusal`); the send was taken out of the history. */
  | 'refusal'
  /** Claude's response had no content at all (and nothing else happened in this send). */
  | 'empty_response'
  | 'cancelled'
  | 'unknown';

/** Token counts of one model response, as the API reports them (nulls read as 0). */
export interface AgentUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  output_tokens: number;
  /** Of cache_creation_input_tokens, those written to the 1-hour cache (priced higher); absent: none. */
  cache_creation_1h_input_tokens?: number;
}

export type AgentEvent =
  /** A streamed text delta of the assistant's answer. */
  | { type: 'text'; text: string }
  /**
   * A tool call is about to run. `tool` is the tool's name (`memory`, `str_replace_based_edit_tool`,
   * `bash`; absent means `memory`). `path`: the `/memories/...` path (`old_path` for rename), the
   * editor's path, or the shell command.
   */
  | { type: 'tool_start'; id: string; tool?: string; command: string; path?: string }
  /** Live output of a running call (bash), for UIs only; the model gets the capped result. */
  | { type: 'tool_output'; id: string; text: string }
  /** A tool call finished; `summary` is one human line ("created /memories/progress.md" or the error sentence). */
  | {
      type: 'tool_end';
      id: string;
      tool?: string;
      command: string;
      path?: string;
      is_error: boolean;
      summary: string;
      touched?: TouchedPath;
      detail?: ToolCallDetail;
    }
  /**
   * Usage of one model response (one per request that completed): the top-level fields plus every
   * `compaction` entry of `usage.iterations`, which the top level leaves out. `compaction`: that
   * part alone, when the API compacted in this request. `context_tokens`: the prompt size of the
   * last `message` iteration (never a compaction entry), i.e. how full the context is now.
   */
  | { type: 'usage'; usage: AgentUsage; compaction?: AgentUsage; context_tokens?: number }
  /** The API cleared old tool results server-side (context editing) before answering. */
  | { type: 'context_edit'; cleared_tool_uses: number; cleared_input_tokens: number }
  /**
   * The API compacted the conversation server-side (compaction.ts): the summary replaced
   * `tokens_before` prompt tokens with about `tokens_after`, and the client reloaded `reloaded`
   * from memory into the turn that resumes. `failed`: the API's summary failed (content null),
   * nothing was compacted. `line`: the one human sentence for chat and CLI.
   */
  | {
      type: 'compaction';
      tokens_before: number;
      tokens_after: number;
      saved_tokens: number;
      failed?: boolean;
      reloaded: Array<'progress' | 'checklist' | 'startup'>;
      line: string;
    }
  /**
   * The loop added a built-in request to Claude to the next user turn: `save` (record your state in
   * /memories, the context nears compaction) or `progress_reminder` (a Resume session is ending
   * without its progress.md entry). `text` is exactly what Claude reads; UIs show it as a chip.
   */
  | { type: 'memory_prompt'; kind: 'save' | 'progress_reminder'; label: string; text: string }
  /**
   * The response stream broke mid-message and the request is being sent again. Text already
   * streamed for this turn is void: the turn starts over (UIs drop the partial text they showed).
   */
  | { type: 'retry'; attempt: number; message: string }
  /**
   * A request attempt failed in a way the SDK retries by itself (529, 429, 5xx, timeouts, connection
   * errors): it waits about `delayMs`, then sends attempt `attempt` of `maxRetries` retries (apiRetries.ts).
   */
  | { type: 'api_retry'; reason: ApiRetryReason; attempt: number; maxRetries: number; delayMs: number }
  /** One model response is complete (its tool calls, if any, have run). */
  | { type: 'turn_end'; stop_reason: string | null }
  /** The send failed: one clear sentence that says what to do next. Always followed by `done`. */
  | { type: 'error'; kind: AgentErrorKind; message: string }
  /** The send is over, successful or not; the last event of every send. */
  | { type: 'done'; stop_reason: string | null };

export type AgentEventListener = (event: AgentEvent) => void;

/** What `AgentLoop.send()` resolves to; it never rejects. */
export interface AgentOutcome {
  /** True when the model finished its answer: not cut off, refused, empty, failed or cancelled. */
  ok: boolean;
  /** The last response's stop_reason, or null when no response completed. */
  stop_reason: string | null;
  /** Model requests that completed during this send. */
  turns: number;
  /** Sum of the usage of those requests, compaction iterations included. */
  usage: AgentUsage;
  /** Of `usage`, what went to server-side compaction (absent when nothing was compacted). */
  compaction_usage?: AgentUsage;
  error?: { kind: AgentErrorKind; message: string };
}

export function emptyUsage(): AgentUsage {
  return { input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 0 };
}

/** `a + b`, field by field (the 1-hour write count only when either side has one). */
export function addUsage(a: AgentUsage, b: AgentUsage): AgentUsage {
  const sum: AgentUsage = {
    input_tokens: a.input_tokens + b.input_tokens,
    cache_read_input_tokens: a.cache_read_input_tokens + b.cache_read_input_tokens,
    cache_creation_input_tokens: a.cache_creation_input_tokens + b.cache_creation_input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
  };
  if (a.cache_creation_1h_input_tokens !== undefined || b.cache_creation_1h_input_tokens !== undefined) {
    sum.cache_creation_1h_input_tokens = (a.cache_creation_1h_input_tokens ?? 0) + (b.cache_creation_1h_input_tokens ?? 0);
  }
  return sum;
}

/** Prompt size of a usage: uncached input + cache reads + cache writes. */
export function promptTokens(u: AgentUsage): number {
  return u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
}
