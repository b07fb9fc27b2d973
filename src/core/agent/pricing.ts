/**
 * The one price table: what the chat and `run` show as an estimated cost. US dollars per million
 * tokens, per model: base input, 5-minute and 1-hour cache writes, cache hits, output, and a
 * long-prompt tier where the model has one. An estimate, never a bill: the UI says so, and a
 * model the table lacks shows "price unknown", never a borrowed figure.
 *
 * Checked against Anthropic's pricing and model pages (platform.claude.com/docs/.../models/*
 * overview, "Pricing") on PRICES_CHECKED. Cache hits are not one factor across models: 0.1× the
 * input price on most, 0.05× on Opus 5.5 and Sonnet 5.5, 0.025× on Fable/Mythos 5.1; so every row
 * carries its own figures instead of multipliers.
 */
import type { AgentUsage } from './events';

export const PRICES_CHECKED = '2026-12-01';

export interface Rates {
  /** Base input, USD per million tokens. */
  input: number;
  /** 5-minute cache writes (the loop's cache_control: ephemeral). */
  cacheWrite5m: number;
  /** 1-hour cache writes. */
  cacheWrite1h: number;
  /** Cache hits and refreshes. */
  cacheRead: number;
  output: number;
}

export interface ModelPrice extends Rates {
  /** The model id prefix this price applies to (the longest matching prefix wins). */
  prefix: string;
  /** A higher tier for every token of a request whose prompt (input + cache reads + writes) passes `above`. */
  longPrompt?: { above: number } & Rates;
}

/** The usual relation of cache prices to input (1.25×, 2×, 0.1×), for rows the page lists so. */
function standard(prefix: string, input: number, output: number): ModelPrice {
  return { prefix, input, output, cacheWrite5m: input * 1.25, cacheWrite1h: input * 2, cacheRead: input * 0.1 };
}

export const MODEL_PRICES: readonly ModelPrice[] = [
  // Current models.
  { prefix: 'claude-opus-5-5', input: 4, cacheWrite5m: 5, cacheWrite1h: 8, cacheRead: 0.2, output: 20 },
  { prefix: 'claude-sonnet-5-5', input: 2, cacheWrite5m: 2.5, cacheWrite1h: 4, cacheRead: 0.1, output: 10 },
  {
    prefix: 'claude-haiku-5-5',
    input: 0.1,
    cacheWrite5m: 0.125,
    cacheWrite1h: 0.2,
    cacheRead: 0.01,
    output: 0.5,
    longPrompt: { above: 100_000, input: 0.5, cacheWrite5m: 0.625, cacheWrite1h: 1, cacheRead: 0.05, output: 2.5 },
  },
  { prefix: 'claude-fable-5-1', input: 10, cacheWrite5m: 12.5, cacheWrite1h: 20, cacheRead: 0.25, output: 50 },
  { prefix: 'claude-mythos-5-1', input: 10, cacheWrite5m: 12.5, cacheWrite1h: 20, cacheRead: 0.25, output: 50 },
  // Legacy, still served.
  standard('claude-fable-5', 10, 50),
  standard('claude-mythos-5', 10, 50),
  standard('claude-opus-5', 5, 25),
  standard('claude-sonnet-5', 2, 10),
  standard('claude-opus-4-8', 5, 25),
  standard('claude-opus-4-7', 5, 25),
  standard('claude-opus-4-6', 5, 25),
  standard('claude-opus-4-5', 5, 25),
  standard('claude-opus-4-1', 15, 75),
  // Opus 4 (claude-opus-4-0, claude-opus-4-20250514).
  standard('claude-opus-4', 15, 75),
  standard('claude-sonnet-4', 3, 15),
  standard('claude-haiku-4-5', 1, 5),
  standard('claude-3-opus', 15, 75),
  standard('claude-3-7-sonnet', 3, 15),
  standard('claude-3-5-sonnet', 3, 15),
  { prefix: 'claude-3-5-haiku', input: 0.8, cacheWrite5m: 1, cacheWrite1h: 1.6, cacheRead: 0.08, output: 4 },
  { prefix: 'claude-3-haiku', input: 0.25, cacheWrite5m: 0.3, cacheWrite1h: 0.5, cacheRead: 0.03, output: 1.25 },
];

/** The price of `model`, or undefined for a model the table does not know. */
export function priceOf(model: string): ModelPrice | undefined {
  let best: ModelPrice | undefined;
  for (const price of MODEL_PRICES) {
    // A prefix matches a whole id segment: `claude-opus-5` is not `claude-opus-5-5`'s row's
    // fallback by accident, and `claude-sonnet-4` does not price `claude-sonnet-40`.
    const fits = model === price.prefix || (model.startsWith(price.prefix) && /^[-@[]/.test(model.slice(price.prefix.length)));
    if (fits && (!best || price.prefix.length > best.prefix.length)) best = price;
  }
  return best;
}

/**
 * Estimated cost in USD of ONE request's `usage` with `model` (the long-prompt tier is decided per
 * request), or undefined when the model's price is unknown. Sum requests' costs, not their usage.
 */
export function estimateCost(model: string, usage: AgentUsage): number | undefined {
  const price = priceOf(model);
  if (!price) return undefined;
  const prompt = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
  const rates: Rates = price.longPrompt && prompt > price.longPrompt.above ? price.longPrompt : price;
  const writes1h = Math.min(usage.cache_creation_1h_input_tokens ?? 0, usage.cache_creation_input_tokens);
  const writes5m = usage.cache_creation_input_tokens - writes1h;
  return (
    (usage.input_tokens * rates.input +
      writes5m * rates.cacheWrite5m +
      writes1h * rates.cacheWrite1h +
      usage.cache_read_input_tokens * rates.cacheRead +
      usage.output_tokens * rates.output) /
    1_000_000
  );
}

/** "$0.042", "<$0.001", "$1.23": short enough for a one-line footer. */
export function formatCost(usd: number): string {
  if (usd > 0 && usd < 0.001) return '<$0.001';
  if (usd < 1) return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}

/** What the cost line says for a model the table lacks (never a wrong figure). */
export const PRICE_UNKNOWN = 'price unknown';

/** The cost of a total, or "price unknown". */
export function costLabel(usd: number | undefined): string {
  return usd === undefined ? PRICE_UNKNOWN : `≈ ${formatCost(usd)}`;
}

/**
 * The cost of one response whose `usage` includes `compaction` (its compaction iterations): each
 * part priced as its own request, so each gets its own long-prompt tier. Undefined: price unknown.
 */
export function responseCost(model: string, usage: AgentUsage, compaction?: AgentUsage): { total: number; compaction: number } | undefined {
  if (!compaction) {
    const total = estimateCost(model, usage);
    return total === undefined ? undefined : { total, compaction: 0 };
  }
  const own: AgentUsage = {
    input_tokens: Math.max(0, usage.input_tokens - compaction.input_tokens),
    cache_read_input_tokens: Math.max(0, usage.cache_read_input_tokens - compaction.cache_read_input_tokens),
    cache_creation_input_tokens: Math.max(0, usage.cache_creation_input_tokens - compaction.cache_creation_input_tokens),
    output_tokens: Math.max(0, usage.output_tokens - compaction.output_tokens),
    cache_creation_1h_input_tokens: Math.max(0, (usage.cache_creation_1h_input_tokens ?? 0) - (compaction.cache_creation_1h_input_tokens ?? 0)),
  };
  const rest = estimateCost(model, own);
  const part = estimateCost(model, compaction);
  return rest === undefined || part === undefined ? undefined : { total: rest + part, compaction: part };
}
