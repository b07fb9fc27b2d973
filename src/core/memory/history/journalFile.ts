/**
 * The journal file of a store's history as this process follows it: the current segment, how far
 * it was read (what other processes appended is read from there, one read of the new bytes), the
 * appends of this process, and the rewrites into a new segment: compaction (only the listed
 * versions, re-encoded) and the migration of the format before the journal. The versions read
 * are in `index` (journalIndex.ts); where the files are, journalSegments.ts.
 */
import { isFsError, FileType } from '../fileSystem';
import type { SafeStore } from '../store';
import { encodeFrame, encodeRecord, parseRecords, type DropRecord, type JournalRecord, type VersionRecord } from './journal';
import { DECODED_CACHE, FRAME_RECORDS, JournalIndex, type KeptVersion, type SegmentFrames } from './journalIndex';
import { concat, deleteIfThere, exists, HISTORY_FOLDER, listHistoryFolder, readLegacyVersions, removeLegacy, SEGMENT, segmentFile } from './journalSegments';
import { ensureMetaFolder } from './metaFolder';
import { compactionDue } from './pruning';
import { parseEntry } from './entries';

/** How long the last compaction took (for benchmarks: it runs inside a writer's locked section). */
export interface CompactionStats {
  count: number;
  lastMs: number;
  maxMs: number;
}

export class JournalFile {
  /** The versions of the segment read so far. */
  readonly index = new JournalIndex();
  /** The segment followed (undefined: none yet), how far it was read, and bytes after that which were no whole frame. */
  private epoch: number | undefined;
  private offset = 0;
  private leftover = 0;
  /** Version frames appended (by anyone) since the segment was last written whole. */
  private appended = 0;
  /**
   * The segment as this process last wrote it whole (undefined when it only read it), and the
   * records applied after those bytes, in order: a repack (only versions appended since, nothing
   * dropped) keeps these bytes as they are and packs only the records after them.
   */
  private packed: { head: Uint8Array; tail: JournalRecord[] } | undefined;
  readonly compactions: CompactionStats = { count: 0, lastMs: 0, maxMs: 0 };

  constructor(private readonly store: SafeStore) {}

  /** A segment exists (something was recorded). */
  get started(): boolean {
    return this.epoch !== undefined;
  }

  /** A torn tail (a writer killed mid-append) follows the last whole frame. */
  get torn(): boolean {
    return this.leftover > 0;
  }

  /** Appends one frame: a new version, with retention's drops (one append: every reader hides them with it). */
  async appendVersion(records: JournalRecord[], version: number, stored: Uint8Array): Promise<void> {
    const frame = encodeFrame(records);
    if (this.epoch === undefined) {
      await this.startSegment(1, frame);
      this.packed = { head: frame, tail: [] };
    } else {
      await this.store.appendFile(segmentFile(this.epoch), frame);
      this.offset += frame.length;
      this.packed?.tail.push(...records);
    }
    for (const r of records) this.index.apply(r);
    this.appended++;
    this.index.remember(version, stored);
    if (compactionDue(this.index, this.appended)) await this.compact();
  }

  /** Appends a drop record to the segment (there is one: see `started`). */
  async appendDrop(record: DropRecord): Promise<void> {
    const frame = encodeRecord(record);
    await this.store.appendFile(segmentFile(this.epoch!), frame);
    this.offset += frame.length;
    this.packed?.tail.push(record);
    this.index.apply(record);
    if (compactionDue(this.index, this.appended)) await this.compact();
  }

  /** A compaction put a newer segment in place: follow it. */
  async followNewerSegment(): Promise<void> {
    if (this.epoch !== undefined && (await exists(this.store, segmentFile(this.epoch + 1)))) await this.locate();
  }

  /** Reads what other processes appended (or finds the newest segment). */
  async sync(): Promise<void> {
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
    const names = await listHistoryFolder(this.store);
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
    if (legacy) await removeLegacy(this.store);
  }

  private applyBytes(bytes: Uint8Array): void {
    const parsed = parseRecords(bytes, parseEntry);
    const tail = this.packed?.tail;
    for (const record of parsed.records) {
      this.index.apply(record);
      tail?.push(record);
    }
    this.appended += parsed.singles;
    this.offset += parsed.consumed;
    this.leftover = parsed.leftover;
  }

