/**
 * MemoryHistory: the versions of one store, kept in `.meta/history` as an append-only journal.
 *
 *   .meta/history/journal-000003    the current segment (epoch 3): one frame per record
 *                                   (journal.ts: a version with its content, or a retention drop)
 *
 * A writer holds the store lock while it records (the engine calls `record` inside its locked
 * section): it reads what other processes appended since it last looked (from the offset it
 * reached), then appends one frame with one O_APPEND write, the commit point. Contents are stored
 * as deltas against the previous version of the same file (a full copy every FULL_EVERY), zlib
 * compressed. Readers in any process follow the segment by offset: one read of the new bytes,
 * none when nothing changed. Retention appends a `drop` record (every reader hides those versions
 * at once); once dropped versions are an eighth of the kept ones (and at least
 * COMPACT_MIN_DROPPED), the segment is compacted: the kept versions are written to
 * `journal-<epoch+1>` (a new file renamed into place), the old one is deleted, and readers that
 * find their segment gone move to the newest one. The format before the journal (`v/<n>.json`
 * records, `b/<sha256>` contents, `head`) is migrated once, in place.
 */
import { isFsError, FileType } from '../fileSystem';
import { META_FOLDER } from '../paths';
import type { SafeStore } from '../store';
import { applyDelta, encodeFrame, encodeRecord, parseRecords, storageFor, type JournalRecord, type VersionRecord } from './journal';
import { ensureMetaFolder } from './metaFolder';
import { sha256Hex } from './sha256';
import { droppable, fileHistoryOf, latestOf, parseEntry } from './entries';
import type { Author, HistoryEntry, HistoryOp, HistoryRetention } from './types';

export const HISTORY_FOLDER = `${META_FOLDER}/history`;
const SEGMENT = /^journal-(\d{6,15})$/;
/** The format before the journal: migrated once, then removed. */
const LEGACY = { versions: `${HISTORY_FOLDER}/v`, blobs: `${HISTORY_FOLDER}/b`, head: `${HISTORY_FOLDER}/head` };
/** Versions older than the day limit are looked for at most this often. */
const AGE_PRUNE_EVERY_MS = 60 * 60 * 1000;
/** A segment is compacted once it holds at least this many dropped versions, and as many as an eighth of its kept ones (a file edited over and over drops one version per edit, so dropped records never pile up far beyond what is kept). */
const COMPACT_MIN_DROPPED = 64;
/** Decoded contents kept in memory (the bases of the next deltas, the versions last viewed). */
const DECODED_CACHE = 256;
/** Contents remembered as needing no redacted copy (their SHA-256), at most. */
const CLEAN_CONTENTS = 4096;
/** Versions per frame in a compacted segment (compressed together, read together). */
const FRAME_RECORDS = 256;
/** Versions appended one frame each before the segment is rewritten in frames of FRAME_RECORDS. */
const REPACK_MIN_APPENDED = 256;

export function segmentFile(epoch: number): string {
  return `${HISTORY_FOLDER}/journal-${String(epoch).padStart(6, '0')}`;
}

export interface NewVersion {
  op: HistoryOp;
  path: string;
  oldPath?: string;
  author: Author;
  /** The file's content at this version (for a delete: what it held). */
  content: Uint8Array;
  /** The content's SHA-256 when the caller computed it already. */
  sha256?: string;
  restoredFrom?: number;
}

/** The copy of a content that history may keep (secrets replaced), or undefined to keep it as is. */
export type StoredCopy = (content: Uint8Array) => Uint8Array | undefined;

/** How long the last compaction took (for benchmarks: it runs inside a writer's locked section). */
export interface CompactionStats {
  count: number;
  lastMs: number;
  maxMs: number;
}

export class MemoryHistory {
  /** Every version record in the current segment, dropped ones included until compaction. */
  private records = new Map<number, VersionRecord>();
  private dropped = new Set<number>();
  /** The listed versions (not dropped), oldest first. */
  private sorted: HistoryEntry[] = [];
  private readonly byVersion = new Map<number, HistoryEntry>();
  /** Newest version record per path / per stored content, for the next delta or reference. */
  private latestByPath = new Map<string, number>();
  private byBlob = new Map<string, number>();
  private perPath = new Map<string, number>();
  private blobRefs = new Map<string, number>();
  private bytes = 0;
  private decoded = new Map<number, Uint8Array>();
  private cacheLimit = DECODED_CACHE;
  /** The segment followed (undefined: none yet), how far it was read, and bytes after that which were no whole frame. */
  private epoch: number | undefined;
  private offset = 0;
  private leftover = 0;
  private lastVersion = 0;
  private lastAgePrune = 0;
  /** Version frames appended (by anyone) since the segment was last written whole. */
  private appended = 0;
  /** The caller holds the cross-process store lock (holdLock), and the journal was read since it took it. */
  private lockHeld = false;
  private syncedUnderLock = false;
  /** SHA-256 of contents that storedCopy left unchanged in this process (bounded). */
  private cleanContents = new Set<string>();
  readonly compactions: CompactionStats = { count: 0, lastMs: 0, maxMs: 0 };

