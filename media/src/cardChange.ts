/** What a memory write changed, on its card: the result line, the changed lines, its size. */
import type { ChatEntry, ToolChange } from '../../src/features/chat/shared/protocol';
import { changeRows, type ChangeRow } from '../../src/features/chat/shared/changeRows';
import { element, icon } from './dom';

/** The expandable part of a card: the result line, and what a write changed. */
export function toolBody(entry: Extract<ChatEntry, { kind: 'tool' }>): HTMLElement | undefined {
  if (!entry.summary && !entry.change) return undefined;
  const body = element('div', 'tool-details');
  if (entry.summary) body.append(element('div', 'tool-summary', entry.summary));
  if (entry.change) body.append(changeView(entry.change));
  return body;
}

function changeView(change: ToolChange): HTMLElement {
  switch (change.type) {
    case 'str_replace':
      // Line by line, the changed words marked: one flipped `false` is one line out, one in.
      return diffLines(changeRows(change.old, change.new).rows);
    case 'insert':
      return diffLines(lines(change.text).map((text) => ({ kind: 'ins', text })), `after line ${change.line}`);
    case 'create':
      return diffLines(lines(change.text).map((text) => ({ kind: 'ins', text })));
    case 'rename': {
      const el = element('div', 'tool-rename');
      el.append(element('code', '', change.from), icon('arrow-right'), element('code', '', change.to));
      return el;
    }
  }
}

/** Longest change shown inline; the file itself has the rest. */
const MAX_CHANGE_LINES = 200;

function diffLines(rows: readonly ChangeRow[], caption?: string): HTMLElement {
  const el = element('div', 'tool-diff', undefined, { role: 'region', 'aria-label': 'What changed' });
  if (caption) el.append(element('div', 'diff-caption', caption));
  for (const row of rows.slice(0, MAX_CHANGE_LINES)) {
    if (row.kind === 'fold') {
      el.append(element('div', 'diff-fold', `⋯ ${row.count} unchanged line${row.count === 1 ? '' : 's'}`));
      continue;
    }
    const line = element('div', `diff-line diff-${row.kind}`);
    const sign = row.kind === 'ins' ? '+' : row.kind === 'del' ? '−' : ' ';
    const label = row.kind === 'ins' ? 'added' : row.kind === 'del' ? 'removed' : 'unchanged';
    const text = element('span', 'diff-text');
    if (row.kind !== 'ctx' && row.parts) {
      for (const part of row.parts) text.append(part.changed ? element('span', 'diff-word', part.text) : document.createTextNode(part.text));
    } else {
      text.textContent = row.text;
    }
    line.append(element('span', 'diff-sign', sign, { 'aria-label': label }), text);
    el.append(line);
  }
  if (rows.length > MAX_CHANGE_LINES) el.append(element('div', 'diff-caption', `… ${rows.length - MAX_CHANGE_LINES} more lines`));
  return el;
}

/** Lines a memory write added and removed, for its card's "+1 −1". */
export function changeSize(change: ToolChange): { added: number; removed: number } | undefined {
  switch (change.type) {
    case 'str_replace': {
      const { added, removed } = changeRows(change.old, change.new);
      return { added, removed };
    }
    case 'insert':
    case 'create':
      return { added: lines(change.text).length, removed: 0 };
    case 'rename':
      return undefined;
  }
}

function lines(text: string): string[] {
  if (text === '') return [];
  const all = text.split('\n');
  if (all[all.length - 1] === '') all.pop();
  return all;
}
