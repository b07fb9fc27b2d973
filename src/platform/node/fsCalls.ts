/**
 * The Node file system calls NodeMemoryFileSystem is built on: open flags and modes, synchronous
 * reads and writes of whole small files, metadata look-ups, and their answers as FileStats.
 */
import { promises as fsPromises, constants as FS, fstatSync, linkSync, lstatSync, readSync, realpathSync, statSync, unlinkSync, writeSync, type Dirent, type Stats } from 'node:fs';
import { FileType, type FileStat } from '../../core/memory/fileSystem';
import { refused } from './fsErrors';

/**
 * node:fs/promises, looked up on first use: loading it costs milliseconds at start, and small
 * files, metadata and single-entry changes never need it.
 */
export const fsp = (): typeof fsPromises => fsPromises;

/** Owner-only, whatever the umask: memory files hold the user's notes and the model's. */
export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;
/** Workspace files (ownerOnly: false): what the umask leaves of rw-rw-rw- / rwxrwxrwx. */
export const SHARED_FILE_MODE = 0o666;
export const SHARED_DIR_MODE = 0o777;
/** O_NOFOLLOW everywhere we open: a link swapped in after our checks is refused, not followed. */
export const READ_FLAGS = FS.O_RDONLY | FS.O_NOFOLLOW;
/** Synchronous opens never wait on a FIFO (a cloned repository may plant one): the type is checked after. */
export const READ_SYNC_FLAGS = READ_FLAGS | FS.O_NONBLOCK;
export const CREATE_FLAGS = FS.O_WRONLY | FS.O_CREAT | FS.O_EXCL | FS.O_NOFOLLOW;
export const OVERWRITE_FLAGS = FS.O_WRONLY | FS.O_TRUNC | FS.O_NOFOLLOW;
/**
 * Files up to this size are read and written with synchronous calls (one command runs at a time;
 * a thread-pool round trip per open/read/write/close costs more than the I/O of a memory file).
 */
export const SYNC_IO_BYTES = 1024 * 1024;

/** The size of the open file; a folder is EISDIR, anything else but a regular file is refused. */
export function regularFileSize(fd: number, op: string, rel: string): number {
  const stat = fstatSync(fd);
  if (stat.isFile()) return stat.size;
  if (stat.isDirectory()) throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' });
  throw refused(op, rel, 'not a regular file');
}

export function writeAll(fd: number, data: Uint8Array): void {
  let done = 0;
  while (done < data.length) done += writeSync(fd, data, done, data.length - done);
}

/** The bytes of `fd` from `offset` up to `size` (fewer if it shrank meanwhile). */
export function readRest(fd: number, offset: number, size: number): Uint8Array {
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
export const APPEND_FLAGS = FS.O_WRONLY | FS.O_APPEND | FS.O_NOFOLLOW | FS.O_NONBLOCK;

/**
 * Metadata look-ups (lstat, stat, realpath) are synchronous on purpose: the engine stats every
 * path component and the adapter resolves links before each access, a dozen look-ups per
 * command, and a thread-pool round trip costs far more than the system call itself. Callers run
 * one command at a time (the engine serializes), so nothing else waits on the event loop. The
 * same holds for single-entry changes to the tree (rename, link, unlink, mkdir) and for files up
 * to SYNC_IO_BYTES; large files and removing a whole folder stay asynchronous.
 */
export const meta = {
  lstat: (p: string): Stats => lstatSync(p),
  stat: (p: string): Stats => statSync(p),
  realpath: (p: string): string => realpathSync.native(p),
};

export function kindOf(s: Stats | Dirent): FileType {
  if (s.isFile()) return FileType.File;
  if (s.isDirectory()) return FileType.Directory;
  return FileType.Unknown;
}

export function toFileStat(s: Stats, extraBits: FileType): FileStat {
  return { type: kindOf(s) | extraBits, size: s.size, mtime: s.mtimeMs, ctime: s.birthtimeMs || s.ctimeMs, links: s.nlink };
}

export function lstatOrUndefined(host: string): Stats | undefined {
  try {
    return meta.lstat(host);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * A file moved to a name that must not exist, atomically: link(2) fails with EEXIST if anything
 * is there, where a check then rename would let two processes both "create" the same file.
 * False (nothing done) for a folder or on a file system without hard links; the caller then
 * checks and renames, which the store lock keeps safe among our own writers.
 */
export async function linkExclusive(from: string, to: string): Promise<boolean> {
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
