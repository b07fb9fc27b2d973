import { chmodSync, closeSync, fchmodSync, lstatSync, mkdirSync, openSync, readdirSync, renameSync, rmdirSync, unlinkSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { FileType, type FileStat, type MemoryFileSystem } from '../../core/memory/fileSystem';
import { refused, toFsError } from './fsErrors';
import {
  APPEND_FLAGS,
  CREATE_FLAGS,
  DIR_MODE,
  FILE_MODE,
  fsp,
  kindOf,
  linkExclusive,
  lstatOrUndefined,
  meta,
  OVERWRITE_FLAGS,
  READ_FLAGS,
  READ_SYNC_FLAGS,
  readRest,
  regularFileSize,
  SHARED_DIR_MODE,
  SHARED_FILE_MODE,
  SYNC_IO_BYTES,
  writeAll,
} from './fsCalls';
import { StoreConfinement } from './storeConfinement';

/** What rename(2) answers when the target is a kind it cannot replace (a folder, or a file when a folder moves). */
const REPLACE_REFUSED = new Set(['EISDIR', 'ENOTDIR', 'ENOTEMPTY', 'EEXIST']);

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
  private readonly paths: StoreConfinement;
  private readonly ownerOnly: boolean;

  constructor(storeDir: string, options: NodeFileSystemOptions = {}) {
    if (!path.isAbsolute(storeDir)) throw new Error('NodeMemoryFileSystem needs an absolute store folder');
    this.paths = new StoreConfinement(path.resolve(storeDir));
    this.ownerOnly = options.ownerOnly ?? true;
  }

  async stat(rel: string): Promise<FileStat> {
    const host = this.paths.hostPath('stat', rel);
    try {
      this.paths.confineParent('stat', rel);
      const lstat = meta.lstat(host);
      return this.paths.statOf(host, lstat);
    } catch (e) {
      throw toFsError(e, 'stat', rel);
    }
  }

  /**
   * What `''` and each prefix of `rel` is (StoreConfinement.lstatChain: stat's answers, the chain
   * ends at a link).
   */
  async lstatChain(rel: string): Promise<FileStat[]> {
    return this.paths.lstatChain(rel);
  }

  /** The folder's entries with stat's answers for each: the folder confined once, one lstat per entry. */
  async readDirectoryStats(rel: string): Promise<[string, FileStat][]> {
    const host = this.paths.hostPath('readDirectoryStats', rel);
    try {
      const real = this.paths.confined('readDirectoryStats', rel, host);
      const result: [string, FileStat][] = [];
      for (const name of readdirSync(real)) {
        const full = real + path.sep + name;
        const stat = lstatSync(full, { throwIfNoEntry: false });
        if (stat === undefined) continue; // Removed since the listing.
        result.push([name, this.paths.statOf(full, stat)]);
      }
      return result;
    } catch (e) {
      throw toFsError(e, 'readDirectoryStats', rel);
    }
  }

  async readDirectory(rel: string): Promise<[string, FileType][]> {
    const host = this.paths.hostPath('readDirectory', rel);
    try {
      const real = this.paths.confined('readDirectory', rel, host);
      const entries = await fsp().readdir(real, { withFileTypes: true });
      const result: [string, FileType][] = [];
      for (const entry of entries) {
        const type = entry.isSymbolicLink() ? (this.paths.linkStat(path.join(real, entry.name))).type : kindOf(entry);
        result.push([entry.name, type]);
      }
      return result;
    } catch (e) {
      throw toFsError(e, 'readDirectory', rel);
    }
  }

  async readFile(rel: string): Promise<Uint8Array> {
    const host = this.paths.hostPath('readFile', rel);
    try {
      const real = this.paths.linkFreeParent(rel);
      let opened: { fd: number; real: string } | undefined;
      if (real !== undefined) {
        try {
          // O_NOFOLLOW judges the last component: a link there fails with ELOOP (EMLINK on
          // some BSDs); then it is resolved and confined below, as a link anywhere in the path is.
          opened = { fd: openSync(real, READ_SYNC_FLAGS), real };
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code !== 'ELOOP' && code !== 'EMLINK') throw e;
        }
      }
      if (opened === undefined) {
        const resolved = this.paths.confined('readFile', rel, host);
        opened = { fd: openSync(resolved, READ_SYNC_FLAGS), real: resolved };
      }
      // Small files (every memory file, in practice) synchronously: open, fstat, read and close
      // through the thread pool cost four round trips, more than reading a few KiB.
      const fd = opened.fd;
      try {
        const size = regularFileSize(fd, 'readFile', rel);
        if (size <= SYNC_IO_BYTES) return readRest(fd, 0, size);
      } finally {
        closeSync(fd);
      }
      return await fsp().readFile(opened.real, { flag: READ_FLAGS });
    } catch (e) {
      throw toFsError(e, 'readFile', rel);
    }
  }

  /** Runs one engine command as one operation: each folder is proven free of links once in it (StoreConfinement). */
  operation<T>(task: () => Promise<T>): Promise<T> {
    return this.paths.operation(task);
  }

  async writeFile(rel: string, content: Uint8Array): Promise<void> {
    const host = this.paths.hostPath('writeFile', rel);
    if (rel === '') throw refused('writeFile', rel, 'the store root is a folder');
    try {
      this.paths.confineParent('writeFile', rel);
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
    const host = this.paths.hostPath('append', rel);
    try {
      this.paths.confineParent('append', rel);
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
    const host = this.paths.hostPath('readFrom', rel);
    try {
      this.paths.confineParent('readFrom', rel);
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
      target = this.paths.confined('writeFile', rel, host);
    } catch (e) {
      // The name exists (open said so) yet does not resolve: a dangling link. Never create through it.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw refused('writeFile', rel, 'dangling symbolic link');
      throw e;
    }
    await fsp().writeFile(target, content, { flag: OVERWRITE_FLAGS });
  }

  async delete(rel: string, options: { recursive: boolean }): Promise<void> {
    const host = this.paths.hostPath('delete', rel);
    if (rel === '') throw refused('delete', rel, 'the store root is never deleted');
    try {
      this.paths.confineParent('delete', rel);
      this.paths.forget(rel);
      // Neither rm nor unlink follows a final link: deleting a link removes the link only.
      // A file (or link) goes with one unlink, tried first without looking (a folder answers
      // EISDIR, or EPERM on some systems); only a folder's tree is removed asynchronously.
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
    const from = this.paths.hostPath('rename', source);
    const to = this.paths.hostPath('rename', target);
    if (source === '' || target === '') throw refused('rename', source === '' ? source : target, 'the store root is never moved');
    try {
      this.paths.confineParent('rename', source);
      this.paths.confineParent('rename', target);
      this.paths.forget(source);
      this.paths.forget(target);
      if (!options.overwrite) {
        if (await linkExclusive(from, to)) return;
        if (lstatOrUndefined(to) !== undefined) throw toFsError({ code: 'EEXIST' }, 'rename', target);
        renameSync(from, to);
        return;
      }
      try {
        // The usual case (a temporary file over a file) in one call, without looking first.
        renameSync(from, to);
      } catch (e) {
        // POSIX rename cannot replace a non-empty folder or swap kinds; vscode deletes first too.
        if (!REPLACE_REFUSED.has((e as NodeJS.ErrnoException).code ?? '') || lstatOrUndefined(to) === undefined) throw e;
        await fsp().rm(to, { recursive: true });
        renameSync(from, to);
      }
    } catch (e) {
      throw toFsError(e, 'rename', source);
    }
  }

  async createDirectory(rel: string): Promise<void> {
    const host = this.paths.hostPath('createDirectory', rel);
    try {
      if (rel === '') {
        await this.makeFolder(this.paths.root, rel);
        return;
      }
      try {
        const real = this.paths.confined('createDirectory', rel, host);
        if (!meta.stat(real).isDirectory()) throw toFsError({ code: 'EEXIST' }, 'createDirectory', rel);
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
      // Walk down from the root so every existing ancestor is checked before we create below it.
      const segments = rel.split('/');
      for (let i = 1; i <= segments.length; i++) {
        const prefix = segments.slice(0, i).join('/');
        await this.makeFolder(path.join(this.paths.root, prefix), prefix);
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
      const real = rel === '' ? this.paths.resolvedRoot() : this.paths.confined('createDirectory', rel, host);
      if (!meta.stat(real).isDirectory()) throw toFsError({ code: 'ENOTDIR' }, 'createDirectory', rel);
    }
  }
}
