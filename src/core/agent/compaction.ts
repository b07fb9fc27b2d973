/**
 * Server-side compaction (`compact_20260112`, beta `compact-2026-01-12`), paired with memory as
 * the memory tool's documentation advises. With `pause_after_compaction` the API answers a
 * request that passed the trigger with a response that holds only the `compaction` block
 * (stop_reason `compaction`). The loop then:
 *   1. keeps that assistant message verbatim (the block is signed; the API drops everything before
 *      it on later requests),
 *   2. asks Claude, in a user message, to save into /memories what must survive (progress, the
 *      state of the task, decisions), and
 *   3. carries on with the same send: Claude saves, then resumes the task.
 */
import type { BetaCompact20260112Edit, BetaMessage, BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';

export const COMPACTION_BETA = 'compact-2026-01-12';
/** Prompt size from which the API compacts (its own default is 150k; coding sessions grow fast). */
export const COMPACTION_TRIGGER_TOKENS = 100_000;
/** The stop_reason of a response paused after compacting. */
export const COMPACTION_STOP_REASON = 'compaction';

export const SAVE_TO_MEMORY_PROMPT =
  'The conversation was just compacted: the messages before the summary above are gone from your context. ' +
  'Before you continue, record in /memories what must survive: the state of the task, what you verified, ' +
  'decisions and their reasons, and the next step (append to progress.md; keep it short). Then continue the task where you left off.';

export function compactionEdit(trigger: number | undefined): BetaCompact20260112Edit {
  return {
    type: 'compact_20260112',
    trigger: { type: 'input_tokens', value: trigger ?? COMPACTION_TRIGGER_TOKENS },
    pause_after_compaction: true,
  };
}

export interface CompactionReport {
  /** Tokens of the prompt that was compacted (the last full prompt the API reported). */
  tokens_before: number;
  /** Rough tokens of the summary that replaces it (4 characters a token). */
  tokens_after: number;
  saved_tokens: number;
}

/** True when `message` is the API's pause after compacting. */
export function isCompactionPause(message: BetaMessage): boolean {
  return message.stop_reason === COMPACTION_STOP_REASON || (message.content.length > 0 && message.content.every((b) => b.type === 'compaction'));
}

/**
 * What the pause means in tokens. `previousPrompt`: the full input (uncached + cache read + cache
 * write) of the last request answered before the compacting one; the compacting response's own
 * top-level usage leaves the compaction iteration out, so the prompt it closed is best known from
 * there or from that response when it reports more.
 */
export function compactionReport(message: BetaMessage, previousPrompt: number): CompactionReport {
  const u = message.usage;
  const own = (u.input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
  const before = Math.max(previousPrompt, own);
  const summary = message.content.map((b) => (b.type === 'compaction' ? (b.content ?? '') : '')).join('');
  const after = Math.ceil(summary.length / 4);
  return { tokens_before: before, tokens_after: after, saved_tokens: Math.max(0, before - after) };
}

/** The user message that follows the paused response: the request to save into memory first. */
export function saveToMemoryMessage(): BetaMessageParam {
  return { role: 'user', content: [{ type: 'text', text: SAVE_TO_MEMORY_PROMPT }] };
}
