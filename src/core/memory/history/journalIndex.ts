/**
 * The versions of one journal segment as read so far (historyStore.ts follows the segment and
 * applies its records here): every version record, dropped ones too until compaction; the listed
 * versions; the newest version per path and per stored content (the bases of the next deltas);
 * the counts retention looks at; and a bounded cache of decoded contents. It encodes a new
 * version against what it holds, and the records of a fresh segment (compaction, migration).
 */
import { applyDelta, encodeFrame, storageFor, type JournalRecord, type VersionRecord } from './journal';
import type { HistoryEntry } from './types';

/** Decoded contents kept in memory (the bases of the next deltas, the versions last viewed). */
export const DECODED_CACHE = 256;
/** Versions per frame in a compacted segment (compressed together, read together). */
export const FRAME_RECORDS = 256;

/** A version going into a new segment; its content is read only when needed. */
export interface KeptVersion {
  entry: HistoryEntry;
  bytes: () => Uint8Array | undefined;
}

/** A fresh segment's frames, each with the records it holds. */
export type SegmentFrames = { records: JournalRecord[]; frame: Uint8Array }[];

export class JournalIndex {
  /** Every version record in the current segment, dropped ones included until compaction. */
  private records = new Map<number, VersionRecord>();
  dropped = new Set<number>();
  /** The listed versions (not dropped), oldest first. */
  sorted: HistoryEntry[] = [];
  readonly byVersion = new Map<number, HistoryEntry>();
  /** Newest version record per path / per stored content, for the next delta or reference. */
  latestByPath = new Map<string, number>();
  private byBlob = new Map<string, number>();
  perPath = new Map<string, number>();
  blobRefs = new Map<string, number>();
  /** Bytes of stored contents (each distinct content once). */
  bytes = 0;
  private decoded = new Map<number, Uint8Array>();
  /** Decoded contents kept at most (unbounded while compacting). */
  cacheLimit = DECODED_CACHE;
  /** The highest version number used (kept across reset: numbers are never reused). */
  lastVersion = 0;

  apply(record: JournalRecord): void {
    if (record.k === 'drop') {
      if (record.last !== undefined) this.lastVersion = Math.max(this.lastVersion, record.last);
      const drop = new Set(record.versions.filter((v) => this.byVersion.has(v)));
      if (drop.size === 0) return;
      for (const v of drop) {
        const e = this.byVersion.get(v)!;
        this.byVersion.delete(v);
        this.dropped.add(v);
        this.perPath.set(e.path, (this.perPath.get(e.path) ?? 1) - 1);
        const left = (this.blobRefs.get(e.blob) ?? 1) - 1;
        this.blobRefs.set(e.blob, left);
        if (left === 0) {
          this.blobRefs.delete(e.blob);
          this.bytes -= e.size;
        }
      }
      this.sorted = this.sorted.filter((e) => !drop.has(e.version));
      return;
    }
    const e = record.entry;
    // Two writers without a lock took the same number: the first one counts.
    if (this.records.has(e.version)) return;
    this.records.set(e.version, record);
    this.byVersion.set(e.version, e);
    if (this.sorted.length === 0 || this.sorted[this.sorted.length - 1].version < e.version) this.sorted.push(e);
    else {
      this.sorted.push(e);
      this.sorted.sort((a, b) => a.version - b.version);
    }
    this.lastVersion = Math.max(this.lastVersion, e.version);
    if ((this.latestByPath.get(e.path) ?? 0) < e.version) this.latestByPath.set(e.path, e.version);
    this.byBlob.set(e.blob, e.version);
    this.perPath.set(e.path, (this.perPath.get(e.path) ?? 0) + 1);
    const refs = this.blobRefs.get(e.blob) ?? 0;
    if (refs === 0) this.bytes += e.size;
    this.blobRefs.set(e.blob, refs + 1);
  }

  /** Forgets the segment's records and decoded contents (not the last version number). */
  reset(): void {
    this.records = new Map();
    this.dropped = new Set();
    this.sorted = [];
    this.byVersion.clear();
    this.latestByPath = new Map();
    this.byBlob = new Map();
    this.perPath = new Map();
    this.blobRefs = new Map();
    this.bytes = 0;
    this.decoded = new Map();
  }

  /** A version record for a new `entry` against the versions held, its stored bytes as a delta or reference where that is smaller. */
  encode(entry: HistoryEntry, stored: Uint8Array): VersionRecord {
    return encodeAgainst(entry, stored, this.latestByPath, this.byBlob, (v) => this.depthOf(v), (v) => this.storedOf(v));
  }

  private depthOf(version: number): number {
    const storage = this.records.get(version)?.storage;
    return storage === undefined || storage.s === 'full' ? 0 : storage.d;
  }

