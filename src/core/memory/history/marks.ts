/**
 * What the store remembers about its files besides their content, in its private folder:
 * when an agent last read each one (for expiry: the file system's access time is often switched
 * off) and which ones the user pinned (`.meta/pins.json`, never expire). Writers hold the store
 * lock. A read is written down at most once an hour per file, so most views cost nothing.
 *
 * Read times are a small JSON map, `.meta/usage.json`, plus the changes since it was written as
 * JSON Lines appended to `.meta/usage.log` (a read, a move, a removal: one short append, where
 * rewriting the map cost a temporary file and a rename over the old one, which ext4 flushes to
 * disk: a quarter of the engine's time on a mixed workload). Every FOLD_AFTER records the log is
 * folded into a new usage.json and removed. A reader follows the log by offset and reloads both
 * when usage.json is replaced. A torn last line (a writer killed mid-append) is skipped. A crash
 * between writing the folded map and removing the log replays the log once more over a map that
 * holds it already: reads keep the later time and a move or removal finds nothing left to do, so
 * at worst a moved file looks read a little later than it was.
 */
import type { FileStat } from '../fileSystem';
import { META_FOLDER } from '../paths';
import type { SafeStore } from '../store';
import { ensureMetaFolder } from './metaFolder';

const USAGE = `${META_FOLDER}/usage.json`;
const USAGE_LOG = `${META_FOLDER}/usage.log`;
const PINS = `${META_FOLDER}/pins.json`;
/** A read is written down again only when the last one noted is older than this. */
export const READ_NOTE_EVERY_MS = 60 * 60 * 1000;
/** Log records after which the log is folded into usage.json. */
export const FOLD_AFTER = 1000;

/** One line of usage.log: a read of `r` at `t`, a move `m` of [from, to], a removal `x`. */
type UsageRecord = { r: string; t: number } | { m: [string, string] } | { x: string };

export class StoreMarks {
  private reads: Map<string, number> | undefined;
  /** The stat of usage.json when `reads` was loaded from it: the same stat, the same content. */
  private baseStat: FileStat | undefined;
  /** Bytes of usage.log applied to `reads`, and how many records they held. */
  private logOffset = 0;
  private logRecords = 0;

  constructor(private readonly store: SafeStore) {}

  /** Last agent read of each file (ms since the epoch), as stored now. */
  async lastReads(): Promise<Record<string, number>> {
    return Object.fromEntries(await this.sync());
  }

  /** Whether a read of `rel` at `now` is worth writing down (checked without the lock, from the cache). */
  needsNote(rel: string, now: number): boolean {
    const last = this.reads?.get(rel);
    return last === undefined || now - last >= READ_NOTE_EVERY_MS;
  }

  /** Notes a read; the caller holds the store lock. */
  async noteRead(rel: string, now: number): Promise<void> {
    await this.sync();
    await this.append({ r: rel, t: now });
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
    await this.writeJson(PINS, [...pins].sort());
  }

  /** A file or folder moved: its reads and pins follow it. The caller holds the store lock. */
  async moved(from: string, to: string): Promise<void> {
    const reads = await this.sync();
    if (touches(reads, from)) await this.append({ m: [from, to] });
    const pins = await this.pins();
    const move = (p: string): string => (under(p, from) ? to + p.slice(from.length) : p);
    if (pins.some((p) => move(p) !== p)) await this.writeJson(PINS, pins.map(move).sort());
  }

  /** A file or folder is gone: forget its reads (its pin stays, should it come back). The caller holds the store lock. */
  async removed(rel: string): Promise<void> {
    if (touches(await this.sync(), rel)) await this.append({ x: rel });
  }