  constructor(
    private readonly store: SafeStore,
    private readonly retention: HistoryRetention,
    private readonly now: () => number,
    private readonly storedCopy: StoredCopy = () => undefined,
  ) {}

  /** Every version, oldest first. */
  async list(): Promise<readonly HistoryEntry[]> {
    await this.sync();
    return this.sorted;
  }

  async entry(version: number): Promise<HistoryEntry | undefined> {
    await this.sync();
    return this.byVersion.get(version);
  }

  /** The newest version recorded for `rel` (by path, renames not followed). */
  async latest(rel: string): Promise<HistoryEntry | undefined> {
    await this.sync();
    // The newest record of the path, when it is listed (not dropped); a path with no record has
    // no version (a new file: no pass over every version).
    const newest = this.latestByPath.get(rel);
    if (newest === undefined) return undefined;
    return this.byVersion.get(newest) ?? latestOf(this.sorted, rel);
  }

  /**
   * The versions of the file now at `rel`, oldest first, following renames back: the versions of
   * its earlier path up to the rename belong to it too.
   */
  async fileHistory(rel: string): Promise<HistoryEntry[]> {
    await this.sync();
    return fileHistoryOf(this.sorted, rel);
  }

  /** The stored content of a version, or undefined when it is gone (pruned meanwhile). */
  async content(version: number): Promise<Uint8Array | undefined> {
    await this.sync();
    if (!this.byVersion.has(version)) return undefined;
    try {
      return this.storedOf(version)?.slice();
    } catch {
      return undefined;
    }
  }

  /**
   * The caller took (true) or is about to release (false) the cross-process store lock. While it
   * holds it no other writer appends, so the journal is read once (with the check for a newer
   * segment) and not again before each look-up and each record.
   */
  holdLock(held: boolean): void {
    this.lockHeld = held;
    this.syncedUnderLock = false;
  }

  /** Records one version; the caller holds the store lock. */
  async record(change: NewVersion): Promise<HistoryEntry> {
    await this.sync();
    // A compaction that crashed after putting its new segment in place but before deleting the
    // old one: the newer segment is the history, never append to the old one. (Under a held lock
    // sync has looked for it already.)
    if (!this.lockHeld) await this.followNewerSegment();
    // A torn tail (a writer killed mid-append): appending after it would hide every later record.
    if (this.leftover > 0) await this.compact();
    const sha256 = change.sha256 ?? (await sha256Hex(change.content));
    const copy = this.cleanContents.has(sha256) ? undefined : this.storedCopy(change.content);
    if (copy === undefined) this.rememberClean(sha256);
    const stored = copy ?? change.content;
    const blob = copy === undefined ? sha256 : await sha256Hex(copy);
    const entry: HistoryEntry = {
      version: this.lastVersion + 1,
      time: this.now(),
      op: change.op,
      path: change.path,
      ...(change.oldPath !== undefined ? { oldPath: change.oldPath } : {}),
      author: change.author,
      sha256,
      size: change.content.length,
      blob,
      ...(copy !== undefined ? { redacted: true } : {}),
      ...(change.restoredFrom !== undefined ? { restoredFrom: change.restoredFrom } : {}),
    };
    const record = this.encodeAgainst(entry, stored, this.latestByPath, this.byBlob, (v) => this.depthOf(v), (v) => this.storedOf(v));
    // Retention's drops go in the same frame (one append): every reader hides them with the new version.
    const drop = this.dropsWith(entry);
    const records: JournalRecord[] = drop.length > 0 ? [record, { k: 'drop', versions: drop }] : [record];
    const frame = encodeFrame(records);
    if (this.epoch === undefined) {
      await this.startSegment(1, frame);
    } else {
      await this.store.appendFile(segmentFile(this.epoch), frame);
      this.offset += frame.length;
    }
    for (const r of records) this.apply(r);
    this.appended++;
    this.remember(entry.version, stored);
    if (this.compactionDue()) await this.compact();
    return entry;
  }

