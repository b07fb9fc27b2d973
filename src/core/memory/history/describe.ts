/**
 * Words for history in the UI: who made a change and what it did. One place, shared by the
 * Memory tree's tooltips and the Memory Changes feed, so every view names a writer the same way.
 */
import type { Author, HistoryOp } from './types';

const NAMED_AUTHORS: Record<string, string> = {
  agent: 'Claude',
  run: 'claude-memory run',
  exec: 'claude-memory exec',
  'lm-tool': 'Copilot (language model tool)',
  user: 'You',
  expiry: 'expiry',
  mcp: 'MCP client',
};

/** "Claude · chat 'Fix login'", "claude-memory run", "MCP client 'Claude Code'", "You", "expiry". */
export function describeAuthor(author: Author): string {
  if (author.name === 'chat') return author.title ? `Claude · chat '${oneLine(author.title)}'` : 'Claude · chat';
  if (author.name.startsWith('mcp:')) return `MCP client '${oneLine(author.name.slice('mcp:'.length))}'`;
  return NAMED_AUTHORS[author.name] ?? oneLine(author.name);
}

const OP_WORDS: Record<HistoryOp, string> = {
  create: 'created',
  str_replace: 'edited',
  insert: 'edited (lines inserted)',
  edit: 'edited',
  delete: 'deleted',
  rename: 'renamed',
  restore: 'restored',
};

/** What a version did to its file, as a past participle: "created", "edited", "renamed". */
export function describeOp(op: HistoryOp): string {
  return OP_WORDS[op];
}

/** Titles and client names come from outside: one short line, no control characters. */
function oneLine(text: string): string {
  const clean = [...text].map((c) => (c < ' ' || c === '\u007f' ? ' ' : c)).join('').replace(/\s+/g, ' ').trim();
  return clean.length > 60 ? `${clean.slice(0, 59)}…` : clean;
}
