/** Token counts and costs as short, readable text. */
import { formatCost, PRICE_UNKNOWN } from '../../src/core/agent/pricing';
import type { TokenUsage } from '../../src/features/chat/shared/protocol';

export { formatCost };

const numberFormat = new Intl.NumberFormat('en-US');
const compactFormat = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

export function formatCount(n: number): string {
  return numberFormat.format(n);
}

/** The compact line under an answer: "12.3K in · 456 out · 10K cached · ≈ $0.012". */
export function formatUsageLine(u: TokenUsage, costUsd: number | undefined): string {
  const parts = [`${compactFormat.format(u.input_tokens + u.cache_creation_input_tokens)} in`, `${compactFormat.format(u.output_tokens)} out`];
  if (u.cache_read_input_tokens > 0) parts.push(`${compactFormat.format(u.cache_read_input_tokens)} cached`);
  parts.push(costUsd !== undefined ? `≈ ${formatCost(costUsd)}` : PRICE_UNKNOWN);
  return parts.join(' · ');
}

/** The hover text of a usage line: every count, and what the cost estimate is. */
export function formatUsageDetails(
  u: TokenUsage,
  requests: number,
  model: string,
  costUsd: number | undefined,
  compaction?: { usage: TokenUsage; costUsd: number | undefined },
): string {
  const lines = [
    `${formatCount(requests)} model request(s) to ${model}`,
    `Input: ${formatCount(u.input_tokens)} tokens`,
    `Written to the prompt cache: ${formatCount(u.cache_creation_input_tokens)} tokens`,
    `Read from the prompt cache: ${formatCount(u.cache_read_input_tokens)} tokens`,
    `Output: ${formatCount(u.output_tokens)} tokens`,
    costUsd !== undefined ? `Estimated cost: ${formatCost(costUsd)} (list prices; your bill may differ)` : `No price known for ${model}: cost not estimated (${PRICE_UNKNOWN})`,
  ];
  if (compaction) {
    const c = compaction.usage;
    const tokens = `${formatCount(c.input_tokens + c.cache_read_input_tokens + c.cache_creation_input_tokens)} in, ${formatCount(c.output_tokens)} out`;
    lines.push(`Of which compaction (the API's summary): ${tokens}${compaction.costUsd !== undefined ? `, ≈ ${formatCost(compaction.costUsd)}` : ''}`);
  }
  return lines.join('\n');
}
