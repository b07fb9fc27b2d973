/** Token counts as short, readable text. */
import type { TokenUsage } from '../../src/webviews/protocol';

const numberFormat = new Intl.NumberFormat('en-US');

export function formatCount(n: number): string {
  return numberFormat.format(n);
}

/** "1,234 in · 1,000 cache read · 0 cache write · 56 out" */
export function formatUsage(u: TokenUsage): string {
  return [
    `${formatCount(u.input_tokens)} in`,
    `${formatCount(u.cache_read_input_tokens)} cache read`,
    `${formatCount(u.cache_creation_input_tokens)} cache write`,
    `${formatCount(u.output_tokens)} out`,
  ].join(' · ');
}
