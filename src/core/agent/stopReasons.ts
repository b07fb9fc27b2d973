/**
 * What the loop does after one complete model response, decided from its stop_reason and content
 * (https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons). Only `end_turn`
 * (and `stop_sequence`) with something in it is a finished answer; a cut-off, a refusal or an
 * empty first response ends the send as its own, named outcome instead of passing for one.
 */
import type {
  BetaContentBlock,
  BetaContentBlockParam,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { AgentFailure } from './errors';

export type TurnEnding =
  /** Run the tool calls and send their results. */
  | { next: 'run_tools' }
  /** The response stopped mid-call (max_tokens): answer the calls without running them, go on. */
  | { next: 'answer_unrun' }
  /** pause_turn: send the conversation back as it is and the model continues. */
  | { next: 'continue' }
  | { next: 'finish' }
  /** End the send with this failure; `rollback`: drop everything this send added to the history. */
  | { next: 'fail'; failure: AgentFailure; rollback: boolean };

export interface TurnFacts {
  stopReason: string | null;
  hasToolUses: boolean;
  /** No content block left once blank text blocks are dropped (see keptContent). */
  empty: boolean;
  /** An earlier response of this send was kept (it ran tools): an empty last one just means "done". */
  earlierResponses: boolean;
  maxTokens: number;
}

export function turnEnding(turn: TurnFacts): TurnEnding {
  // A refusal is checked first: a call in a refused response is never run, not even answered.
  if (turn.stopReason === 'refusal') return { next: 'fail', failure: refusalFailure(), rollback: true };
  if (turn.hasToolUses) return turn.stopReason === 'tool_use' ? { next: 'run_tools' } : { next: 'answer_unrun' };
  if (turn.stopReason === 'pause_turn') return { next: 'continue' };
  if (turn.stopReason === 'max_tokens') return { next: 'fail', failure: maxTokensFailure(turn.maxTokens), rollback: false };
  if (turn.stopReason === 'model_context_window_exceeded') return { next: 'fail', failure: contextWindowFailure(), rollback: false };
  if (turn.empty && !turn.earlierResponses) return { next: 'fail', failure: emptyResponseFailure(), rollback: false };
  return { next: 'finish' };
}

/**
 * The blocks of a response that may go back into the history. The API refuses empty or
 * whitespace-only text blocks in a request (and an assistant message without content), so those
 * are dropped; an empty result means the response is not kept at all.
 */
export function keptContent(content: readonly BetaContentBlock[]): BetaContentBlockParam[] {
  return content.filter((b) => b.type !== 'text' || b.text.trim() !== '') as BetaContentBlockParam[];
}

export function maxTokensFailure(maxTokens: number): AgentFailure {
  return {
    kind: 'max_tokens',
    message:
      `Claude's answer was cut off at max_tokens (${maxTokens} output tokens per response), so it is incomplete. ` +
      'Send "continue" to let Claude go on, or raise the limit (the claudeMemory.maxTokens setting, or --max-tokens for the CLI).',
  };
}

export function contextWindowFailure(): AgentFailure {
  return {
    kind: 'context_window',
    message: "Claude's answer was cut off: the conversation filled the model's context window. Start a new chat; the memory files keep what matters.",
  };
}

export function refusalFailure(): AgentFailure {
  return {
    kind: 'refusal',
    message: 'Claude declined to answer this request (stop_reason refusal). The message was taken out of the conversation; memory changes made before it are kept. Rephrase it and send again.',
  };
}

export function emptyResponseFailure(): AgentFailure {
  return {
    kind: 'empty_response',
    message: 'Claude ended its turn without an answer (an empty response). Send the message again, perhaps reworded.',
  };
}