  /** What retention drops once `entry` is recorded (checked only when a limit may be passed, or hourly for age). */
  private dropsWith(entry: HistoryEntry): number[] {
    const now = this.now();
    const perFile = (this.perPath.get(entry.path) ?? 0) + 1;
    const dueByAge = now - this.lastAgePrune > AGE_PRUNE_EVERY_MS;
    const bytes = this.bytes + (this.blobRefs.has(entry.blob) ? 0 : entry.size);
    if (perFile <= this.retention.maxVersionsPerFile && !dueByAge && bytes <= this.retention.maxBytes) return [];
    if (!dueByAge && bytes <= this.retention.maxBytes) return this.overPerFileLimit(entry);
    if (dueByAge) this.lastAgePrune = now;
    return [...droppable([...this.sorted, entry], this.retention, now)].sort((a, b) => a - b);
  }

  /**
   * Only the new version's path went over the per-file limit (the common case of a file edited
   * many times): its oldest versions beyond the limit go, as `droppable` would drop them (the
   * new version is that path's newest, the only one of it `droppable` protects), without a pass
   * over every file's versions.
   */
  private overPerFileLimit(entry: HistoryEntry): number[] {
    const drop: number[] = [];
    let n = 1;
    for (let i = this.sorted.length - 1; i >= 0; i--) {
      const e = this.sorted[i];
      if (e.path !== entry.path) continue;
      n++;
      if (n > this.retention.maxVersionsPerFile) drop.push(e.version);
    }
    return drop.reverse();
  }

  /**
   * Dropped versions make up an eighth of the kept ones; or many versions were appended one frame
   * each since the segment was last written whole (compacted, they compress together to a
   * fraction: the JSON of a version is too small for deflate on its own).
   */
  private compactionDue(): boolean {
    if (this.dropped.size >= COMPACT_MIN_DROPPED && this.dropped.size * 8 >= this.sorted.length) return true;
    return this.appended >= REPACK_MIN_APPENDED && this.appended * 8 >= this.sorted.length;
  }

  /** Drops what retention allows to drop, oldest first; never the newest version of a live file. */
  async prune(): Promise<number> {
    await this.sync();
    const now = this.now();
    this.lastAgePrune = now;
    const drop = droppable(this.sorted, this.retention, now);
    if (drop.size === 0 || this.epoch === undefined) return 0;
    const record: JournalRecord = { k: 'drop', versions: [...drop].sort((a, b) => a - b) };
    const frame = encodeRecord(record);
    await this.store.appendFile(segmentFile(this.epoch), frame);
    this.offset += frame.length;
    this.apply(record);
    if (this.compactionDue()) await this.compact();
    return drop.size;
  }

  /** Bytes of stored contents (each distinct content once). */
  storedBytes(): number {
    return this.bytes;
  }

  /** A content the copy function kept as it is (it would again: a rename or delete of it needs no second look). */
  private rememberClean(sha256: string): void {
    if (this.cleanContents.size >= CLEAN_CONTENTS) this.cleanContents.clear();
    this.cleanContents.add(sha256);
  }

  private async followNewerSegment(): Promise<void> {
    if (this.epoch !== undefined && (await this.exists(segmentFile(this.epoch + 1)))) await this.locate();
  }

  /** Brings the records up to date with what other processes appended. */
  async sync(): Promise<void> {
    if (!this.lockHeld) return this.syncNow();
    if (this.syncedUnderLock) return;
    await this.syncNow();
    await this.followNewerSegment();
    this.syncedUnderLock = true;
  }

  private async syncNow(): Promise<void> {
    if (this.epoch === undefined) return this.locate();
    let bytes: Uint8Array;
    try {
      bytes = await this.store.readFrom(segmentFile(this.epoch), this.offset);
    } catch (e) {
      // Compacted (a newer segment replaced it) or the store went away: find the newest segment.
      if (isFsError(e, 'FileNotFound')) return this.locate();
      throw e;
    }
    // Only the new bytes: a leftover (a frame still being written) is read again next time.
    this.applyBytes(bytes);
  }

