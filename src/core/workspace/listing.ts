/**
 * The editor's folder view: entries two levels deep, leaving out hidden names, node_modules, what
 * the folder's `.gitignore` files ignore (the root's, the viewed folder's ancestors' and those met
 * on the way down, each applying below its own folder, as git does) and the `files.exclude`
 * patterns the host passes. Names only, no sizes: a source tree is far bigger than a memory
 * store, and sizes would mean walking all of it.
 */
import ignore, { type Ignore } from 'ignore';
import { FileType } from '../memory/fileSystem';
import { ancestorsOf, joinRel } from '../memory/paths';
import type { SafeStore } from '../memory/store';
import { decodeText } from '../memory/text';
import { truncateListing } from '../memory/truncate';
import { editorMessages } from './messages';
import { displayOfWorkspace, type WorkspaceFolderInfo } from './paths';

interface Rules {
  base: string;
  rules: Ignore;
}

export async function listFolder(
  store: SafeStore,
  folder: WorkspaceFolderInfo,
  rel: string,
  excludes: readonly string[],
  limit: number,
): Promise<string> {
  const scopes: Rules[] = [];
  if (excludes.length > 0) scopes.push({ base: '', rules: ignore().add([...excludes]) });
  for (const dir of [...ancestorsOf(rel), ...(rel === '' ? [''] : [rel])]) await addGitignore(store, dir, scopes);

  const hidden = (entry: string, isDir: boolean, within: readonly Rules[]) =>
    within.some(({ base, rules }) => {
      const relative = base === '' ? entry : entry.slice(base.length + 1);
      return rules.ignores(isDir ? `${relative}/` : relative);
    });

  const lines = [`${displayOfWorkspace(folder, rel)}/`];
  const scan = async (dir: string, depth: number, within: Rules[]): Promise<void> => {
    const entries = await store.readDirectory(dir);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [name, type] of entries) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const child = joinRel(dir, name);
      const isLink = (type & FileType.SymbolicLink) !== 0;
      const isDir = (type & FileType.Directory) !== 0;
      if (hidden(child, isDir, within)) continue;
      // Links are shown (as `@`, like ls -F) but never entered: the editor does not follow them.
      lines.push(`${displayOfWorkspace(folder, child)}${isLink ? '@' : isDir ? '/' : ''}`);
      if (isDir && !isLink && depth < 2) {
        const inner = [...within];
        await addGitignore(store, child, inner);
        await scan(child, depth + 1, inner);
      }
    }
  };
  await scan(rel, 1, scopes);
  return `${editorMessages.listingHeader(displayOfWorkspace(folder, rel))}\n${truncateListing(lines, limit)}`;
}

/** Adds `dir/.gitignore` (when it is a readable text file, not a link) to `scopes`. */
async function addGitignore(store: SafeStore, dir: string, scopes: Rules[]): Promise<void> {
  const rel = joinRel(dir, '.gitignore');
  try {
    const inspection = await store.inspect(rel);
    if (inspection.kind !== 'file' || inspection.stat.size > 1024 * 1024) return;
    const text = decodeText(await store.readFile(rel))?.text;
    if (text !== undefined) scopes.push({ base: dir, rules: ignore().add(text) });
  } catch {
    // An unreadable or linked .gitignore hides nothing; the listing still works.
  }
}
