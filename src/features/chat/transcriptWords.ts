/** The transcript's fixed lines: waiting, a reload's interruption, the retry line, and what each failure offers. */
import type { ApiRetryReason } from '../../core/agent/apiRetries';
import type { AgentErrorKind } from '../../core/agent/events';
import type { ErrorAction } from './shared/protocol';

export const WAITING_TEXT = 'Waiting for Claude…';
/** The line a chat restored after a reload ends with when an answer was running. */
export const INTERRUPTED_TEXT = 'Stopped: the window was reloaded while Claude was answering.';
/**
 * The line Stop leaves in the chat: everything Claude did so far stays, and where to take it back
 * (the error's own message is the CLI's).
 */
export const STOPPED_TEXT = 'Stopped. What Claude did so far is kept: file edits, what its commands did and memory changes (the change summary lists them; Undo or Rewind takes them back).';
/** A card whose call was still running when the window reloaded. */
export const INTERRUPTED_CARD = 'interrupted by a window reload before it finished';


const RETRY_REASONS: Record<ApiRetryReason, string> = {
  overloaded: 'Overloaded',
  rate_limit: 'Rate limited',
  server: 'Server error',
  timeout: 'No answer in time',
  network: 'Connection failed',
};


/** "Overloaded — retrying in 4 s (attempt 1 of 2)" */
export function retryText(reason: ApiRetryReason, delayMs: number, attempt: number, maxRetries: number): string {
  const seconds = Math.max(1, Math.round(delayMs / 1000));
  return `${RETRY_REASONS[reason]} — retrying in ${seconds} s (attempt ${attempt} of ${maxRetries})`;
}


/** What the user can do about each kind of failure. */
export function actionsFor(kind: AgentErrorKind): ErrorAction[] {
  switch (kind) {
    case 'missing_key':
      return ['setApiKey'];
    case 'auth':
      // The question is kept: Retry sends it again (after Set API Key, that happens by itself).
      return ['setApiKey', 'retry'];
    case 'permission':
    case 'not_found':
    case 'bad_request':
      return ['openSettings'];
    case 'rate_limit':
    case 'overloaded':
    case 'network':
    case 'stream':
    case 'unknown':
    case 'max_turns':
    case 'empty_response':
      return ['retry'];
    case 'max_tokens':
      return ['retry', 'openSettings'];
    case 'context_window':
    case 'refusal':
    case 'cancelled':
      return [];
  }
}