  /** Finds the newest segment and reads it whole (migrating the format before the journal first). */
  private async locate(): Promise<void> {
    const names = await this.listHistoryFolder();
    const epochs = names.filter(([name, type]) => type === FileType.File && SEGMENT.test(name)).map(([name]) => Number(SEGMENT.exec(name)![1]));
    const legacy = names.some(([name]) => name === 'v' || name === 'b' || name === 'head');
    this.reset();
    if (epochs.length === 0) {
      if (legacy) await this.migrate();
      return;
    }
    const epoch = Math.max(...epochs);
    let bytes: Uint8Array;
    try {
      bytes = await this.store.readFrom(segmentFile(epoch), 0);
    } catch (e) {
      if (isFsError(e, 'FileNotFound')) return; // Compacted again meanwhile: the next sync finds it.
      throw e;
    }
    this.epoch = epoch;
    this.applyBytes(bytes);
    // What a finished migration or compaction left behind when it was cut short.
    if (legacy) await this.removeLegacy();
  }

  private applyBytes(bytes: Uint8Array): void {
    const parsed = parseRecords(bytes, parseEntry);
    for (const record of parsed.records) this.apply(record);
    this.appended += parsed.singles;
    this.offset += parsed.consumed;
    this.leftover = parsed.leftover;
  }

