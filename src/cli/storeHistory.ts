/**
 * What `history`, `restore` and `expire` share: the engine over <workspace>/.claude-memories
 * (same factory, lock and history as `exec`), the PATH argument in either form (`/memories/a.md`
 * or `a.md`, with the engine's path rules), and how a version and its author read in a terminal.
 */
import * as path from 'node:path';
import { AUTHORS, displayOf, parseMemoryPath, type Author, type HistoryEntry, type MemoryPath } from '../core/memory';
import { MEMORY_ROOT } from '../core/memory/types';
import { createNodeMemoryEngine, type NodeMemory } from '../platform/node/nodeMemoryEngine';
import type { CommandStartIo } from './args';
import { STORE_FOLDER } from './exec';

/** These commands read no stdin. */
export const processOutputIo = (): CommandStartIo => ({ stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() });

/**
 * The workspace's memory store with its history. Opening creates nothing: a store without
 * history simply has no versions. The CLI's own writes (restore) are the user's.
 */
export function openHistoryStore(workspace: string, onInternalError: (e: unknown) => void): NodeMemory {
  return createNodeMemoryEngine(path.join(workspace, STORE_FOLDER), { author: AUTHORS.user, onInternalError });
}

/** A memory file as the user names it: `/memories/notes.md` or `notes.md`. Throws a MemoryError. */
export function memoryPathArg(arg: string): MemoryPath {
  const isToolPath = arg === MEMORY_ROOT || arg.startsWith(`${MEMORY_ROOT}/`);
  return parseMemoryPath(isToolPath ? arg : `${MEMORY_ROOT}/${arg}`);
}

/** `chat 'Fix login' (turn 3)`, `mcp:claude-code`, `user`. */
export function authorLabel(author: Author): string {
  const parts = [author.name];
  if (author.title !== undefined) parts.push(`'${author.title}'`);
  else if (author.session !== undefined) parts.push(author.session);
  if (author.turn !== undefined) parts.push(`(turn ${author.turn})`);
  return parts.join(' ');
}

/** Local date and time to the second, e.g. `2026-11-30 20:55:01`. */
export function localTime(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** The version's path; for a rename `old → new`. */
export function entryPathLabel(entry: HistoryEntry): string {
  return entry.oldPath !== undefined ? `${displayOf(entry.oldPath)} → ${displayOf(entry.path)}` : displayOf(entry.path);
}

/** Rows as columns separated by two spaces, the last column left unpadded. */
export function columns(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => [...r[i]].length))) ?? [];
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat(widths[i] - [...c].length))).join('  ').trimEnd() + '\n').join('');
}
