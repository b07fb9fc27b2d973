/**
 * History in words, for people: who an author is ("Claude, chat 'Fix login'", "You", "MCP client
 * 'Claude Code'") and what a version did ("Claude edited", "You restored v3"). Shared by every
 * view of history (the Memory tree's tooltips and Show History, the changes feed), so they all
 * name writers the same way. Pure: no time formatting (the views bring their own "3 min ago").
 */
import type { Author, HistoryEntry } from './types';

const MCP_PREFIX = 'mcp:';
/** Longest chat title or client name quoted in a line. */
const MAX_QUOTED = 60;

/** The writer as the subject of a sentence: "Claude", "You", "claude-memory run", "Copilot". */
export function authorSubject(author: Author): string {
  switch (author.name) {
    case 'chat':
    case 'agent':
      return 'Claude';
    case 'user':
      return 'You';
    case 'run':
      return 'claude-memory run';
    case 'exec':
      return 'claude-memory exec';
    case 'lm-tool':
      return 'Copilot';
    case 'expiry':
      return 'Expiry';
    case 'mcp':
      return 'An MCP client';
    default:
      if (author.name.startsWith(MCP_PREFIX)) return `MCP client ${quoted(author.name.slice(MCP_PREFIX.length))}`;
      return quoted(author.name);
  }
}

/**
 * The writer with what is known about it, for a tooltip's "Last change: …": "Claude, chat 'Fix
 * login'", "You", "Copilot (language model tool)", "claude-memory run".
 */
export function describeAuthor(author: Author): string {
  switch (author.name) {
    case 'chat': {
      const title = author.title?.trim();
      return title ? `Claude, chat ${quoted(title)}` : 'Claude, in the chat';
    }
    case 'lm-tool':
      return 'Copilot (language model tool)';
    case 'expiry':
      return 'Memory expiry (unused file)';
    default:
      return authorSubject(author);
  }
}

/** What the version did, as a verb phrase: "edited", "created", "moved from /memories/a.md", "restored v3". */
export function describeOp(entry: Pick<HistoryEntry, 'op' | 'oldPath' | 'restoredFrom'>): string {
  switch (entry.op) {
    case 'create':
      return 'created';
    case 'str_replace':
    case 'insert':
    case 'edit':
      return 'edited';
    case 'delete':
      return 'deleted';
    case 'rename':
      return entry.oldPath !== undefined ? `moved from /memories/${entry.oldPath}` : 'moved';
    case 'restore':
      return entry.restoredFrom !== undefined ? `restored v${entry.restoredFrom}` : 'restored';
  }
}

/** One line for a version: "Claude edited", "You restored v3", "MCP client 'Claude Code' created". */
export function describeChange(entry: Pick<HistoryEntry, 'op' | 'oldPath' | 'restoredFrom' | 'author'>): string {
  return `${authorSubject(entry.author)} ${describeOp(entry)}`;
}

/** A name from outside (a chat title, a client's name) quoted on one short line. */
function quoted(text: string): string {
  const line = [...text].filter((c) => c >= ' ' && c !== '\u007f').join('').trim();
  const short = [...line].length > MAX_QUOTED ? `${[...line].slice(0, MAX_QUOTED - 1).join('')}…` : line;
  return `'${short}'`;
}
