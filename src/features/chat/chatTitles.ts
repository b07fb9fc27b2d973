/**
 * What Chat History calls a chat that began with a built-in routine (Resume Session), once an
 * answer ended: what the session did, not which feature was next when it started. Pure.
 */
import type { FeatureFlip } from './shared/changeSummary';

/** A flipped feature with its description now (undefined when the checklist has none). */
export type TitledFlip = FeatureFlip & { description?: string };

/**
 * "Resume Session · F002 now passes: Complete a todo…" from the features it flipped; without a
 * flip, from the first real line of Claude's last answer ("Resume Session · Fixed complete() in
 * src/todo.js"); undefined when neither says anything (the chip's label stays).
 */
export function routineTitle(label: string, flips: readonly TitledFlip[], lastAnswer: string | undefined): string | undefined {
  const name = label.split(' · ')[0] || label;
  const passing = flips.filter((f) => f.passes);
  const failing = flips.filter((f) => !f.passes);
  if (passing.length > 0) {
    const ids = passing.slice(0, 2).map((f) => f.id).join(', ') + (passing.length > 2 ? ` and ${passing.length - 2} more` : '');
    const description = passing.length === 1 ? passing[0].description?.trim() : undefined;
    return `${name} · ${ids} now ${passing.length === 1 ? 'passes' : 'pass'}${description ? `: ${description}` : ''}`;
  }
  if (failing.length > 0) return `${name} · ${failing.slice(0, 2).map((f) => f.id).join(', ')} no longer ${failing.length === 1 ? 'passes' : 'pass'}`;
  const line = firstRealLine(lastAnswer ?? '');
  return line === undefined ? undefined : `${name} · ${line}`;
}

/** Lines that say nothing about what was done. */
const EMPTY_LINE = /^(session (is )?(done|over|complete|finished)|done|ok(ay)?|all done|finished|summary|here is (a|the) summary)[.:!]*$/i;

/** The first line of `markdown` with at least three words that is not a heading-only filler, without its markdown. */
export function firstRealLine(markdown: string): string | undefined {
  for (const raw of markdown.split('\n')) {
    const line = raw
      .replace(/^\s*(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)/, '')
      .replace(/[*_`]+/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .trim();
    if (line === '' || EMPTY_LINE.test(line) || line.split(/\s+/).length < 3) continue;
    return line;
  }
  return undefined;
}
