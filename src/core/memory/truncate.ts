/** Cutting long text views at a line boundary, with a last line telling how to read on. */
import { messages } from './messages';
import { numberLine } from './format';

/**
 * Numbers `lines` from `firstLine` and keeps whole lines while the body stays within `limit`
 * characters. When lines are dropped, a final bracketed line names the `view_range` to ask for
 * next; a single line longer than the limit is cut (and said so).
 */
export function numberedBody(lines: readonly string[], firstLine: number, totalLines: number, limit: number): string {
  const out: string[] = [];
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    const numbered = numberLine(firstLine + i, lines[i]);
    const cost = numbered.length + (out.length > 0 ? 1 : 0);
    if (used + cost > limit) {
      if (out.length === 0) {
        out.push(numbered.slice(0, limit), messages.lineCut(firstLine, limit));
        if (i + 1 < lines.length) out.push(messages.viewTruncated(firstLine, totalLines, limit));
      } else {
        out.push(messages.viewTruncated(firstLine + i - 1, totalLines, limit));
      }
      return out.join('\n');
    }
    out.push(numbered);
    used += cost;
  }
  return out.join('\n');
}

/** Keeps whole listing lines within `limit` characters and says how many were left out. */
export function truncateListing(lines: readonly string[], limit: number): string {
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    used += lines[i].length + (i > 0 ? 1 : 0);
    if (used > limit && i > 0) {
      return [...lines.slice(0, i), messages.listingTruncated(lines.length - i, limit)].join('\n');
    }
  }
  return lines.join('\n');
}
