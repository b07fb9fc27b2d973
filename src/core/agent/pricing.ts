/**
 * The one price table: what the chat shows as an estimated cost. Prices are US dollars per million
 * tokens from Anthropic's public price list; prompt-cache writes cost 1.25× the input price and
 * cache reads 0.1× (5-minute cache, as the loop uses). An estimate, never a bill: the UI says so.
 */
import type { AgentUsage } from './events';

export interface ModelPrice {
  /** The model id prefix this price applies to (the longest matching prefix wins). */
  prefix: string;
  /** USD per million input tokens. */
  input: number;
  /** USD per million output tokens. */
  output: number;
}

export const CACHE_WRITE_FACTOR = 1.25;
export const CACHE_READ_FACTOR = 0.1;

export const MODEL_PRICES: readonly ModelPrice[] = [
  { prefix: 'claude-opus-4-0', input: 15, output: 75 },
  { prefix: 'claude-opus-4-1', input: 15, output: 75 },
  { prefix: 'claude-opus-4-2025', input: 15, output: 75 },
  { prefix: 'claude-3-opus', input: 15, output: 75 },
  // Opus 4.5 and later.
  { prefix: 'claude-opus', input: 5, output: 25 },
  { prefix: 'claude-sonnet', input: 3, output: 15 },
  { prefix: 'claude-3-7-sonnet', input: 3, output: 15 },
  { prefix: 'claude-3-5-sonnet', input: 3, output: 15 },
  { prefix: 'claude-haiku', input: 1, output: 5 },
  { prefix: 'claude-3-5-haiku', input: 0.8, output: 4 },
  { prefix: 'claude-3-haiku', input: 0.25, output: 1.25 },
];

/** The price of `model`, or undefined for a model the table does not know. */
export function priceOf(model: string): ModelPrice | undefined {
  let best: ModelPrice | undefined;
  for (const price of MODEL_PRICES) {
    if (model.startsWith(price.prefix) && (!best || price.prefix.length > best.prefix.length)) best = price;
  }
  return best;
}

/** Estimated cost in USD of `usage` with `model`, or undefined when the model's price is unknown. */
export function estimateCost(model: string, usage: AgentUsage): number | undefined {
  const price = priceOf(model);
  if (!price) return undefined;
  const perToken = (perMillion: number) => perMillion / 1_000_000;
  return (
    usage.input_tokens * perToken(price.input) +
    usage.cache_creation_input_tokens * perToken(price.input * CACHE_WRITE_FACTOR) +
    usage.cache_read_input_tokens * perToken(price.input * CACHE_READ_FACTOR) +
    usage.output_tokens * perToken(price.output)
  );
}

/** "$0.042", "<$0.001", "$1.23": short enough for a one-line footer. */
export function formatCost(usd: number): string {
  if (usd > 0 && usd < 0.001) return '<$0.001';
  if (usd < 1) return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}
