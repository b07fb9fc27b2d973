import { FsError, type FsErrorCode } from '../../core/memory/fileSystem';

/** Node error codes that mean the same thing as a `vscode.FileSystemError` kind. */
const CODE_MAP: Readonly<Record<string, FsErrorCode>> = {
  ENOENT: 'FileNotFound',
  EEXIST: 'FileExists',
  ENOTDIR: 'FileNotADirectory',
  EISDIR: 'FileIsADirectory',
  EACCES: 'NoPermissions',
  EPERM: 'NoPermissions',
  // O_NOFOLLOW on a final symbolic link: the adapter refused to go through it.
  ELOOP: 'NoPermissions',
};

/**
 * Turns a Node fs error into an FsError. The message names the operation and the store-relative
 * path only (never the host path), so even a careless logger cannot leak where the store lives.
 */
export function toFsError(e: unknown, op: string, relPath: string): FsError {
  if (e instanceof FsError) return e;
  const code = typeof (e as NodeJS.ErrnoException | undefined)?.code === 'string' ? (e as NodeJS.ErrnoException).code! : '';
  return new FsError(CODE_MAP[code] ?? 'Unknown', `${op} '${relPath}' failed${code ? ` (${code})` : ''}`);
}

export function refused(op: string, relPath: string, why: string): FsError {
  return new FsError('NoPermissions', `${op} ${JSON.stringify(relPath)} refused: ${why}`);
}
