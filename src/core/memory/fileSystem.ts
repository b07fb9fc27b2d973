/**
 * The one file-system interface the memory engine uses, in the shape of `vscode.FileSystem`
 * but over store-relative POSIX paths: `''` is the store root (`/memories`), `'notes/a.md'` a
 * file below it. Adapters (src/platform/) root it at `<workspace>/.claude-memories`; the engine
 * never sees a host path, so it can never leak one.
 */

/** Same bit values as `vscode.FileType`. */
export enum FileType {
  Unknown = 0,
  File = 1,
  Directory = 2,
  SymbolicLink = 64,
}

export interface FileStat {
  /** A bit set of FileType: a symlink to a file is `File | SymbolicLink` (as vscode.workspace.fs reports it). */
  type: FileType;
  size: number;
  /** Milliseconds since the epoch. */
  mtime: number;
  ctime: number;
  /** Hard links to the file, where the adapter knows it (a file with more than one is replaced, never written into). */
  links?: number;
}

export type FsErrorCode =
  | 'FileNotFound'
  | 'FileExists'
  | 'FileNotADirectory'
  | 'FileIsADirectory'
  | 'NoPermissions'
  | 'Unavailable'
  | 'Unknown';

/**
 * What adapters throw. `message` is for logs only and may contain a host path: the engine
 * never forwards it to the model.
 */
export class FsError extends Error {
  constructor(
    readonly code: FsErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'FsError';
  }
}

export function isFsError(e: unknown, code?: FsErrorCode): e is FsError {
  return e instanceof FsError && (code === undefined || e.code === code);
}

/** Why adapters and the store lock refuse a store whose root is a symbolic link (NoPermissions). */
export const LINKED_ROOT = 'the memory folder is a symbolic link';

/** An adapter's or the lock's refusal of a store root that is a symbolic link. */
export function isLinkedRootError(e: unknown): boolean {
  return isFsError(e, 'NoPermissions') && e.message.includes(LINKED_ROOT);
}

export interface MemoryFileSystem {
  /** Follows a final symbolic link but reports it with the SymbolicLink bit set. */
  stat(path: string): Promise<FileStat>;
  /** Entries with their types (SymbolicLink bit set for links), not sorted. */
  readDirectory(path: string): Promise<[name: string, type: FileType][]>;
  readFile(path: string): Promise<Uint8Array>;
  /** Creates or replaces the file; the parent folder must exist. Files are created owner-only (0600). */
  writeFile(path: string, content: Uint8Array): Promise<void>;
  delete(path: string, options: { recursive: boolean }): Promise<void>;
  rename(source: string, target: string, options: { overwrite: boolean }): Promise<void>;
  /** Creates the folder and any missing parents (like vscode.workspace.fs.createDirectory). */
  createDirectory(path: string): Promise<void>;
  /**
   * Optional: appends to an existing file with one O_APPEND write (FileNotFound when it is
   * missing: never creates). Hosts without it (vscode.workspace.fs) get a read and an atomic
   * rewrite of the whole file instead (SafeStore.appendFile).
   */
  append?(path: string, data: Uint8Array): Promise<void>;
  /** Optional: the file's bytes from `offset` to its end (without it, the whole file is read). */
  readFrom?(path: string, offset: number): Promise<Uint8Array>;
  /**
   * Optional: what each component of `path` is, from the store root down, following no link:
   * the stats of `''`, then of every prefix of `path` in order, ending early after the first one
   * that is a symbolic link (SymbolicLink bit set) or no folder, or before the first that is
   * missing. The same answers as `stat` of each prefix in turn, in one system call per component
   * (without it, SafeStore.inspect calls `stat` for every prefix).
   */
  lstatChain?(path: string): Promise<FileStat[]>;
  /**
   * Optional: the entries of the folder `path` with their stats, as readDirectory and then `stat`
   * of each entry would give them (a link's stat follows it, with the SymbolicLink bit set).
   */
  readDirectoryStats?(path: string): Promise<[name: string, stat: FileStat][]>;
  /**
   * Optional: runs `task`, one engine command (commands run one at a time, a changing one under
   * the store lock), as one operation. The adapter may then confine each path with what it proved
   * earlier in the same operation (a real folder, no link, stays one until the adapter itself
   * deletes or moves it) instead of looking at every component again at every step, and
   * lstatChain may answer the folders above the last component from it.
   */
  operation?<T>(task: () => Promise<T>): Promise<T>;
}

/**
 * Why `relPath` is not a canonical store-relative path, or undefined when it is. Every adapter
 * applies this lexical guard to the paths it is given: the engine only ever hands over canonical
 * paths ('' or 'a/b.md'), so anything else means a bug upstream or misuse, and the adapter refuses
 * it rather than interpreting it, so that no input can name a host path outside the store.
 */
export function invalidStorePathReason(relPath: string): string | undefined {
  if (typeof relPath !== 'string') return 'not a string';
  if (relPath === '') return undefined;
  if (relPath.startsWith('/')) return 'absolute path';
  if (relPath.includes('\\')) return 'backslash';
  if (relPath.includes('\0')) return 'NUL character';
  // A Windows drive or UNC prefix is absolute there even without a leading slash.
  if (/^[A-Za-z]:/.test(relPath)) return 'drive-letter path';
  for (const segment of relPath.split('/')) {
    if (segment === '') return 'empty segment';
    if (segment === '.' || segment === '..') return `'${segment}' segment`;
  }
  return undefined;
}
