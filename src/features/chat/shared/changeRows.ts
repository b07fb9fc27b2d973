/**
 * A memory write's change as its card shows it: a line-level diff of what the tool call replaced
 * (old_str → new_str), with the changed words of a changed line marked, unchanged runs folded
 * down to a little context, and the +/− line counts. Pure (no DOM, no `vscode`): the webview
 * renders the rows, unit tests check them in Node. The `diff` library does the diffing.
 */
import { diffLines, diffWordsWithSpace } from 'diff';

/** A piece of a changed line: `changed` pieces are highlighted (the words that differ). */
export interface WordPart {
  text: string;
  changed: boolean;
}

export type ChangeRow =
  | { kind: 'ctx'; text: string }
  | { kind: 'del' | 'ins'; text: string; parts?: WordPart[] }
  /** `count` unchanged lines left out. */
  | { kind: 'fold'; count: number };

export interface ChangeRows {
  rows: ChangeRow[];
  added: number;
  removed: number;
}

/** Unchanged lines kept on each side of a change. */
export const CONTEXT_LINES = 2;
/** Lines longer than this are not word-diffed (the cost grows with the product of the lengths). */
const MAX_WORD_DIFF_CHARS = 2_000;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The rows of `before` → `after`: context, removed and added lines, folds of unchanged runs. */
export function changeRows(before: string, after: string): ChangeRows {
  // Both sides end with a newline for the diff, so a missing last newline is not a change.
  const norm = (t: string) => (t === '' || t.endsWith('\n') ? t : `${t}\n`);
  const raw: ChangeRow[] = [];
  let added = 0;
  let removed = 0;
  const pending: { del: string[]; ins: string[] } = { del: [], ins: [] };
  const flush = () => {
    raw.push(...pairWords(pending.del, pending.ins));
    pending.del = [];
    pending.ins = [];
  };
  for (const part of diffLines(norm(before), norm(after))) {
    const lines = splitLines(part.value);
    if (part.removed) {
      pending.del.push(...lines);
      removed += lines.length;
    } else if (part.added) {
      pending.ins.push(...lines);
      added += lines.length;
    } else {
      flush();
      for (const text of lines) raw.push({ kind: 'ctx', text });
    }
  }
  flush();
  return { rows: foldContext(raw), added, removed };
}

/**
 * Removed and added lines of one change, in order (all removed, then all added, as diffs read),
 * with the changed words marked when a removed line and the added line at the same place pair up.
 */
function pairWords(del: string[], ins: string[]): ChangeRow[] {
  const dels: ChangeRow[] = del.map((text) => ({ kind: 'del', text }));
  const inss: ChangeRow[] = ins.map((text) => ({ kind: 'ins', text }));
  const pairs = Math.min(del.length, ins.length);
  for (let i = 0; i < pairs; i++) {
    if (del[i].length > MAX_WORD_DIFF_CHARS || ins[i].length > MAX_WORD_DIFF_CHARS) continue;
    const words = diffWordsWithSpace(del[i], ins[i]);
    const same = words.filter((w) => !w.added && !w.removed).reduce((n, w) => n + w.value.trim().length, 0);
    // Lines with nothing in common are a replacement, not an edit: no highlights.
    if (same === 0) continue;
    dels[i] = { kind: 'del', text: del[i], parts: merge(words.filter((w) => !w.added).map((w) => ({ text: w.value, changed: w.removed === true }))) };
    inss[i] = { kind: 'ins', text: ins[i], parts: merge(words.filter((w) => !w.removed).map((w) => ({ text: w.value, changed: w.added === true }))) };
  }
  return [...dels, ...inss];
}

function merge(parts: WordPart[]): WordPart[] {
  const out: WordPart[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    if (last && last.changed === part.changed) last.text += part.text;
    else out.push({ ...part });
  }
  return out;
}

/** Keeps CONTEXT_LINES unchanged lines around each change; longer runs become one fold row. */
function foldContext(rows: ChangeRow[]): ChangeRow[] {
  const near = rows.map(() => false);
  rows.forEach((row, i) => {
    if (row.kind === 'ctx') return;
    for (let j = Math.max(0, i - CONTEXT_LINES); j <= Math.min(rows.length - 1, i + CONTEXT_LINES); j++) near[j] = true;
  });
  const out: ChangeRow[] = [];
  let folded = 0;
  rows.forEach((row, i) => {
    if (row.kind === 'ctx' && !near[i]) {
      folded++;
      return;
    }
    if (folded > 0) out.push({ kind: 'fold', count: folded });
    folded = 0;
    out.push(row);
  });
  if (folded > 0) out.push({ kind: 'fold', count: folded });
  return out;
}
