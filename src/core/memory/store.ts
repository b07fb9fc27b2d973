/**
 * The engine's only door to the MemoryFileSystem. It never follows a symbolic link (every
 * existing component of a path is stat'ed and a link refuses the command), turns adapter errors
 * into model-safe sentences (the adapter's message may hold a host path and is never forwarded),
 * and writes atomically through a hidden temporary file in the same folder.
 */
import { writeAtomically } from './atomicWrite';
import { ChangedMeanwhileError, MemoryError } from './errors';
import { FileType, isFsError, type FileStat, type MemoryFileSystem } from './fileSystem';
import { FS_ERROR_REASONS, messages } from './messages';
import { displayOf, joinRel, META_FOLDER } from './paths';

export type Inspection =
  | { kind: 'file'; stat: FileStat }
  | { kind: 'directory'; stat: FileStat }
  /** `blockedBy`: the nearest existing ancestor that is a file (the path can never exist). */
  | { kind: 'missing'; blockedBy?: string }
  | { kind: 'other'; stat: FileStat };

export interface WalkEntry {
  rel: string;
  name: string;
  depth: number;
  type: 'file' | 'directory';
}

/**
 * How a store names its paths and words its failures for the model. The memory store speaks of
 * `/memories/...`; the workspace editor's store of paths in the workspace folder.
 */
export interface StoreVocabulary {
  display(rel: string): string;
  symlink(display: string): string;
  fsFailure(display: string, reason: string): string;
}

export const MEMORY_VOCABULARY: StoreVocabulary = { display: displayOf, symlink: messages.symlink, fsFailure: messages.fsFailure };

export class SafeStore {
  /** What the running command looked up (see `scoped`); undefined outside one. */
  private scope: { inspections: Map<string, Inspection>; contents: Map<string, Uint8Array>; written?: string } | undefined;

  constructor(
    readonly fs: MemoryFileSystem,
    private readonly vocabulary: StoreVocabulary = MEMORY_VOCABULARY,
  ) {}

  /**
   * What `rel` is, having checked the root and every existing component for symbolic links.
   * A link anywhere throws a MemoryError naming the requested path.
   */
  async inspect(rel: string): Promise<Inspection> {
    const cached = this.scope?.inspections.get(rel);
    if (cached !== undefined) return cached;
    const inspection = await this.inspectNow(rel);
    this.scope?.inspections.set(rel, inspection);
    return inspection;
  }

  private async inspectNow(rel: string): Promise<Inspection> {
    const parts = rel === '' ? [] : rel.split('/');
    const fs = this.fs;
    // One look-up per component where the adapter can (lstatChain); else `stat` of each prefix.
    const chain = fs.lstatChain === undefined ? undefined : await this.call(rel, () => fs.lstatChain!(rel));
    let current = '';
    for (let i = 0; i <= parts.length; i++) {
      if (i > 0) current = joinRel(current, parts[i - 1]);
      const stat = chain !== undefined ? chain[i] : await this.statOrUndefined(current, rel);
      if (stat === undefined) return { kind: 'missing' };
      if (stat.type & FileType.SymbolicLink) {
        throw new MemoryError(this.vocabulary.symlink(this.vocabulary.display(rel)));
      }
      const isLast = i === parts.length;
      if (!isLast) {
        if (stat.type & FileType.Directory) continue;
        return { kind: 'missing', blockedBy: current };
      }
      if (stat.type & FileType.Directory) return { kind: 'directory', stat };
      if (stat.type & FileType.File) return { kind: 'file', stat };
      return { kind: 'other', stat };
    }
    throw new Error('unreachable');
  }

  /**
   * Runs `task` (one memory command, which the engine runs alone) remembering what it looked up:
   * a path inspected or a file read twice in it is looked up once, until the store changes through
   * this SafeStore (every change forgets everything, and a file written is remembered with the
   * bytes written). The adapter still confines every access; checks that must see the disk as it
   * is now (an edit's last comparison before its rename, journal reads) never use it. Nested
   * calls share the outer scope.
   */
  async scoped<T>(task: () => Promise<T>): Promise<T> {
    if (this.scope !== undefined) return task();
    this.scope = { inspections: new Map(), contents: new Map() };
    try {
      // The adapter's own checks, once per command too where it can (MemoryFileSystem.operation).
      const fs = this.fs;
      return await (fs.operation !== undefined ? fs.operation(task) : task());
    } finally {
      this.scope = undefined;
    }
  }

