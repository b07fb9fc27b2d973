/**
 * A change's diff in VS Code's diff editor: the file's previous version ↔ this version, both
 * read-only documents of the version scheme (ui/versionDocuments.ts), as Show History's are.
 */
import * as vscode from 'vscode';
import { describeAuthor, describeOp } from '../../core/memory/history/describe';
import type { HistoryEntry } from '../../core/memory/history/types';
import type { MemoryStores } from '../../platform/memoryStores';
import { versionUri } from '../../ui/versionDocuments';
import { NO_VERSION } from '../../ui/versionPaths';
import { diffSides } from './changeFeedModel';

/** Opens the diff of `entry` in the store of `folder` (a created file's left side and a deleted file's right side are empty). */
export async function openChangeDiff(stores: MemoryStores, folder: vscode.Uri, entry: HistoryEntry): Promise<void> {
  const store = stores.forFolder(folder);
  if (store === undefined) return;
  const sides = diffSides(await store.engine.history(), entry);
  const what = entry.op === 'rename' ? `${sides.beforePath} → ${sides.afterPath}` : entry.path;
  const title = `${what}: ${describeOp({ op: entry.op })} by ${describeAuthor(entry.author)} (v${entry.version})`;
  await vscode.commands.executeCommand(
    'vscode.diff',
    versionUri(store, sides.before?.version ?? NO_VERSION, sides.beforePath),
    versionUri(store, sides.after?.version ?? NO_VERSION, sides.afterPath),
    title,
    { preview: true },
  );
}
