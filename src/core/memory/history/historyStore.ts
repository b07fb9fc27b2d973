/**
 * MemoryHistory: the versions of one store, kept in `.meta/history` as immutable files.
 *
 *   .meta/history/v/000000000042.json   one version's record (HistoryEntry)
 *   .meta/history/b/<sha256>            a stored content, shared by every version with those bytes
 *   .meta/history/head                  {"last": 42, "epoch": 3}: newest version number, prune count
 *
 * Writers hold the store lock while they record (the engine calls `record` inside its locked
 * section), so version numbers come out in order across processes; a version file is created
 * exclusively all the same, so a number is never used twice even by a writer without the lock.
 * Each process keeps the records it has read; `sync` reads only `head` when nothing changed,
 * the new versions when another process added some, and everything again after a prune.
 */
import { FileType } from '../fileSystem';
import { META_FOLDER } from '../paths';
import type { SafeStore } from '../store';
import { ensureMetaFolder } from './metaFolder';
import { sha256Hex } from './sha256';
import type { Author, HistoryEntry, HistoryOp, HistoryRetention } from './types';

export const HISTORY_FOLDER = `${META_FOLDER}/history`;
const VERSIONS = `${HISTORY_FOLDER}/v`;
const BLOBS = `${HISTORY_FOLDER}/b`;
const HEAD = `${HISTORY_FOLDER}/head`;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Versions older than the day limit are looked for at most this often. */
const AGE_PRUNE_EVERY_MS = 60 * 60 * 1000;

export interface NewVersion {
  op: HistoryOp;
  path: string;
  oldPath?: string;
  author: Author;
  /** The file's content at this version (for a delete: what it held). */
  content: Uint8Array;
  restoredFrom?: number;
}

/** The copy of a content that history may keep (secrets replaced), or undefined to keep it as is. */
export type StoredCopy = (content: Uint8Array) => Uint8Array | undefined;

interface Head {
  last: number;
  epoch: number;
}

