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
 *
 * Here: the versions' API, recording (the redacted copy, retention's drops in the same frame) and
 * the lock-aware sync. Following, appending, compacting and migrating the segment: journalFile.ts;
 * the versions read from it: journalIndex.ts; retention as it runs: pruning.ts; the files:
 * journalSegments.ts; the frame format: journal.ts.
 */
import type { SafeStore } from '../store';
import type { JournalRecord } from './journal';
import { JournalFile, type CompactionStats } from './journalFile';
import type { JournalIndex } from './journalIndex';
import { Pruning } from './pruning';
import { sha256Hex } from './sha256';
import { fileHistoryOf, latestOf } from './entries';
import type { Author, HistoryEntry, HistoryOp, HistoryRetention } from './types';

export { HISTORY_FOLDER, segmentFile } from './journalSegments';
export type { CompactionStats } from './journalFile';

/** Contents remembered as needing no redacted copy (their SHA-256), at most. */
const CLEAN_CONTENTS = 4096;

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

export class MemoryHistory {
  private readonly journal: JournalFile;
  private readonly pruning: Pruning;
  /** The caller holds the cross-process store lock (holdLock), and the journal was read since it took it. */
  private lockHeld = false;
  private syncedUnderLock = false;
  /** SHA-256 of contents that storedCopy left unchanged in this process (bounded). */
  private cleanContents = new Set<string>();

  constructor(
    store: SafeStore,
    retention: HistoryRetention,
    private readonly now: () => number,
    private readonly storedCopy: StoredCopy = () => undefined,
  ) {
    this.journal = new JournalFile(store);
    this.pruning = new Pruning(retention, now);
  }

  /** How long the last compaction took (for benchmarks: it runs inside a writer's locked section). */
  get compactions(): CompactionStats {
    return this.journal.compactions;
  }

  private get index(): JournalIndex {
    return this.journal.index;
  }

  /** Every version, oldest first. */
  async list(): Promise<readonly HistoryEntry[]> {
    await this.sync();
    return this.index.sorted;
  }

  async entry(version: number): Promise<HistoryEntry | undefined> {
    await this.sync();
    return this.index.byVersion.get(version);
  }

  /** The newest version recorded for `rel` (by path, renames not followed). */
  async latest(rel: string): Promise<HistoryEntry | undefined> {
    await this.sync();
    // The newest record of the path, when it is listed (not dropped); a path with no record has
    // no version (a new file: no pass over every version).
    const newest = this.index.latestByPath.get(rel);
    if (newest === undefined) return undefined;
    return this.index.byVersion.get(newest) ?? latestOf(this.index.sorted, rel);
  }

  /**
   * The versions of the file now at `rel`, oldest first, following renames back: the versions of
   * its earlier path up to the rename belong to it too.
   */
  async fileHistory(rel: string): Promise<HistoryEntry[]> {
    await this.sync();
    return fileHistoryOf(this.index.sorted, rel);
  }

  /** The stored content of a version, or undefined when it is gone (pruned meanwhile). */
  async content(version: number): Promise<Uint8Array | undefined> {
    await this.sync();
    if (!this.index.byVersion.has(version)) return undefined;
    try {
      return this.index.storedOf(version)?.slice();
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
    if (!this.lockHeld) await this.journal.followNewerSegment();
    // A torn tail (a writer killed mid-append): appending after it would hide every later record.
    if (this.journal.torn) await this.journal.compact();
    const sha256 = change.sha256 ?? (await sha256Hex(change.content));
    const copy = this.cleanContents.has(sha256) ? undefined : this.storedCopy(change.content);
    if (copy === undefined) this.rememberClean(sha256);
    const stored = copy ?? change.content;
    const blob = copy === undefined ? sha256 : await sha256Hex(copy);
    const entry: HistoryEntry = {
      version: this.index.lastVersion + 1,
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
    const record = this.index.encode(entry, stored);
    // Retention's drops go in the same frame (one append): every reader hides them with the new version.
    const drop = this.pruning.dropsWith(this.index, entry);
    const records: JournalRecord[] = drop.length > 0 ? [record, { k: 'drop', versions: drop }] : [record];
    await this.journal.appendVersion(records, entry.version, stored);
    return entry;
  }

  /** Drops what retention allows to drop, oldest first; never the newest version of a live file. */
  async prune(): Promise<number> {
    await this.sync();
    const drop = this.pruning.dueNow(this.index);
    if (drop.size === 0 || !this.journal.started) return 0;
    await this.journal.appendDrop({ k: 'drop', versions: [...drop].sort((a, b) => a - b) });
    return drop.size;
  }

  /** Bytes of stored contents (each distinct content once). */
  storedBytes(): number {
    return this.index.bytes;
  }

  /** A content the copy function kept as it is (it would again: a rename or delete of it needs no second look). */
  private rememberClean(sha256: string): void {
    if (this.cleanContents.size >= CLEAN_CONTENTS) this.cleanContents.clear();
    this.cleanContents.add(sha256);
  }

  /** Brings the records up to date with what other processes appended. */
  async sync(): Promise<void> {
    if (!this.lockHeld) return this.journal.sync();
    if (this.syncedUnderLock) return;
    await this.journal.sync();
    await this.journal.followNewerSegment();
    this.syncedUnderLock = true;
  }
}
