/**
 * Memory expiry, as the memory tool's documentation asks of a client: files no agent has used
 * for a long time are deleted, as a recorded `delete` version by the author `expiry`, so they
 * can always come back from history. "Used" is the later of the file's modification time, the
 * time it was last moved (a rename keeps the modification time) and the last agent read. Other
 * versions add nothing: a write sets the modification time itself, and a hand edit noticed late
 * must not make an old file look fresh.
 */
import type { SafeStore } from '../store';
import type { MemoryHistory } from './historyStore';
import type { StoreMarks } from './marks';

export const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Days without use before a memory file expires, unless the user chose otherwise (the
 * `claudeMemory.expiry.days` setting, `claude-memory expire --days`): a quarter of a year, long
 * enough that a project paused over a holiday keeps its notes.
 */
export const DEFAULT_EXPIRY_DAYS = 90;

export interface FileUse {
  /** Store-relative path. */
  rel: string;
  /** Milliseconds since the epoch. */
  lastUsed: number;
  pinned: boolean;
}

export interface ExpiredFile {
  rel: string;
  lastUsed: number;
  /** Whole days since last use. */
  idleDays: number;
}

/** Every memory file with its last use and pin. */
export async function fileUses(store: SafeStore, history: MemoryHistory | undefined, marks: StoreMarks): Promise<FileUse[]> {
  const reads = await marks.lastReads();
  const pins = new Set(await marks.pins());
  const versions = new Map<string, number>();
  for (const e of (await history?.list()) ?? []) if (e.op === 'rename') versions.set(e.path, e.time);
  const out: FileUse[] = [];
  if ((await store.inspect('')).kind !== 'directory') return out;
  await store.walk('', async (entry) => {
    if (entry.type !== 'file') return;
    const inspection = await store.inspect(entry.rel);
    if (inspection.kind !== 'file') return;
    out.push({
      rel: entry.rel,
      lastUsed: Math.max(inspection.stat.mtime, reads[entry.rel] ?? 0, versions.get(entry.rel) ?? 0),
      pinned: pins.has(entry.rel),
    });
  });
  return out;
}

/** One file's use, read afresh (undefined when it is no regular file now). */
export async function fileUse(store: SafeStore, history: MemoryHistory | undefined, marks: StoreMarks, rel: string): Promise<FileUse | undefined> {
  const inspection = await store.inspect(rel);
  if (inspection.kind !== 'file') return undefined;
  const reads = await marks.lastReads();
  const pins = await marks.pins();
  const latest = await history?.latest(rel);
  const moved = latest?.op === 'rename' ? latest.time : 0;
  return { rel, lastUsed: Math.max(inspection.stat.mtime, reads[rel] ?? 0, moved), pinned: pins.includes(rel) };
}

/** The files `days` without use would expire at `now` (never pinned ones nor those in `keep`). */
export function idleFiles(uses: readonly FileUse[], days: number, now: number, keep: readonly string[]): ExpiredFile[] {
  if (!(days > 0)) return [];
  const kept = new Set(keep);
  return uses
    .filter((u) => !u.pinned && !kept.has(u.rel) && now - u.lastUsed > days * DAY_MS)
    .map((u) => ({ rel: u.rel, lastUsed: u.lastUsed, idleDays: Math.floor((now - u.lastUsed) / DAY_MS) }));
}

/** When a file expires (ms since the epoch), or undefined when it never does. */
export function expiresAt(use: FileUse, days: number, keep: readonly string[]): number | undefined {
  if (!(days > 0) || use.pinned || keep.includes(use.rel)) return undefined;
  return use.lastUsed + days * DAY_MS;
}
