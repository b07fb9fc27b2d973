import * as vscode from 'vscode';
import type { MemoryTouch } from '../platform/memoryActivity';
import type { MemoryStore } from '../platform/memoryStores';
import type { ExtensionServices } from '../platform/services';
import type { MemoryNode } from './memoryTreeNodes';
import { MemoryTreeProvider } from './memoryTreeProvider';
import { MemoryStoreWatcher } from './memoryTreeWatcher';

export const MEMORY_TREE_VIEW_ID = 'claudeMemory.memoryTree';

/** Relative ages ("5 min ago") go stale; re-read this often while the view is visible. */
const AGE_REFRESH_MS = 60_000;

export interface MemoryTree {
  readonly provider: MemoryTreeProvider;
  readonly view: vscode.TreeView<MemoryNode>;
}

/** Creates the Memory view and keeps it in step with the disk, the settings and the agent. */
export function registerMemoryTree(context: vscode.ExtensionContext, services: ExtensionServices): MemoryTree {
  const log = services.logger('tree');
  const provider = new MemoryTreeProvider(services.stores, services.memoryActivity, log);
  const view = vscode.window.createTreeView(MEMORY_TREE_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true, canSelectMany: false });
  const ageTimer = setInterval(() => {
    if (view.visible) provider.refresh();
  }, AGE_REFRESH_MS);

  context.subscriptions.push(
    provider,
    view,
    new MemoryStoreWatcher(services.stores, () => provider.refresh()),
    services.stores.onDidChange(() => provider.refresh()),
    services.memoryActivity.onDidTouch((touch) => void revealTouched(provider, view, services.stores.forFolder(touch.folder), touch, log.debug)),
    { dispose: () => clearInterval(ageTimer) },
  );
  return { provider, view };
}

/** Marks the file the agent touched and, when the view is open, selects it without taking focus. */
async function revealTouched(
  provider: MemoryTreeProvider,
  view: vscode.TreeView<MemoryNode>,
  store: MemoryStore | undefined,
  touch: MemoryTouch,
  debug: (m: string) => void,
): Promise<void> {
  provider.noteTouch(touch);
  provider.refresh();
  if (!view.visible || touch.kind === 'delete') return;
  const node = store && (await provider.nodeForMemoryPath(store, touch.newPath ?? touch.path));
  if (!node || node.kind === 'root') return;
  try {
    await view.reveal(node, { select: true, focus: false, expand: node.kind === 'folder' ? 1 : false });
  } catch (e) {
    // The file may be gone again by the time the tree looks (a later call deleted it).
    debug(`reveal skipped: ${String(e)}`);
  }
}