  private apply(record: JournalRecord): void {
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

  private reset(): void {
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
    this.epoch = undefined;
    this.offset = 0;
    this.leftover = 0;
    this.appended = 0;
  }

  /** A version record for `entry`, its stored bytes as a delta or reference where that is smaller. */
  private encodeAgainst(
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

  private depthOf(version: number): number {
    const storage = this.records.get(version)?.storage;
    return storage === undefined || storage.s === 'full' ? 0 : storage.d;
  }

  /** The stored copy of a version in the current segment (dropped ones too, until compaction). */
  private storedOf(version: number): Uint8Array | undefined {
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

  private remember(version: number, bytes: Uint8Array): void {
    // Least recently used out (a Map iterates in insertion order): clearing it all at once made
    // every file's next delta rebuild its base from the last full copy, up to FULL_EVERY patches.
    this.decoded.delete(version);
    if (this.decoded.size >= this.cacheLimit) this.decoded.delete(this.decoded.keys().next().value!);
    this.decoded.set(version, bytes);
  }

  /**
   * Rewrites the segment with only the listed versions (each content encoded again against the
   * kept ones) into `journal-<epoch+1>`, then deletes the old segment. The caller holds the lock.
   */
  private async compact(): Promise<void> {
    const started = Date.now();
    const from = this.epoch;
    // Contents are decoded only where a version is encoded again (its base was dropped) or is the
    // base of one; while compacting, each decoded chain is held (not again each time the bounded
    // cache empties).
    const kept: KeptVersion[] = this.sorted.map((entry) => ({ entry, bytes: () => this.storedOf(entry.version) }));
    this.cacheLimit = Infinity;
    let frames: { records: JournalRecord[]; frame: Uint8Array }[];
    try {
      frames = this.framesOf(kept, this.lastVersion);
    } finally {
      this.cacheLimit = DECODED_CACHE;
    }
    const warm: [number, Uint8Array][] = [];
    for (const k of kept.slice(-DECODED_CACHE / 2)) {
      const bytes = this.decoded.get(k.entry.version);
      if (bytes !== undefined) warm.push([k.entry.version, bytes]);
    }
    await this.startSegment((from ?? 0) + 1, concat(frames.map((f) => f.frame)));
    if (from !== undefined) await this.deleteIfThere(segmentFile(from));
    this.reset();
    this.epoch = (from ?? 0) + 1;
    for (const f of frames) {
      for (const r of f.records) this.apply(r);
      this.offset += f.frame.length;
    }
    for (const [version, bytes] of warm) this.remember(version, bytes);
    const ms = Date.now() - started;
    this.compactions.count++;
    this.compactions.lastMs = ms;
    this.compactions.maxMs = Math.max(this.compactions.maxMs, ms);
  }

  /**
   * The frames of a fresh segment holding `kept` (oldest first), led by a record of the last
   * version number used, FRAME_RECORDS versions to a frame. A version whose delta base is kept
   * keeps its stored body as it is; the others are encoded again against the kept versions.
   */
  private framesOf(kept: readonly KeptVersion[], last: number): { records: JournalRecord[]; frame: Uint8Array }[] {
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
        record = this.encodeAgainst(entry, content, latestByPath, byBlob, (v) => depth.get(v) ?? 0, (v) => bytesOf.get(v)?.());
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
    const out: { records: JournalRecord[]; frame: Uint8Array }[] = [];
    for (let i = 0; i < all.length; i += FRAME_RECORDS) {
      const records = all.slice(i, i + FRAME_RECORDS);
      out.push({ records, frame: encodeFrame(records) });
    }
    return out;
  }

  /** A whole new segment, written atomically (temp file, then renamed into place). */
  private async startSegment(epoch: number, bytes: Uint8Array): Promise<void> {
    await ensureMetaFolder(this.store, HISTORY_FOLDER);
    if (await this.store.writeNew(segmentFile(epoch), bytes)) {
      this.epoch = epoch;
      this.offset = bytes.length;
      this.leftover = 0;
      return;
    }
    // Left by a compaction that crashed before its rename completed? A renamed segment is whole,
    // so one that exists is the history: only a writer without the lock gets here. Once more.
    throw new Error('history: the journal segment to start exists already');
  }

  /**
   * The format before the journal (one `v/<n>.json` per version, contents in `b/<sha256>`,
   * `head`): every readable version goes into segment 1, contents encoded as deltas, then the old
   * files go. Two processes migrating at once: the segment is created exclusively, the other one
   * reads it.
   */
  private async migrate(): Promise<void> {
    const head = await this.readLegacyHead();
    const names = (await this.store.inspect(LEGACY.versions)).kind === 'directory' ? await this.store.readDirectory(LEGACY.versions) : [];
    const numbers = names
      .filter(([name, type]) => type === FileType.File && /^\d{12}\.json$/.test(name))
      .map(([name]) => Number(name.slice(0, 12)))
      .sort((a, b) => a - b);
    const kept: KeptVersion[] = [];
    const blobs = new Map<string, Uint8Array>();
    for (const v of numbers) {
      let entry: HistoryEntry | undefined;
      try {
        entry = parseEntry(JSON.parse(new TextDecoder().decode(await this.store.readFile(`${LEGACY.versions}/${String(v).padStart(12, '0')}.json`))));
      } catch {
        entry = undefined;
      }
      if (entry === undefined) continue;
      let bytes = blobs.get(entry.blob);
      if (bytes === undefined) {
        try {
          bytes = await this.store.readFile(`${LEGACY.blobs}/${entry.blob}`);
        } catch {
          continue; // Its content was pruned meanwhile: the version was already gone.
        }
        blobs.set(entry.blob, bytes);
      }
      const known = bytes;
      kept.push({ entry, bytes: () => known });
    }
    const last = Math.max(head, kept.at(-1)?.entry.version ?? 0);
    const frames = this.framesOf(kept, last);
    try {
      await this.startSegment(1, concat(frames.map((f) => f.frame)));
    } catch {
      // Another process migrated first: read its segment.
      const names2 = await this.listHistoryFolder();
      if (names2.some(([name]) => SEGMENT.test(name))) return this.locate();
      throw new Error('history: could not migrate the history to the journal');
    }
    this.reset();
    this.epoch = 1;
    for (const f of frames) {
      for (const r of f.records) this.apply(r);
      this.offset += f.frame.length;
    }
    await this.removeLegacy();
  }

  private async readLegacyHead(): Promise<number> {
    try {
      const parsed = JSON.parse(new TextDecoder().decode(await this.store.readFile(LEGACY.head))) as { last?: unknown };
      return Number.isSafeInteger(parsed.last) ? (parsed.last as number) : 0;
    } catch {
      return 0;
    }
  }

  private async removeLegacy(): Promise<void> {
    for (const rel of [LEGACY.versions, LEGACY.blobs, LEGACY.head]) await this.deleteIfThere(rel);
  }

  private async listHistoryFolder(): Promise<[string, FileType][]> {
    try {
      return await this.store.fs.readDirectory(HISTORY_FOLDER);
    } catch (e) {
      if (isFsError(e, 'FileNotFound') || isFsError(e, 'FileNotADirectory')) return [];
      throw e;
    }
  }

  private async exists(rel: string): Promise<boolean> {
    const fs = this.store.fs;
    // Where the adapter can, without an error to build and throw for the usual answer (missing).
    if (fs.lstatChain !== undefined) return (await fs.lstatChain(rel)).length === rel.split('/').length + 1;
    try {
      await fs.stat(rel);
      return true;
    } catch (e) {
      if (isFsError(e, 'FileNotFound') || isFsError(e, 'FileNotADirectory')) return false;
      throw e;
    }
  }

  /** Another process may have removed the same file first. */
  private async deleteIfThere(rel: string): Promise<void> {
    try {
      await this.store.delete(rel);
    } catch (e) {
      if ((await this.store.inspect(rel)).kind !== 'missing') throw e;
    }
  }
}

/** A version going into a new segment; its content is read only when needed. */
interface KeptVersion {
  entry: HistoryEntry;
  bytes: () => Uint8Array | undefined;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