export class MemoryHistory {
  private sorted: HistoryEntry[] = [];
  private readonly byVersion = new Map<number, HistoryEntry>();
  private head: Head = { last: 0, epoch: -1 };
  private lastAgePrune = 0;
  private foldersMade = false;

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
    return latestOf(this.sorted, rel);
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
    const entry = await this.entry(version);
    if (entry === undefined) return undefined;
    try {
      return await this.store.readFile(`${BLOBS}/${entry.blob}`);
    } catch {
      return undefined;
    }
  }

  /** Records one version; the caller holds the store lock. */
  async record(change: NewVersion): Promise<HistoryEntry> {
    await this.sync();
    const sha256 = await sha256Hex(change.content);
    const copy = this.storedCopy(change.content);
    const stored = copy ?? change.content;
    const blob = copy === undefined ? sha256 : await sha256Hex(copy);
    // A blob with this name already holds these bytes: nothing to write.
    try {
      await this.ensureFolders();
      await this.store.writeNew(`${BLOBS}/${blob}`, stored);
    } catch {
      // The folders went away since this process made them (the store was deleted): once more.
      this.foldersMade = false;
      await this.ensureFolders();
      await this.store.writeNew(`${BLOBS}/${blob}`, stored);
    }
    for (let attempt = 0; ; attempt++) {
      const entry: HistoryEntry = {
        version: Math.max(this.head.last, this.sorted.at(-1)?.version ?? 0) + 1,
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
      if (await this.store.writeNew(versionFile(entry.version), new TextEncoder().encode(JSON.stringify(entry)))) {
        this.add(entry);
        await this.writeHead({ last: entry.version, epoch: Math.max(this.head.epoch, 0) });
        await this.pruneIfNeeded(entry.path);
        return entry;
      }
      // The number was taken (a writer without the lock, or a head that lags after a crash).
      if (attempt >= 3) throw new Error('history: no free version number');
      await this.reload();
    }
  }

  /** Drops what retention allows to drop, oldest first; never the newest version of a live file. */
  async prune(): Promise<number> {
    await this.sync();
    const now = this.now();
    this.lastAgePrune = now;
    const drop = droppable(this.sorted, this.retention, now);
    if (drop.size === 0) return 0;
    for (const version of drop) await this.deleteIfThere(versionFile(version));
    const kept = this.sorted.filter((e) => !drop.has(e.version));
    const live = new Set(kept.map((e) => e.blob));
    for (const blob of new Set(this.sorted.filter((e) => drop.has(e.version)).map((e) => e.blob))) {
      if (!live.has(blob)) await this.deleteIfThere(`${BLOBS}/${blob}`);
    }
    this.sorted = kept;
    for (const version of drop) this.byVersion.delete(version);
    await this.writeHead({ last: this.head.last, epoch: this.head.epoch + 1 });
    return drop.size;
  }

  /** Bytes of stored contents (each distinct content once). */
  storedBytes(): number {
    return storedBytesOf(this.sorted);
  }

  private async pruneIfNeeded(path: string): Promise<void> {
    const perFile = this.sorted.filter((e) => e.path === path).length;
    const dueByAge = this.now() - this.lastAgePrune > AGE_PRUNE_EVERY_MS;
    if (perFile > this.retention.maxVersionsPerFile || dueByAge || this.storedBytes() > this.retention.maxBytes) await this.prune();
  }

  /** Brings the records up to date with what other processes wrote. */
  async sync(): Promise<void> {
    const head = await this.readHead();
    if (head.epoch !== this.head.epoch) return this.reload();
    if (head.last <= this.head.last) return;
    for (let v = this.head.last + 1; v <= head.last; v++) {
      if (this.byVersion.has(v)) continue;
      const entry = await this.readEntry(v);
      if (entry !== undefined) this.add(entry);
    }
    this.head = head;
  }

  private async reload(): Promise<void> {
    const head = await this.readHead();
    const names: [string, FileType][] = (await this.store.inspect(VERSIONS)).kind === 'directory' ? await this.store.readDirectory(VERSIONS) : [];
    const numbers = names
      .filter(([name, type]) => type === FileType.File && /^\d{12}\.json$/.test(name))
      .map(([name]) => Number(name.slice(0, 12)))
      .sort((a, b) => a - b);
    const known = this.byVersion;
    const entries: HistoryEntry[] = [];
    // Records never change, so the ones already read are kept; the rest are read a few at a time.
    const missing = numbers.filter((v) => !known.has(v));
    for (let i = 0; i < missing.length; i += 32) {
      const batch = await Promise.all(missing.slice(i, i + 32).map((v) => this.readEntry(v)));
      for (const entry of batch) if (entry !== undefined) known.set(entry.version, entry);
    }
    for (const v of numbers) {
      const entry = known.get(v);
      if (entry !== undefined) entries.push(entry);
    }
    this.sorted = entries;
    this.byVersion.clear();
    for (const entry of entries) this.byVersion.set(entry.version, entry);
    this.head = { last: Math.max(head.last, entries.at(-1)?.version ?? 0), epoch: head.epoch };
  }

  private add(entry: HistoryEntry): void {
    this.byVersion.set(entry.version, entry);
    if (this.sorted.length === 0 || this.sorted[this.sorted.length - 1].version < entry.version) {
      this.sorted.push(entry);
    } else {
      this.sorted.push(entry);
      this.sorted.sort((a, b) => a.version - b.version);
    }
    this.head = { ...this.head, last: Math.max(this.head.last, entry.version) };
  }

  private async readEntry(version: number): Promise<HistoryEntry | undefined> {
    try {
      return parseEntry(new TextDecoder().decode(await this.store.readFile(versionFile(version))));
    } catch {
      // Pruned meanwhile, or not ours: a record that cannot be read is skipped, never fatal.
      return undefined;
    }
  }

  private async readHead(): Promise<Head> {
    try {
      const parsed = JSON.parse(new TextDecoder().decode(await this.store.readFile(HEAD))) as Partial<Head>;
      const last = Number.isSafeInteger(parsed.last) ? (parsed.last as number) : 0;
      const epoch = Number.isSafeInteger(parsed.epoch) ? (parsed.epoch as number) : 0;
      return { last, epoch };
    } catch {
      return { last: 0, epoch: 0 };
    }
  }

  private async writeHead(head: Head): Promise<void> {
    this.head = head;
    await this.store.writeAtomic(HEAD, new TextEncoder().encode(JSON.stringify(head)), true);
  }

  /** Another process may have pruned the same file first. */
  private async deleteIfThere(rel: string): Promise<void> {
    try {
      await this.store.delete(rel);
    } catch (e) {
      if ((await this.store.inspect(rel)).kind !== 'missing') throw e;
    }
  }

  private async ensureFolders(): Promise<void> {
    if (this.foldersMade) return;
    await ensureMetaFolder(this.store, HISTORY_FOLDER, VERSIONS, BLOBS);
    this.foldersMade = true;
  }
}

function versionFile(version: number): string {
  return `${VERSIONS}/${String(version).padStart(12, '0')}.json`;
}


const OPS: ReadonlySet<string> = new Set<HistoryOp>(['create', 'str_replace', 'insert', 'edit', 'delete', 'rename', 'restore']);

/** A record read from disk, checked field by field (a damaged file is skipped). */
export function parseEntry(text: string): HistoryEntry | undefined {
  const v = JSON.parse(text) as Partial<HistoryEntry> | null;
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
