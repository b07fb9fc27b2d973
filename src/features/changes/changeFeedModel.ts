/**
 * The Memory Changes feed without VS Code: which versions it lists, how an expiry sweep becomes
 * one row, which changes are still to review, and the words on each row. Pure, tested in Node.
 */
import { fileHistoryOf } from '../../core/memory/history/entries';
import { describeAuthor, describeOp } from '../../core/memory/history/describe';
import type { HistoryEntry } from '../../core/memory/history/types';
import { formatAge } from '../../ui/treeFormat';

/** The feed lists this many of each store's newest versions. */
export const FEED_LIMIT = 200;
/** Expiry deletes further apart than this are separate sweeps (a sweep takes seconds). */
export const SWEEP_GAP_MS = 10 * 60 * 1000;

/**
 * What the user has reviewed, per store (keyed by the workspace folder's Uri): every version up
 * to `marks[key]`, and the single versions in `seen[key]` whose diff was opened since.
 */
export interface ReviewState {
  marks: Record<string, number>;
  seen: Record<string, number[]>;
}

export const NO_REVIEW: ReviewState = { marks: {}, seen: {} };

export type FeedRow =
  /** One version. */
  | { kind: 'change'; key: string; entry: HistoryEntry; unseen: boolean }
  /** One expiry sweep: its deletes, newest first. */
  | { kind: 'expiry'; key: string; entries: { entry: HistoryEntry; unseen: boolean }[]; unseen: boolean };

/** Changes to review: anyone's but the user's own, newer than the mark and not opened since. */
export function isUnseen(review: ReviewState, key: string, entry: HistoryEntry): boolean {
  if (entry.author.name === 'user') return false;
  if (entry.version <= (review.marks[key] ?? 0)) return false;
  return !(review.seen[key] ?? []).includes(entry.version);
}

/** The store's newest versions (oldest-first `history` in), newest first, as rows. */
export function feedRows(key: string, history: readonly HistoryEntry[], review: ReviewState, limit = FEED_LIMIT): FeedRow[] {
  const rows: FeedRow[] = [];
  const baselines = baselineVersions(history);
  const recent = history.filter((e) => !baselines.has(e.version)).slice(-limit).reverse();
  for (const entry of recent) {
    const unseen = isUnseen(review, key, entry);
    const previous = rows.at(-1);
    if (isExpiry(entry)) {
      const last = previous?.kind === 'expiry' ? previous.entries.at(-1)?.entry : undefined;
      // Newest first: the next delete of the same sweep is the version just before, close in time.
      if (previous?.kind === 'expiry' && last !== undefined && last.version === entry.version + 1 && last.time - entry.time <= SWEEP_GAP_MS) {
        previous.entries.push({ entry, unseen });
        previous.unseen ||= unseen;
      } else {
        rows.push({ kind: 'expiry', key, entries: [{ entry, unseen }], unseen });
      }
    } else {
      rows.push({ kind: 'change', key, entry, unseen });
    }
  }
  return rows;
}

/**
 * The versions that only take down a file as it already was: the first version history has of a
 * path, recorded as the user's `edit` when history first looked at it (a file made by hand, or one
 * that was there before history: a checkpoint notices every memory file). Nobody changed anything
 * there, so the feed does not list them; the file's next change is listed against them.
 */
function baselineVersions(history: readonly HistoryEntry[]): Set<number> {
  const seen = new Set<string>();
  const baselines = new Set<number>();
  for (const e of history) {
    if (!seen.has(e.path) && e.op === 'edit' && e.author.name === 'user') baselines.add(e.version);
    seen.add(e.path);
    if (e.oldPath !== undefined) seen.add(e.oldPath);
  }
  return baselines;
}

function isExpiry(entry: HistoryEntry): boolean {
  return entry.author.name === 'expiry' && entry.op === 'delete';
}

/** Versions to review in these rows (each expired file counts). */
export function unseenCount(rows: readonly FeedRow[]): number {
  let n = 0;
  for (const row of rows) {
    if (row.kind === 'change') n += row.unseen ? 1 : 0;
    else n += row.entries.filter((e) => e.unseen).length;
  }
  return n;
}

/** Everything up to each store's newest version is reviewed. */
export function markAllReviewed(review: ReviewState, newest: Record<string, number>): ReviewState {
  const marks = { ...review.marks };
  const seen = { ...review.seen };
  for (const [key, version] of Object.entries(newest)) {
    marks[key] = Math.max(marks[key] ?? 0, version);
    delete seen[key];
  }
  return { marks, seen };
}

