/**
 * The store's private folder, made the same way whoever needs it first (the Node lock makes it
 * too): `.meta` with a `.gitignore` of `*`, so history, usage and pins never reach a commit.
 */
import { META_FOLDER } from '../paths';
import type { SafeStore } from '../store';

export async function ensureMetaFolder(store: SafeStore, ...subfolders: string[]): Promise<void> {
  if ((await store.inspect(META_FOLDER)).kind === 'missing') await store.ensureDirectory(META_FOLDER);
  // Looked at first: writing it anew on every call costs a temporary file, a link and an unlink.
  const gitignore = `${META_FOLDER}/.gitignore`;
  if ((await store.inspect(gitignore)).kind === 'missing') await store.writeNew(gitignore, new TextEncoder().encode('*\n'));
  for (const rel of subfolders) {
    if ((await store.inspect(rel)).kind === 'missing') await store.ensureDirectory(rel);
  }
}