  /** The bytes the running command wrote to `rel` last, when nothing changed in the store since (see `scoped`). */
  justWritten(rel: string): Uint8Array | undefined {
    return this.scope?.written === rel ? this.scope.contents.get(rel) : undefined;
  }

  /** Forgets what the current scope remembered (an edit starting over must read the disk again). */
  forget(): void {
    if (this.scope === undefined) return;
    this.scope.inspections.clear();
    this.scope.contents.clear();
    this.scope.written = undefined;
  }

  /** After a change to the store: nothing remembered holds any more, except what was just written. */
  private changed(written?: { rel: string; content: Uint8Array }): void {
    if (this.scope === undefined) return;
    this.forget();
    if (written === undefined) return;
    this.scope.contents.set(written.rel, written.content);
    this.scope.written = written.rel;
  }

  async readFile(rel: string): Promise<Uint8Array> {
    const cached = this.scope?.contents.get(rel);
    if (cached !== undefined) return cached;
    const bytes = await this.call(rel, () => this.fs.readFile(rel));
    this.scope?.contents.set(rel, bytes);
    return bytes;
  }

  async readDirectory(rel: string): Promise<[string, FileType][]> {
    return this.call(rel, () => this.fs.readDirectory(rel));
  }

  /**
   * The entries of a folder with each one's stat (a link's stat follows it, SymbolicLink bit set);
   * an entry removed meanwhile is left out.
   */
  async readDirectoryStats(rel: string): Promise<[string, FileStat][]> {
    const fs = this.fs;
    if (fs.readDirectoryStats !== undefined) return this.call(rel, () => fs.readDirectoryStats!(rel));
    const out: [string, FileStat][] = [];
    for (const [name] of await this.readDirectory(rel)) {
      const child = joinRel(rel, name);
      const stat = await this.statOrUndefined(child, child);
      if (stat !== undefined) out.push([name, stat]);
    }
    return out;
  }

  async ensureDirectory(rel: string): Promise<void> {
    try {
      await this.call(rel, () => this.fs.createDirectory(rel));
    } finally {
      this.changed();
    }
  }

  async delete(rel: string): Promise<void> {
    try {
      await this.call(rel, () => this.fs.delete(rel, { recursive: true }));
    } finally {
      this.changed();
    }
  }

  async rename(from: string, to: string): Promise<void> {
    try {
      await this.call(from, () => this.fs.rename(from, to, { overwrite: false }));
    } finally {
      this.changed();
    }
  }

  /**
   * Replaces (or creates) the file in place: it keeps its mode, links and identity, as an editor's
   * save does. For workspace files; memory writes go through writeAtomic.
   */
  async writeInPlace(rel: string, content: Uint8Array): Promise<void> {
    this.changed();
    await this.call(rel, () => this.fs.writeFile(rel, content));
    this.changed({ rel, content });
  }

  /**
   * Writes through `<folder>/.~tmp-<random>` then renames over the target, so a reader or a crash
   * never sees half a file. With `overwrite: false` an existing target fails with FileExists.
   * With `expected` (the bytes an edit read), the target is read again right before the rename and
   * a difference throws ChangedMeanwhileError: a writer outside our lock (an editor, git, a host
   * without a cross-process lock) never has its change silently replaced.
   */
  async writeAtomic(rel: string, content: Uint8Array, overwrite: boolean, expected?: Uint8Array): Promise<void> {
    const check = expected && (() => this.assertUnchanged(rel, expected));
    this.changed();
    await this.call(rel, () => writeAtomically(this.fs, rel, content, overwrite, check));
    this.changed({ rel, content });
  }

  /** An atomic write that never replaces anything: false when the target exists (left as it is). */
  async writeNew(rel: string, content: Uint8Array): Promise<boolean> {
    this.changed();
    try {
      await writeAtomically(this.fs, rel, content, false);
      this.changed({ rel, content });
      return true;
    } catch (e) {
      this.changed();
      if (isFsError(e, 'FileExists')) return false;
      throw this.translate(rel, e);
    }
  }