  /** The stored copy of a version in the current segment (dropped ones too, until compaction). */
  storedOf(version: number): Uint8Array | undefined {
    const cached = this.decoded.get(version);
    if (cached !== undefined) {
      // Used again: the newest in the cache's order (the latest version of a file edited over
      // and over stays, as the base of its next delta).
      this.decoded.delete(version);
      this.decoded.set(version, cached);
      return cached;
    }
    const record = this.records.get(version);
    if (record === undefined) return undefined;
    let bytes: Uint8Array | undefined;
    if (record.storage.s === 'full') bytes = record.body;
    else {
      const base = this.storedOf(record.storage.b);
      if (base === undefined) return undefined;
      bytes = record.storage.s === 'same' ? base : applyDelta(base, record.body);
    }
    this.remember(version, bytes);
    return bytes;
  }

  /** A decoded content in the cache, without touching its place in the cache's order. */
  cached(version: number): Uint8Array | undefined {
    return this.decoded.get(version);
  }

  remember(version: number, bytes: Uint8Array): void {
    // Least recently used out (a Map iterates in insertion order): clearing it all at once made
    // every file's next delta rebuild its base from the last full copy, up to FULL_EVERY patches.
    this.decoded.delete(version);
    if (this.decoded.size >= this.cacheLimit) this.decoded.delete(this.decoded.keys().next().value!);
    this.decoded.set(version, bytes);
  }

  /**
   * The frames of a fresh segment holding `kept` (oldest first), led by a record of the last
   * version number used, FRAME_RECORDS versions to a frame. A version whose delta base is kept
   * keeps its stored body as it is; the others are encoded again against the kept versions.
   */
  framesOf(kept: readonly KeptVersion[], last: number): SegmentFrames {
    const latestByPath = new Map<string, number>();
    const byBlob = new Map<string, number>();
    const depth = new Map<number, number>();
    const bytesOf = new Map<number, () => Uint8Array | undefined>();
    const all: JournalRecord[] = [{ k: 'drop', versions: [], last }];
    for (const { entry, bytes } of kept) {
      const old = this.records.get(entry.version);
      // A delta or reference whose base is kept keeps its body; only its depth is counted again
      // (a full copy cut off what was before its base: never deeper than it was).
      const st = old?.storage;
      let record: VersionRecord;
      if (old !== undefined && st?.s === 'full') record = old;
      else if (old !== undefined && st !== undefined && st.s !== 'full' && depth.has(st.b)) {
        record = { ...old, storage: { ...st, d: (depth.get(st.b) ?? 0) + 1 } };
      } else {
        const content = bytes();
        if (content === undefined) continue; // Its content cannot be read back: the version goes.
        record = encodeAgainst(entry, content, latestByPath, byBlob, (v) => depth.get(v) ?? 0, (v) => bytesOf.get(v)?.());
      }
      all.push(record);
      depth.set(entry.version, record.storage.s === 'full' ? 0 : record.storage.d);
      // Only the newest content of each path is a delta base: the others can go.
      const previous = latestByPath.get(entry.path);
      if (previous !== undefined && previous !== byBlob.get(entry.blob)) bytesOf.delete(previous);
      bytesOf.set(entry.version, bytes);
      latestByPath.set(entry.path, entry.version);
      byBlob.set(entry.blob, entry.version);
    }
    const out: SegmentFrames = [];
    for (let i = 0; i < all.length; i += FRAME_RECORDS) {
      const records = all.slice(i, i + FRAME_RECORDS);
      out.push({ records, frame: encodeFrame(records) });
    }
    return out;
  }
}

/** A version record for `entry`, its stored bytes as a delta or reference where that is smaller. */
function encodeAgainst(
  entry: HistoryEntry,
  stored: Uint8Array,
  latestByPath: ReadonlyMap<string, number>,
  byBlob: ReadonlyMap<string, number>,
  depthOf: (version: number) => number,
  storedOf: (version: number) => Uint8Array | undefined,
): VersionRecord {
  const sameVersion = byBlob.get(entry.blob);
  const same = sameVersion !== undefined ? { version: sameVersion, depth: depthOf(sameVersion) } : undefined;
  const baseVersion = latestByPath.get(entry.op === 'rename' && entry.oldPath !== undefined ? entry.oldPath : entry.path);
  let base: { version: number; depth: number; bytes: Uint8Array } | undefined;
  if (same === undefined && baseVersion !== undefined) {
    const bytes = storedOf(baseVersion);
    if (bytes !== undefined) base = { version: baseVersion, depth: depthOf(baseVersion), bytes };
  }
  const { storage, body } = storageFor(stored, same, base);
  return { k: 'v', entry, storage, body };
}
