/**
 * The history's pure algebra over its entries (sorted by version): reading a record from disk,
 * the newest version of a file, a file's versions across renames, the live files, what retention
 * drops and what an undo would do. No I/O, so the views and the CLI use it on a loaded list.
 */
import type { HistoryEntry, HistoryOp, HistoryRetention } from './types';

const DAY_MS = 24 * 60 * 60 * 1000;

const OPS: ReadonlySet<string> = new Set<HistoryOp>(['create', 'str_replace', 'insert', 'edit', 'delete', 'rename', 'restore']);

/** A record read from disk, checked field by field (a damaged one is skipped). */
export function parseEntry(value: unknown): HistoryEntry | undefined {
  const v = value as Partial<HistoryEntry> | null;
  if (v === null || typeof v !== 'object') return undefined;
  const ok =
    Number.isSafeInteger(v.version) &&
    typeof v.time === 'number' &&
    typeof v.op === 'string' &&
    OPS.has(v.op) &&
    typeof v.path === 'string' &&
    (v.oldPath === undefined || typeof v.oldPath === 'string') &&
    typeof v.author === 'object' &&
    v.author !== null &&
    typeof v.author.name === 'string' &&
    typeof v.sha256 === 'string' &&
    typeof v.size === 'number' &&
    typeof v.blob === 'string' &&
    /^[0-9a-f]{64}$/.test(v.blob);
  return ok ? (v as HistoryEntry) : undefined;
}

export function latestOf(sorted: readonly HistoryEntry[], rel: string): HistoryEntry | undefined {
  for (let i = sorted.length - 1; i >= 0; i--) if (sorted[i].path === rel) return sorted[i];
  return undefined;
}

/** The versions of the file at `rel`, oldest first, following renames back to earlier paths. */
export function fileHistoryOf(sorted: readonly HistoryEntry[], rel: string): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  let path = rel;
  for (let i = sorted.length - 1; i >= 0; i--) {
    const e = sorted[i];
    if (e.path !== path) continue;
    out.push(e);
    if (e.op === 'rename' && e.oldPath !== undefined) path = e.oldPath;
  }
  return out.reverse();
}

export function storedBytesOf(sorted: readonly HistoryEntry[]): number {
  const sizes = new Map<string, number>();
  for (const e of sorted) sizes.set(e.blob, e.size);
  let total = 0;
  for (const size of sizes.values()) total += size;
  return total;
}

/**
 * The files that exist as far as history knows, with their newest version: paths whose newest
 * version is no delete and that no later rename took away.
 */
export function liveFiles(sorted: readonly HistoryEntry[]): Map<string, HistoryEntry> {
  const newest = new Map<string, HistoryEntry>();
  const movedAwayAt = new Map<string, number>();
  for (const e of sorted) {
    newest.set(e.path, e);
    if (e.op === 'rename' && e.oldPath !== undefined) movedAwayAt.set(e.oldPath, e.version);
  }
  for (const [path, e] of newest) if (e.op === 'delete' || (movedAwayAt.get(path) ?? 0) > e.version) newest.delete(path);
  return newest;
}

/**
 * The versions retention drops. Protected: the newest version of every path that still holds a
 * file as far as history knows (its newest version is no delete, and no later rename took the
 * file away), so the current content of a file is always in history.
 */
export function droppable(sorted: readonly HistoryEntry[], retention: HistoryRetention, now: number): Set<number> {
  const protectedVersions = new Set([...liveFiles(sorted).values()].map((e) => e.version));
  const drop = new Set<number>();
  const oldest = now - retention.maxDays * DAY_MS;
  const perPath = new Map<string, number>();
  // Newest first, so the count keeps the newest versions of each path.
  for (let i = sorted.length - 1; i >= 0; i--) {
    const e = sorted[i];
    const n = (perPath.get(e.path) ?? 0) + 1;
    perPath.set(e.path, n);
    if (protectedVersions.has(e.version)) continue;
    if (n > retention.maxVersionsPerFile || e.time < oldest) drop.add(e.version);
  }
  // Over the size cap: oldest droppable first, counting each stored content once.
  const refs = new Map<string, number>();
  const sizes = new Map<string, number>();
  for (const e of sorted) {
    if (drop.has(e.version)) continue;
    refs.set(e.blob, (refs.get(e.blob) ?? 0) + 1);
    sizes.set(e.blob, e.size);
  }
  let total = 0;
  for (const size of sizes.values()) total += size;
  for (const e of sorted) {
    if (total <= retention.maxBytes) break;
    if (protectedVersions.has(e.version) || drop.has(e.version)) continue;
    drop.add(e.version);
    const left = (refs.get(e.blob) ?? 1) - 1;
    refs.set(e.blob, left);
    if (left === 0) total -= sizes.get(e.blob) ?? 0;
  }
  return drop;
}

/** What undoing one version means. */
export type UndoPlan =
  | { kind: 'restore'; path: string; version: number }
  | { kind: 'delete'; path: string; sha256: string }
  | { kind: 'rename'; from: string; to: string };

/**
 * How to undo `version`: an edit puts the file's previous version back, a create removes the
 * file, a delete brings it back, a rename moves it back. `later` counts the changes made to the
 * same file after it (undoing also drops those). Undefined when there is nothing to go back to.
 */
export function undoPlanOf(sorted: readonly HistoryEntry[], version: number): { plan: UndoPlan; later: number } | undefined {
  const e = sorted.find((x) => x.version === version);
  if (e === undefined) return undefined;
  // The file's chain as it is now: follow renames forward from this version.
  let current = e.path;
  let later = 0;
  for (const x of sorted) {
    if (x.version <= version) continue;
    if (x.op === 'rename' && x.oldPath === current) {
      current = x.path;
      later++;
    } else if (x.path === current) later++;
  }
  if (e.op === 'delete') return { plan: { kind: 'restore', path: e.path, version }, later };
  if (e.op === 'rename' && e.oldPath !== undefined) return { plan: { kind: 'rename', from: current, to: e.oldPath }, later };
  const before = fileHistoryOf(sorted, e.path).filter((x) => x.version < version);
  const previous = before.at(-1);
  if (previous === undefined || previous.op === 'delete') {
    return { plan: { kind: 'delete', path: current, sha256: e.sha256 }, later };
  }
  return { plan: { kind: 'restore', path: current, version: previous.version }, later };
}