  /**
   * Appends `data` to the existing file `rel` (a journal; the caller holds the store lock). With
   * the adapter's append one O_APPEND write; without it the file is read and rewritten atomically.
   * Throws FileNotFound (as a MemoryError) when the file is missing.
   */
  async appendFile(rel: string, data: Uint8Array): Promise<void> {
    const fs = this.fs;
    this.changed();
    if (fs.append !== undefined) return this.call(rel, () => fs.append!(rel, data));
    const old = await this.call(rel, () => fs.readFile(rel));
    const joined = new Uint8Array(old.length + data.length);
    joined.set(old, 0);
    joined.set(data, old.length);
    await this.writeAtomic(rel, joined, true);
  }

  /** The bytes of `rel` from `offset` on (adapter errors untranslated: FsError FileNotFound when missing). */
  async readFrom(rel: string, offset: number): Promise<Uint8Array> {
    if (this.fs.readFrom !== undefined) return this.fs.readFrom(rel, offset);
    const all = await this.fs.readFile(rel);
    return all.subarray(Math.min(offset, all.length));
  }

  private async assertUnchanged(rel: string, expected: Uint8Array): Promise<void> {
    let now: Uint8Array | undefined;
    try {
      now = await this.fs.readFile(rel);
    } catch (e) {
      if (!isFsError(e, 'FileNotFound')) throw e;
    }
    if (now === undefined || !sameBytes(now, expected)) throw new ChangedMeanwhileError(messages.changedMeanwhile(displayOf(rel)));
  }

  /**
   * Depth-first walk below `rel`, children sorted by code unit, links skipped and never entered.
   * `onFile` receives every regular file (for sizes); `maxDepth` limits recursion.
   */
  async walk(rel: string, visit: (entry: WalkEntry) => Promise<boolean | void> | boolean | void, maxDepth = Infinity): Promise<void> {
    const recurse = async (dir: string, depth: number): Promise<void> => {
      const entries = await this.readDirectory(dir);
      entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const [name, type] of entries) {
        if (type & FileType.SymbolicLink) continue;
        const childRel = joinRel(dir, name);
        // The store's private folder (its lock) is not memory: never counted, never listed.
        if (childRel === META_FOLDER) continue;
        if (type & FileType.Directory) {
          const descend = await visit({ rel: childRel, name, depth, type: 'directory' });
          if (descend !== false && depth < maxDepth) await recurse(childRel, depth + 1);
        } else if (type & FileType.File) {
          await visit({ rel: childRel, name, depth, type: 'file' });
        }
      }
    };
    await recurse(rel, 1);
  }

  /** Bytes of all regular files at or below `rel` (links not followed). */
  async sizeOf(rel: string): Promise<number> {
    const inspection = await this.inspect(rel);
    if (inspection.kind === 'file') return inspection.stat.size;
    if (inspection.kind !== 'directory') return 0;
    const total = async (dir: string): Promise<number> => {
      let sum = 0;
      for (const [name, stat] of await this.readDirectoryStats(dir)) {
        if (stat.type & FileType.SymbolicLink) continue;
        const child = joinRel(dir, name);
        if (child === META_FOLDER) continue;
        if (stat.type & FileType.Directory) sum += await total(child);
        else if (stat.type & FileType.File) sum += stat.size;
      }
      return sum;
    };
    return total(rel);
  }

  async fileSize(rel: string): Promise<number> {
    try {
      return (await this.fs.stat(rel)).size;
    } catch (e) {
      if (isFsError(e, 'FileNotFound')) return 0;
      throw this.translate(rel, e);
    }
  }

  private async statOrUndefined(rel: string, requested: string): Promise<FileStat | undefined> {
    try {
      return await this.fs.stat(rel);
    } catch (e) {
      if (isFsError(e, 'FileNotFound') || isFsError(e, 'FileNotADirectory')) return undefined;
      throw this.translate(requested, e);
    }
  }

  private async call<T>(rel: string, op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (e) {
      throw this.translate(rel, e);
    }
  }

  private translate(rel: string, e: unknown): unknown {
    if (isFsError(e)) return new MemoryError(this.vocabulary.fsFailure(this.vocabulary.display(rel), FS_ERROR_REASONS[e.code] ?? FS_ERROR_REASONS.Unknown));
    return e;
  }
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
