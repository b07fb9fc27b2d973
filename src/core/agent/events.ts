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
  /** Usage of one model response (one per request that completed). */
  | { type: 'usage'; usage: AgentUsage }
  /** The API cleared old tool results server-side (context editing) before answering. */
  | { type: 'context_edit'; cleared_tool_uses: number; cleared_input_tokens: number }
  /**
   * The API compacted the conversation server-side (compaction.ts): the summary replaced
   * `tokens_before` prompt tokens with about `tokens_after`. Claude is asked to save into memory next.
   */
  | { type: 'compaction'; tokens_before: number; tokens_after: number; saved_tokens: number }
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

/** What `AgentSession.send()` resolves to; it never rejects. */
export interface AgentOutcome {
  /** True when the model finished its answer: not cut off, refused, empty, failed or cancelled. */
  ok: boolean;
  /** The last response's stop_reason, or null when no response completed. */
  stop_reason: string | null;
  /** Model requests that completed during this send. */
  turns: number;
  /** Sum of the usage of those requests. */
  usage: AgentUsage;
  error?: { kind: AgentErrorKind; message: string };
}

export function emptyUsage(): AgentUsage {
  return { input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 0 };
}