/** One version is reviewed (its diff was opened). */
export function markReviewed(review: ReviewState, key: string, version: number): ReviewState {
  if (version <= (review.marks[key] ?? 0) || (review.seen[key] ?? []).includes(version)) return review;
  // Only versions above the mark need remembering; keep the list short.
  const seen = [...(review.seen[key] ?? []), version].filter((v) => v > (review.marks[key] ?? 0)).slice(-FEED_LIMIT);
  return { marks: review.marks, seen: { ...review.seen, [key]: seen } };
}

/** A review state read back from storage, or NO_REVIEW when it is not one. */
export function parseReviewState(value: unknown): ReviewState {
  if (typeof value !== 'object' || value === null) return NO_REVIEW;
  const { marks, seen } = value as Partial<ReviewState>;
  const out: ReviewState = { marks: {}, seen: {} };
  for (const [k, v] of Object.entries(marks ?? {})) if (Number.isSafeInteger(v)) out.marks[k] = v;
  for (const [k, v] of Object.entries(seen ?? {})) if (Array.isArray(v)) out.seen[k] = v.filter((x): x is number => Number.isSafeInteger(x));
  return out;
}

// ---- words

/** The row's label: the file's path, both paths for a rename. */
export function changeLabel(entry: HistoryEntry): string {
  return entry.op === 'rename' && entry.oldPath !== undefined ? `${entry.oldPath} → ${entry.path}` : entry.path;
}

/**
 * "3 min ago · Claude, chat 'Fix login'": the time first, so a 300 px side bar cuts the chat's
 * title, never when it happened.
 */
export function changeDescription(entry: HistoryEntry, now: number): string {
  return `${formatAge(entry.time, now)} · ${describeAuthor(entry.author)}`;
}

/** "3 memories expired". */
export function expiryLabel(count: number): string {
  return count === 1 ? '1 memory expired' : `${count} memories expired`;
}

/** The tooltip's lines: what, who (with the chat's turn), when, which version. */
export function changeTooltipLines(entry: HistoryEntry): string[] {
  const who = describeAuthor(entry.author);
  const turn = entry.author.name === 'chat' && entry.author.turn !== undefined ? `, turn ${entry.author.turn}` : '';
  const what = entry.op === 'rename' && entry.oldPath !== undefined ? `${entry.oldPath} renamed to ${entry.path}` : `${entry.path} ${describeOp(entry)}`;
  const lines = [what, `by ${who}${turn}`, `${new Date(entry.time).toLocaleString()} · version ${entry.version}`];
  if (entry.restoredFrom !== undefined) lines.push(`content of version ${entry.restoredFrom}`);
  if (entry.redacted) lines.push('secrets redacted in the stored copy');
  return lines;
}

/** The badge's tooltip. */
export function badgeTooltip(count: number): string {
  return count === 1 ? '1 memory change to review' : `${count} memory changes to review`;
}

// ---- the two sides of a change's diff

export interface DiffSides {
  /** Version whose content is on the left; undefined: empty (the file did not exist). */
  before: HistoryEntry | undefined;
  /** Version whose content is on the right; undefined: empty (the change deleted the file). */
  after: HistoryEntry | undefined;
  beforePath: string;
  afterPath: string;
}

/** What a change's diff compares: the file's previous version ↔ this one. */
export function diffSides(history: readonly HistoryEntry[], entry: HistoryEntry): DiffSides {
  const beforePath = entry.oldPath ?? entry.path;
  if (entry.op === 'delete') return { before: entry, after: undefined, beforePath, afterPath: entry.path };
  if (entry.op === 'create') return { before: undefined, after: entry, beforePath, afterPath: entry.path };
  const upTo = history.filter((e) => e.version <= entry.version);
  const previous = fileHistoryOf(upTo, entry.path).filter((e) => e.version < entry.version).at(-1);
  return { before: previous?.op === 'delete' ? undefined : previous, after: entry, beforePath, afterPath: entry.path };
}

/**
 * Whether undoing `entry` would drop something of a later change: false when the file, at the
 * same path, holds exactly this version's content again (every later change was undone meanwhile),
 * so Undo asks for confirmation only when later work really goes.
 */
export function undoDropsLaterWork(history: readonly HistoryEntry[], entry: HistoryEntry): boolean {
  let current = entry.path;
  let newest = entry;
  for (const x of history) {
    if (x.version <= entry.version) continue;
    if (x.op === 'rename' && x.oldPath === current) current = x.path;
    else if (x.path !== current) continue;
    newest = x;
  }
  if (newest === entry) return false;
  if (entry.op === 'delete') return true;
  return !(current === entry.path && newest.op !== 'delete' && newest.sha256 === entry.sha256);
}
