/**
 * History's retention as the journal runs it: which versions a new version makes droppable
 * (looked for only when a limit may be passed, or hourly for age), what a prune drops, and when
 * a segment is due to be written whole again (compaction). What retention allows to drop at all
 * is `droppable` (entries.ts).
 */
import { droppable } from './entries';
import type { JournalIndex } from './journalIndex';
import type { HistoryEntry, HistoryRetention } from './types';

/** Versions older than the day limit are looked for at most this often. */
const AGE_PRUNE_EVERY_MS = 60 * 60 * 1000;
/** A segment is compacted once it holds at least this many dropped versions, and as many as an eighth of its kept ones (a file edited over and over drops one version per edit, so dropped records never pile up far beyond what is kept). */
const COMPACT_MIN_DROPPED = 64;
/** Versions appended one frame each before the segment is rewritten in frames of FRAME_RECORDS. */
const REPACK_MIN_APPENDED = 256;

export class Pruning {
  private lastAgePrune = 0;

  constructor(
    private readonly retention: HistoryRetention,
    private readonly now: () => number,
  ) {}

  /** What retention drops once `entry` is recorded (checked only when a limit may be passed, or hourly for age). */
  dropsWith(index: JournalIndex, entry: HistoryEntry): number[] {
    const now = this.now();
    const perFile = (index.perPath.get(entry.path) ?? 0) + 1;
    const dueByAge = now - this.lastAgePrune > AGE_PRUNE_EVERY_MS;
    const bytes = index.bytes + (index.blobRefs.has(entry.blob) ? 0 : entry.size);
    if (perFile <= this.retention.maxVersionsPerFile && !dueByAge && bytes <= this.retention.maxBytes) return [];
    if (!dueByAge && bytes <= this.retention.maxBytes) return this.overPerFileLimit(index, entry);
    if (dueByAge) this.lastAgePrune = now;
    return [...droppable([...index.sorted, entry], this.retention, now)].sort((a, b) => a - b);
  }

  /** What a prune drops now: everything retention allows (the age limit counts as looked at). */
  dueNow(index: JournalIndex): Set<number> {
    const now = this.now();
    this.lastAgePrune = now;
    return droppable(index.sorted, this.retention, now);
  }

  /**
   * Only the new version's path went over the per-file limit (the common case of a file edited
   * many times): its oldest versions beyond the limit go, as `droppable` would drop them (the
   * new version is that path's newest, the only one of it `droppable` protects), without a pass
   * over every file's versions.
   */
  private overPerFileLimit(index: JournalIndex, entry: HistoryEntry): number[] {
    const drop: number[] = [];
    let n = 1;
    for (let i = index.sorted.length - 1; i >= 0; i--) {
      const e = index.sorted[i];
      if (e.path !== entry.path) continue;
      n++;
      if (n > this.retention.maxVersionsPerFile) drop.push(e.version);
    }
    return drop.reverse();
  }
}

/**
 * Dropped versions make up an eighth of the kept ones; or many versions were appended one frame
 * each since the segment was last written whole (`appended`; compacted, they compress together
 * to a fraction: the JSON of a version is too small for deflate on its own).
 */
export function compactionDue(index: JournalIndex, appended: number): boolean {
  if (index.dropped.size >= COMPACT_MIN_DROPPED && index.dropped.size * 8 >= index.sorted.length) return true;
  return appended >= REPACK_MIN_APPENDED && appended * 8 >= index.sorted.length;
}