  private reset(): void {
    this.index.reset();
    this.epoch = undefined;
    this.offset = 0;
    this.leftover = 0;
    this.appended = 0;
    this.packed = undefined;
  }

  /**
   * Rewrites the segment with only the listed versions (each content encoded again against the
   * kept ones) into `journal-<epoch+1>`, then deletes the old segment. The caller holds the lock.
   */
  async compact(): Promise<void> {
    const started = Date.now();
    if (await this.repack()) {
      this.timed(started);
      return;
    }
    const from = this.epoch;
    // Contents are decoded only where a version is encoded again (its base was dropped) or is the
    // base of one; while compacting, each decoded chain is held (not again each time the bounded
    // cache empties).
    const kept: KeptVersion[] = this.index.sorted.map((entry) => ({ entry, bytes: () => this.index.storedOf(entry.version) }));
    this.index.cacheLimit = Infinity;
    let frames: SegmentFrames;
    try {
      frames = this.index.framesOf(kept, this.index.lastVersion);
    } finally {
      this.index.cacheLimit = DECODED_CACHE;
    }
    const warm: [number, Uint8Array][] = [];
    for (const k of kept.slice(-DECODED_CACHE / 2)) {
      const bytes = this.index.cached(k.entry.version);
      if (bytes !== undefined) warm.push([k.entry.version, bytes]);
    }
    const whole = concat(frames.map((f) => f.frame));
    await this.startSegment((from ?? 0) + 1, whole);
    if (from !== undefined) await deleteIfThere(this.store, segmentFile(from));
    this.reset();
    this.epoch = (from ?? 0) + 1;
    for (const f of frames) {
      for (const r of f.records) this.index.apply(r);
      this.offset += f.frame.length;
    }
    for (const [version, bytes] of warm) this.index.remember(version, bytes);
    this.packed = { head: whole, tail: [] };
    this.timed(started);
  }

  /**
   * A compaction with nothing to drop: the versions appended one frame each since this process
   * last wrote the segment whole, packed FRAME_RECORDS to a frame behind the bytes it wrote then
   * (kept as they are: the same records in the same order as re-encoding everything would give,
   * each stored as it was, for nothing was dropped that a delta could rest on). False when that
   * does not hold (versions dropped, a drop record or a torn tail since, a segment only read):
   * then everything is encoded again.
   */
  private async repack(): Promise<boolean> {
    const packed = this.packed;
    const epoch = this.epoch;
    if (packed === undefined || epoch === undefined || this.leftover > 0 || this.index.dropped.size > 0 || packed.tail.length === 0) return false;
    const tail: VersionRecord[] = [];
    for (const r of packed.tail) {
      if (r.k !== 'v') return false;
      tail.push(r);
    }
    const parts = [packed.head];
    for (let i = 0; i < tail.length; i += FRAME_RECORDS) parts.push(encodeFrame(tail.slice(i, i + FRAME_RECORDS)));
    const bytes = concat(parts);
    await this.startSegment(epoch + 1, bytes);
    await deleteIfThere(this.store, segmentFile(epoch));
    // The index holds these very records already: only where they are changed.
    this.epoch = epoch + 1;
    this.offset = bytes.length;
    this.leftover = 0;
    this.appended = 0;
    this.packed = { head: bytes, tail: [] };
    return true;
  }

  private timed(started: number): void {
    const ms = Date.now() - started;
    this.compactions.count++;
    this.compactions.lastMs = ms;
    this.compactions.maxMs = Math.max(this.compactions.maxMs, ms);
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
    const { kept, last } = await readLegacyVersions(this.store);
    const frames = this.index.framesOf(kept, last);
    const whole = concat(frames.map((f) => f.frame));
    try {
      await this.startSegment(1, whole);
    } catch {
      // Another process migrated first: read its segment.
      const names2 = await listHistoryFolder(this.store);
      if (names2.some(([name]) => SEGMENT.test(name))) return this.locate();
      throw new Error('history: could not migrate the history to the journal');
    }
    this.reset();
    this.epoch = 1;
    for (const f of frames) {
      for (const r of f.records) this.index.apply(r);
      this.offset += f.frame.length;
    }
    this.packed = { head: whole, tail: [] };
    await removeLegacy(this.store);
  }
}
