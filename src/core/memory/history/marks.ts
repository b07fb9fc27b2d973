/**
 * What the store remembers about its files besides their content, in its private folder:
 * when an agent last read each one (`.meta/usage.json`, for expiry: the file system's access
 * time is often switched off) and which ones the user pinned (`.meta/pins.json`, never expire).
 * Both are small JSON maps rewritten atomically by a writer holding the store lock. A read is
 * written down at most once an hour per file, so most views cost nothing.
 */
import type { FileStat } from '../fileSystem';
import { META_FOLDER } from '../paths';
import type { SafeStore } from '../store';
import { ensureMetaFolder } from './metaFolder';

const USAGE = `${META_FOLDER}/usage.json`;
const PINS = `${META_FOLDER}/pins.json`;
/** A read is written down again only when the last one noted is older than this. */
export const READ_NOTE_EVERY_MS = 60 * 60 * 1000;

export class StoreMarks {
  private reads: Record<string, number> | undefined;
  /** The stat of usage.json when `reads` was read or written: the same stat, the same content. */
  private readsStat: FileStat | undefined;

  constructor(private readonly store: SafeStore) {}

  /**
   * Last agent read of each file (ms since the epoch), as stored now. Parsed again only when the
   * file changed (every writer replaces it with a new file: another stat), not on every call.
   */
  async lastReads(): Promise<Record<string, number>> {
    const now = await this.usageStat();
    if (this.reads !== undefined && now !== undefined && this.readsStat !== undefined && sameStat(now, this.readsStat)) return this.reads;
    this.reads = await this.readJson<Record<string, number>>(USAGE, {});
    this.readsStat = now;
    return this.reads;
  }

  private async usageStat(): Promise<FileStat | undefined> {
    try {
      const inspection = await this.store.inspect(USAGE);
      return inspection.kind === 'file' ? inspection.stat : undefined;
    } catch {
      return undefined;
    }
  }

  /** Whether a read of `rel` at `now` is worth writing down (checked without the lock, from the cache). */
  needsNote(rel: string, now: number): boolean {
    const last = this.reads?.[rel];
    return last === undefined || now - last >= READ_NOTE_EVERY_MS;
  }

  /** Notes a read; the caller holds the store lock. */
  async noteRead(rel: string, now: number): Promise<void> {
    const reads = await this.lastReads();
    reads[rel] = now;
    await this.write(USAGE, reads);
  }

  async pins(): Promise<string[]> {
    const pins = await this.readJson<unknown>(PINS, []);
    return Array.isArray(pins) ? pins.filter((p): p is string => typeof p === 'string') : [];
  }

  /** The caller holds the store lock. */
  async setPinned(rel: string, pinned: boolean): Promise<void> {
    const pins = new Set(await this.pins());
    if (pinned === pins.has(rel)) return;
    if (pinned) pins.add(rel);
    else pins.delete(rel);
    await this.write(PINS, [...pins].sort());
  }

  /** A file or folder moved: its reads and pins follow it. The caller holds the store lock. */
  async moved(from: string, to: string): Promise<void> {
    const move = (p: string): string => (p === from ? to : p.startsWith(`${from}/`) ? to + p.slice(from.length) : p);
    const reads = await this.lastReads();
    const movedReads = Object.fromEntries(Object.entries(reads).map(([p, t]) => [move(p), t]));
    if (Object.keys(reads).some((p) => move(p) !== p)) await this.write(USAGE, movedReads);
    const pins = await this.pins();
    if (pins.some((p) => move(p) !== p)) await this.write(PINS, pins.map(move).sort());
  }

  /** A file or folder is gone: forget its reads (its pin stays, should it come back). */
  async removed(rel: string): Promise<void> {
    const reads = await this.lastReads();
    const kept = Object.fromEntries(Object.entries(reads).filter(([p]) => p !== rel && !p.startsWith(`${rel}/`)));
    if (Object.keys(kept).length !== Object.keys(reads).length) await this.write(USAGE, kept);
  }

  private async readJson<T>(rel: string, fallback: T): Promise<T> {
    try {
      const value = JSON.parse(new TextDecoder().decode(await this.store.readFile(rel))) as unknown;
      return value !== null && typeof value === 'object' ? (value as T) : fallback;
    } catch {
      return fallback;
    }
  }

  private async write(rel: string, value: unknown): Promise<void> {
    if (rel === USAGE) this.readsStat = undefined;
    await ensureMetaFolder(this.store);
    await this.store.writeAtomic(rel, new TextEncoder().encode(JSON.stringify(value)), true);
    if (rel !== USAGE) return;
    this.reads = value as Record<string, number>;
    this.readsStat = await this.usageStat();
  }
}

function sameStat(a: FileStat, b: FileStat): boolean {
  return a.size === b.size && a.mtime === b.mtime && a.ctime === b.ctime;
}
