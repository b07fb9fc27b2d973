/**
 * Client-side planning of server-side tool-result clearing (clear_tool_uses_20250919).
 *
 * The API clears, on every request whose prompt passes the trigger, the results of all tool uses
 * but the `keep` most recent. With a fixed `keep`, the cleared region grows by one turn on every
 * request, which changes the prompt just before the kept results: each request must then rewrite
 * the kept results into the cache (1.25×) instead of reading them (0.1×). So the loop moves the
 * clearing frontier in batches instead: it asks to keep everything after the frontier, and moves
 * the frontier (to all but the `minKeep` newest uses) only once the results waiting behind it
 * weigh at least `batchTokens`. Between moves the prompt prefix stays identical and is read from
 * the cache. The plan is a pure function of the history, so it survives rolled-back sends.
 */
import type { BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';

export interface ClearingPlan {
  /** How many of the oldest tool uses the server may clear. */
  frontier: number;
  /** The `keep` value to send: every tool use after the frontier. */
  keep: number;
  /** Where the result of the newest clearable use sits ([message, block]), for a cache breakpoint. */
  frontierResult?: [message: number, block: number];
}

/** Rough token count, as the API's tokenizer averages on English and JSON (4 characters a token). */
function estimateTokens(value: unknown): number {
  return Math.ceil((typeof value === 'string' ? value.length : JSON.stringify(value ?? '').length) / 4);
}

export function planClearing(messages: readonly BetaMessageParam[], minKeep: number, batchTokens: number): ClearingPlan {
  const index = new Map<string, number>();
  const tokens: number[] = [];
  const resultAt: Array<[number, number] | undefined> = [];
  let frontier = 0;
  messages.forEach((message, i) => {
    const content = message.content;
    if (!Array.isArray(content)) return;
    if (message.role === 'assistant') {
      for (const block of content) {
        if (block.type !== 'tool_use') continue;
        index.set(block.id, tokens.length);
        tokens.push(estimateTokens(block.input));
        resultAt.push(undefined);
      }
      return;
    }
    if (message.role !== 'user') return;
    content.forEach((block, b) => {
      if (block.type !== 'tool_result') return;
      const use = index.get(block.tool_use_id);
      if (use === undefined) return;
      tokens[use] += estimateTokens(block.content);
      resultAt[use] = [i, b];
    });
    // A request is sent after every user message: decide there, as that request did.
    const end = tokens.length - minKeep;
    if (end <= frontier) return;
    let pending = 0;
    for (let u = frontier; u < end; u++) pending += tokens[u];
    if (pending >= batchTokens) frontier = end;
  });
  const keep = Math.max(1, tokens.length - frontier);
  return frontier > 0 ? { frontier, keep, frontierResult: resultAt[frontier - 1] } : { frontier, keep };
}