  /** Brings `reads` up to what usage.json and usage.log hold now. */
  private async sync(): Promise<Map<string, number>> {
    const base = await this.statOf(USAGE);
    const log = await this.statOf(USAGE_LOG);
    const logSize = log?.size ?? 0;
    const fresh = this.reads !== undefined && sameStat(base, this.baseStat) && logSize >= this.logOffset;
    if (!fresh) {
      this.reads = new Map(Object.entries(await this.readJson<Record<string, unknown>>(USAGE, {})).filter((e): e is [string, number] => typeof e[1] === 'number'));
      this.baseStat = base;
      this.logOffset = 0;
      this.logRecords = 0;
    }
    const reads = this.reads!;
    if (logSize > this.logOffset) {
      let tail: Uint8Array;
      try {
        tail = await this.store.readFrom(USAGE_LOG, this.logOffset);
      } catch {
        return reads;
      }
      // Only complete lines: a line still being appended is read next time.
      const end = tail.lastIndexOf(0x0a) + 1;
      for (const line of new TextDecoder().decode(tail.subarray(0, end)).split('\n')) {
        if (line === '') continue;
        this.logRecords++;
        try {
          apply(reads, JSON.parse(line) as UsageRecord);
        } catch {
          // A torn line a killed writer left: skipped.
        }
      }
      this.logOffset += end;
    }
    return reads;
  }

  /** Appends one record (after sync(), under the lock) and folds the log when it is long. */
  private async append(record: UsageRecord): Promise<void> {
    const reads = this.reads!;
    apply(reads, record);
    const data = new TextEncoder().encode(JSON.stringify(record) + '\n');
    await ensureMetaFolder(this.store);
    if (this.logOffset === 0 && (await this.store.inspect(USAGE_LOG)).kind === 'missing') {
      if (!(await this.store.writeNew(USAGE_LOG, data))) await this.store.appendFile(USAGE_LOG, data);
    } else {
      await this.store.appendFile(USAGE_LOG, data);
    }
    this.logOffset += data.length;
    this.logRecords++;
    if (this.logRecords < FOLD_AFTER) return;
    await this.writeJson(USAGE, Object.fromEntries(reads));
    await this.store.delete(USAGE_LOG);
    this.baseStat = await this.statOf(USAGE);
    this.logOffset = 0;
    this.logRecords = 0;
  }

  private async statOf(rel: string): Promise<FileStat | undefined> {
    try {
      const inspection = await this.store.inspect(rel);
      return inspection.kind === 'file' ? inspection.stat : undefined;
    } catch {
      return undefined;
    }
  }

  private async readJson<T>(rel: string, fallback: T): Promise<T> {
    try {
      const value = JSON.parse(new TextDecoder().decode(await this.store.readFile(rel))) as unknown;
      return value !== null && typeof value === 'object' ? (value as T) : fallback;
    } catch {
      return fallback;
    }
  }

  private async writeJson(rel: string, value: unknown): Promise<void> {
    await ensureMetaFolder(this.store);
    await this.store.writeAtomic(rel, new TextEncoder().encode(JSON.stringify(value)), true);
  }
}

function under(p: string, rel: string): boolean {
  return p === rel || p.startsWith(`${rel}/`);
}

function touches(reads: Map<string, number>, rel: string): boolean {
  if (reads.has(rel)) return true;
  for (const p of reads.keys()) if (p.startsWith(`${rel}/`)) return true;
  return false;
}

function apply(reads: Map<string, number>, record: UsageRecord): void {
  if ('r' in record) {
    if (typeof record.r === 'string' && typeof record.t === 'number') reads.set(record.r, Math.max(record.t, reads.get(record.r) ?? 0));
  } else if ('m' in record) {
    const [from, to] = record.m;
    const moving = [...reads].filter(([p]) => under(p, from));
    for (const [p] of moving) reads.delete(p);
    for (const [p, t] of moving) reads.set(to + p.slice(from.length), t);
  } else if ('x' in record) {
    for (const p of [...reads.keys()]) if (under(p, record.x)) reads.delete(p);
  }
}

function sameStat(a: FileStat | undefined, b: FileStat | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.size === b.size && a.mtime === b.mtime && a.ctime === b.ctime;
}
