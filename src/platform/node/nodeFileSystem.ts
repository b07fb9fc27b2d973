import { chmodSync, closeSync, promises as fsPromises, constants as FS, fchmodSync, fstatSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, realpathSync, renameSync, rmdirSync, statSync, unlinkSync, writeSync, type Dirent, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { FileType, invalidStorePathReason, type FileStat, type MemoryFileSystem } from '../../core/memory/fileSystem';
import { refused, toFsError } from './fsErrors';
import { isWithin } from './storePaths';

/**
 * node:fs/promises, looked up on first use: loading it costs milliseconds at start, and small
 * files, metadata and single-entry changes never need it.
 */
const fsp = (): typeof fsPromises => fsPromises;

/** Owner-only, whatever the umask: memory files hold the user's notes and the model's. */
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
/** Workspace files (ownerOnly: false): what the umask leaves of rw-rw-rw- / rwxrwxrwx. */
const SHARED_FILE_MODE = 0o666;
const SHARED_DIR_MODE = 0o777;
/** O_NOFOLLOW everywhere we open: a link swapped in after our checks is refused, not followed. */
const READ_FLAGS = FS.O_RDONLY | FS.O_NOFOLLOW;
/** Synchronous opens never wait on a FIFO (a cloned repository may plant one): the type is checked after. */
const READ_SYNC_FLAGS = READ_FLAGS | FS.O_NONBLOCK;
const CREATE_FLAGS = FS.O_WRONLY | FS.O_CREAT | FS.O_EXCL | FS.O_NOFOLLOW;
const OVERWRITE_FLAGS = FS.O_WRONLY | FS.O_TRUNC | FS.O_NOFOLLOW;
/**
 * Files up to this size are read and written with synchronous calls (one command runs at a time;
 * a thread-pool round trip per open/read/write/close costs more than the I/O of a memory file).
 */
const SYNC_IO_BYTES = 1024 * 1024;

/** The size of the open file; a folder is EISDIR, anything else but a regular file is refused. */
function regularFileSize(fd: number, op: string, rel: string): number {
  const stat = fstatSync(fd);
  if (stat.isFile()) return stat.size;
  if (stat.isDirectory()) throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' });
  throw refused(op, rel, 'not a regular file');
}

function writeAll(fd: number, data: Uint8Array): void {
  let done = 0;
  while (done < data.length) done += writeSync(fd, data, done, data.length - done);
}

/** The bytes of `fd` from `offset` up to `size` (fewer if it shrank meanwhile). */
function readRest(fd: number, offset: number, size: number): Uint8Array {
  const out = Buffer.allocUnsafe(Math.max(0, size - offset));
  let done = 0;
  while (done < out.length) {
    const n = readSync(fd, out, done, out.length - done, offset + done);
    if (n === 0) break;
    done += n;
  }
  return out.subarray(0, done);
}

/** Appends never create: a journal segment is made whole (atomic write) and only then grown. */
const APPEND_FLAGS = FS.O_WRONLY | FS.O_APPEND | FS.O_NOFOLLOW | FS.O_NONBLOCK;

/**
 * Metadata look-ups (lstat, stat, realpath) are synchronous on purpose: the engine stats every
 * path component and the adapter resolves links before each access, a dozen look-ups per
 * command, and a thread-pool round trip costs far more than the system call itself. Callers run
 * one command at a time (the engine serializes), so nothing else waits on the event loop. The
 * same holds for single-entry changes to the tree (rename, link, unlink, mkdir) and for files up
 * to SYNC_IO_BYTES; large files and removing a whole folder stay asynchronous.
 */
const meta = {
  lstat: (p: string): Stats => lstatSync(p),
  stat: (p: string): Stats => statSync(p),
  realpath: (p: string): string => realpathSync.native(p),
};

/**
 * MemoryFileSystem over Node fs, rooted at `<workspace>/.claude-memories`, for the CLI and tests.
 *
 * Semantics follow `vscode.workspace.fs` (stat follows a final link and sets the SymbolicLink
 * bit; listings carry link bits) so the engine behaves the same in both hosts. On top of that the
 * adapter confines itself, independently of the engine's own checks: it refuses non-canonical
 * paths, resolves links before touching anything and refuses (or reports as dangling) any link
 * that resolves outside the store, and never deletes or renames the store root.
 */
export interface NodeFileSystemOptions {
  /**
   * Default true: new files 0600 and folders 0700 whatever the umask (memory holds notes). False
   * for a workspace folder served to the text editor: new source files get the umask's usual
   * modes, as any editor creates them.
   */
  ownerOnly?: boolean;
}

export class NodeMemoryFileSystem implements MemoryFileSystem {
  private readonly root: string;
  /** realpath of the root, cached once it exists (the root itself may be a user-made link). */
  private realRoot: string | undefined;
  private readonly ownerOnly: boolean;

  constructor(storeDir: string, options: NodeFileSystemOptions = {}) {
    if (!path.isAbsolute(storeDir)) throw new Error('NodeMemoryFileSystem needs an absolute store folder');
    this.root = path.resolve(storeDir);
    this.ownerOnly = options.ownerOnly ?? true;
  }

  async stat(rel: string): Promise<FileStat> {
    const host = this.hostPath('stat', rel);
    try {
      this.confineParent('stat', rel);
      const lstat = meta.lstat(host);
      return this.statOf(host, lstat);
    } catch (e) {
      throw toFsError(e, 'stat', rel);
    }
  }

  /**
   * What `''` and each prefix of `rel` is, one lstat per component below the store's real root
   * (stat's answers: a link is reported with the SymbolicLink bit, and the chain ends at it).
   */
  async lstatChain(rel: string): Promise<FileStat[]> {
    this.hostPath('lstatChain', rel);
    const out: FileStat[] = [];
    try {
      const root = lstatSync(this.root, { throwIfNoEntry: false });
      if (root === undefined) return out;
      out.push(this.statOf(this.root, root));
      if (!root.isDirectory() || rel === '') return out;
      let at = this.resolvedRoot();
      for (const name of rel.split('/')) {
        at = at + path.sep + name;
        let stat: Stats | undefined;
        try {
          stat = lstatSync(at, { throwIfNoEntry: false });
        } catch (e) {
          // A file where a folder was expected (changed since its own lstat): missing below it.
          if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') return out;
          throw e;
        }
        if (stat === undefined) return out;
        if (stat.isSymbolicLink()) {
          out.push(this.linkStat(at, stat));
          return out;
        }
        out.push(toFileStat(stat, 0));
        if (!stat.isDirectory()) return out;
      }
      return out;
    } catch (e) {
      throw toFsError(e, 'lstatChain', rel);
    }
  }

  /** The folder's entries with stat's answers for each: the folder confined once, one lstat per entry. */
  async readDirectoryStats(rel: string): Promise<[string, FileStat][]> {
    const host = this.hostPath('readDirectoryStats', rel);
    try {
      const real = this.confined('readDirectoryStats', rel, host);
      const result: [string, FileStat][] = [];
      for (const name of readdirSync(real)) {
        const full = real + path.sep + name;
        const stat = lstatSync(full, { throwIfNoEntry: false });
        if (stat === undefined) continue; // Removed since the listing.
        result.push([name, this.statOf(full, stat)]);
      }
      return result;
    } catch (e) {
      throw toFsError(e, 'readDirectoryStats', rel);
    }
  }

  async readDirectory(rel: string): Promise<[string, FileType][]> {
    const host = this.hostPath('readDirectory', rel);
    try {
      const real = this.confined('readDirectory', rel, host);
      const entries = await fsp().readdir(real, { withFileTypes: true });
      const result: [string, FileType][] = [];
      for (const entry of entries) {
        const type = entry.isSymbolicLink() ? (this.linkStat(path.join(real, entry.name))).type : kindOf(entry);
        result.push([entry.name, type]);
      }
      return result;
    } catch (e) {
      throw toFsError(e, 'readDirectory', rel);
    }
  }

  async readFile(rel: string): Promise<Uint8Array> {
    const host = this.hostPath('readFile', rel);
    try {
      const real = this.confined('readFile', rel, host);
      // Small files (every memory file, in practice) synchronously: open, fstat, read and close
      // through the thread pool cost four round trips, more than reading a few KiB.
      const fd = openSync(real, READ_SYNC_FLAGS);
      try {
        const size = regularFileSize(fd, 'readFile', rel);
        if (size <= SYNC_IO_BYTES) return readRest(fd, 0, size);
      } finally {
        closeSync(fd);
      }
      return await fsp().readFile(real, { flag: READ_FLAGS });
    } catch (e) {
      throw toFsError(e, 'readFile', rel);
    }
  }

  async writeFile(rel: string, content: Uint8Array): Promise<void> {
    const host = this.hostPath('writeFile', rel);
    if (rel === '') throw refused('writeFile', rel, 'the store root is a folder');
    try {
      this.confineParent('writeFile', rel);
      if (content.length <= SYNC_IO_BYTES) {
        let fd: number;
        try {
          // New names first: the engine writes every change to a fresh temporary file.
          fd = openSync(host, CREATE_FLAGS, this.ownerOnly ? FILE_MODE : SHARED_FILE_MODE);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
          await this.overwrite(rel, host, content);
          return;
        }
        try {
          // open's mode is filtered by the umask; chmod makes it exactly owner read/write.
          if (this.ownerOnly) fchmodSync(fd, FILE_MODE);
          writeAll(fd, content);
        } finally {
          closeSync(fd);
        }
        return;
      }
      let handle: FileHandle;
      try {
        handle = await fsp().open(host, CREATE_FLAGS, this.ownerOnly ? FILE_MODE : SHARED_FILE_MODE);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        await this.overwrite(rel, host, content);
        return;
      }
      try {
        // open's mode is filtered by the umask; chmod makes it exactly owner read/write.
        if (this.ownerOnly) fchmodSync(handle.fd, FILE_MODE);
        await handle.writeFile(content);
      } finally {
        await handle.close();
      }
    } catch (e) {
      throw toFsError(e, 'writeFile', rel);
    }
  }

  /**
   * One O_APPEND write to an existing file (never created here, never through a link).
   * Synchronous, like the metadata look-ups: a journal frame is a few hundred bytes, and four
   * thread-pool round trips (open, write, close) cost more than the writes themselves.
   */
  async append(rel: string, data: Uint8Array): Promise<void> {
    const host = this.hostPath('append', rel);
    try {
      this.confineParent('append', rel);
      const fd = openSync(host, APPEND_FLAGS);
      try {
        regularFileSize(fd, 'append', rel);
        writeAll(fd, data);
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      throw toFsError(e, 'append', rel);
    }
  }

  /** The file's bytes from `offset` to its end (O_NOFOLLOW: a link is refused); synchronous like append. */
  async readFrom(rel: string, offset: number): Promise<Uint8Array> {
    const host = this.hostPath('readFrom', rel);
    try {
      this.confineParent('readFrom', rel);
      const fd = openSync(host, READ_SYNC_FLAGS);
      try {
        const size = regularFileSize(fd, 'readFrom', rel);
        if (size <= offset) return new Uint8Array(0);
        return readRest(fd, offset, size);
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      throw toFsError(e, 'readFrom', rel);
    }
  }

  /** Replaces an existing file's content (through an in-store link if it is one), keeping its mode. */
  private async overwrite(rel: string, host: string, content: Uint8Array): Promise<void> {
    let target: string;
    try {
      target = this.confined('writeFile', rel, host);
    } catch (e) {
      // The name exists (open said so) yet does not resolve: a dangling link. Never create through it.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw refused('writeFile', rel, 'dangling symbolic link');
      throw e;
    }
    await fsp().writeFile(target, content, { flag: OVERWRITE_FLAGS });
  }

  async delete(rel: string, options: { recursive: boolean }): Promise<void> {
    const host = this.hostPath('delete', rel);
    if (rel === '') throw refused('delete', rel, 'the store root is never deleted');
    try {
      this.confineParent('delete', rel);
      // Neither rm nor unlink follows a final link: deleting a link removes the link only.
      // A file (or link) goes with one unlink; only a folder's tree is removed asynchronously.
      if (options.recursive && meta.lstat(host).isDirectory()) {
        await fsp().rm(host, { recursive: true });
        return;
      }
      try {
        unlinkSync(host);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'EISDIR' && code !== 'EPERM') throw e;
        if (options.recursive) await fsp().rm(host, { recursive: true });
        else rmdirSync(host);
      }
    } catch (e) {
      throw toFsError(e, 'delete', rel);
    }
  }

  async rename(source: string, target: string, options: { overwrite: boolean }): Promise<void> {
    const from = this.hostPath('rename', source);
    const to = this.hostPath('rename', target);
    if (source === '' || target === '') throw refused('rename', source === '' ? source : target, 'the store root is never moved');
    try {
      this.confineParent('rename', source);
      this.confineParent('rename', target);
      if (!options.overwrite && (await this.linkExclusive(from, to))) return;
      const existing = lstatOrUndefined(to);
      if (existing && !options.overwrite) throw toFsError({ code: 'EEXIST' }, 'rename', target);
      if (existing && (existing.isDirectory() || meta.lstat(from).isDirectory())) {
        // POSIX rename cannot replace a non-empty folder or swap kinds; vscode deletes first too.
        await fsp().rm(to, { recursive: true });
      }
      renameSync(from, to);
    } catch (e) {
      throw toFsError(e, 'rename', source);
    }
  }

  /**
   * A file moved to a name that must not exist, atomically: link(2) fails with EEXIST if anything
   * is there, where a check then rename would let two processes both "create" the same file.
   * False (nothing done) for a folder or on a file system without hard links; the caller then
   * checks and renames, which the store lock keeps safe among our own writers.
   */
  private async linkExclusive(from: string, to: string): Promise<boolean> {
    if (!meta.lstat(from).isFile()) return false;
    try {
      linkSync(from, to);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'EXDEV' || code === 'ENOSYS' || code === 'EMLINK') return false;
      throw e;
    }
    // Both names hold the file now; dropping the old one completes the move (a crash right here
    // leaves the old name too, never a half file: for a new file it is the hidden temp file).
    unlinkSync(from);
    return true;
  }

  async createDirectory(rel: string): Promise<void> {
    const host = this.hostPath('createDirectory', rel);
    try {
      if (rel === '') {
        await this.makeFolder(this.root, rel);
        return;
      }
      try {
        const real = this.confined('createDirectory', rel, host);
        if (!meta.stat(real).isDirectory()) throw toFsError({ code: 'EEXIST' }, 'createDirectory', rel);
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
      // Walk down from the root so every existing ancestor is checked before we create below it.
      const segments = rel.split('/');
      for (let i = 1; i <= segments.length; i++) {
        const prefix = segments.slice(0, i).join('/');
        await this.makeFolder(path.join(this.root, prefix), prefix);
      }
    } catch (e) {
      throw toFsError(e, 'createDirectory', rel);
    }
  }

  /** mkdir one level at 0700; an existing folder is fine once it is proven to be inside the store. */
  private async makeFolder(host: string, rel: string): Promise<void> {
    try {
      mkdirSync(host, { mode: this.ownerOnly ? DIR_MODE : SHARED_DIR_MODE });
      if (this.ownerOnly) chmodSync(host, DIR_MODE);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const real = rel === '' ? meta.realpath(host) : this.confined('createDirectory', rel, host);
      if (!meta.stat(real).isDirectory()) throw toFsError({ code: 'ENOTDIR' }, 'createDirectory', rel);
    }
  }

  private hostPath(op: string, rel: string): string {
    const why = invalidStorePathReason(rel);
    if (why !== undefined) throw refused(op, String(rel), why);
    return rel === '' ? this.root : path.join(this.root, rel);
  }

  private resolvedRoot(): string {
    this.realRoot ??= meta.realpath(this.root);
    return this.realRoot;
  }

  /** The real path of an existing entry, refused when links lead it out of the store. */
  private confined(op: string, rel: string, host: string): string {
    const fast = this.linkFree(rel);
    if (fast !== undefined) return fast;
    const real = meta.realpath(host);
    if (!isWithin(this.resolvedRoot(), real, path.sep)) throw refused(op, rel, 'a symbolic link leads out of the store');
    return real;
  }

  /**
   * `rel` under the store's real root when none of its components is a symbolic link (one lstat
   * per component below the root, where realpath(3) reads every component of the host path as a
   * link); undefined when one is, and realpath decides. Missing components throw ENOENT/ENOTDIR
   * as realpath does.
   */
  private linkFree(rel: string): string | undefined {
    const root = this.resolvedRoot();
    if (rel === '') return root;
    let at = root;
    for (const name of rel.split('/')) {
      at = at + path.sep + name;
      if (meta.lstat(at).isSymbolicLink()) return undefined;
    }
    return at;
  }

  /** Proves the folder that holds `rel` resolves inside the store (top-level names sit in the root). */
  private confineParent(op: string, rel: string): void {
    const slash = rel.lastIndexOf('/');
    if (slash < 0) return;
    const parent = rel.slice(0, slash);
    this.confined(op, parent, path.join(this.root, parent));
  }

  /** A link's target type with the SymbolicLink bit; a dangling or escaping link is SymbolicLink alone. */
  /** What `stat` answers for the entry at `host` whose lstat is `lstat` (a link: its target's, see linkStat). */
  private statOf(host: string, lstat: Stats): FileStat {
    return lstat.isSymbolicLink() ? this.linkStat(host, lstat) : toFileStat(lstat, 0);
  }

  private linkStat(host: string, lstat?: Stats): FileStat {
    try {
      const real = meta.realpath(host);
      if (isWithin(this.resolvedRoot(), real, path.sep)) return toFileStat(meta.stat(real), FileType.SymbolicLink);
    } catch {
      // Dangling or looping: reported like vscode does, as a link of unknown kind.
    }
    return { ...toFileStat(lstat ?? meta.lstat(host), FileType.SymbolicLink), type: FileType.SymbolicLink };
  }
}

function kindOf(s: Stats | Dirent): FileType {
  if (s.isFile()) return FileType.File;
  if (s.isDirectory()) return FileType.Directory;
  return FileType.Unknown;
}

function toFileStat(s: Stats, extraBits: FileType): FileStat {
  return { type: kindOf(s) | extraBits, size: s.size, mtime: s.mtimeMs, ctime: s.birthtimeMs || s.ctimeMs, links: s.nlink };
}

function lstatOrUndefined(host: string): Stats | undefined {
  try {
    return meta.lstat(host);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}
