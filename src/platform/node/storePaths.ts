/**
 * Lexical guard for store-relative paths. The engine only ever hands the adapter canonical
 * paths ('' or 'a/b.md'); anything else means a bug upstream or misuse, and the adapter refuses it
 * rather than interpreting it, so that no input can name a host path outside the store.
 */

/** Why `relPath` is not a canonical store-relative path, or undefined when it is. */
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

/** True when `child` is `root` or lies below it (both absolute, already resolved). */
export function isWithin(root: string, child: string, sep: string): boolean {
  return child === root || child.startsWith(root.endsWith(sep) ? root : root + sep);
}
