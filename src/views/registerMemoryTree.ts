import * as vscode from 'vscode';
import { HandEditRecorder } from '../platform/handEdits';
import { CONTEXT_KEYS, VIEWS } from '../platform/ids';
import type { ExtensionServices } from '../platform/services';
import type { MemoryNode } from './memoryTreeNodes';
import { MemoryTreeProvider } from './memoryTreeProvider';
import { StoreWatcher } from './storeWatcher';
import { TouchRevealer } from './touchRevealer';
import { VERSION_SCHEME, VersionDiffTracker, VersionDocumentProvider } from './versionDocuments';

export const MEMORY_TREE_VIEW_ID = VIEWS.memoryTree;

/** Relative ages ("5 min ago") go stale; re-read this often while the view is visible. */
const AGE_REFRESH_MS = 60_000;

export interface MemoryTree {
  readonly provider: MemoryTreeProvider;
  readonly view: vscode.TreeView<MemoryNode>;
  readonly revealer: TouchRevealer;
  /** Which version diff is in the active tab (for Restore This Version). */
  readonly versionDiffs: VersionDiffTracker;
}

/** Creates the Memory view and keeps it in step with the disk, the settings and the agent. */
export function registerMemoryTree(context: vscode.ExtensionContext, services: ExtensionServices): MemoryTree {
  const log = services.logger('tree');
  const provider = new MemoryTreeProvider(services.stores, services.memoryActivity, log);
  const view = vscode.window.createTreeView(MEMORY_TREE_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true, canSelectMany: false });
  const revealer = new TouchRevealer(provider, view, services.stores, log);
  const ageTimer = setInterval(() => {
    if (view.visible) provider.refresh();
  }, AGE_REFRESH_MS);

  const versionDiffs = new VersionDiffTracker(services.stores, CONTEXT_KEYS.versionDiffActive);
  // Saves in the editor, git and other programs become the user's versions in history.
  const handEdits = new HandEditRecorder(() => services.trust.isTrusted(), services.logger('history'), () => provider.refresh());

  context.subscriptions.push(
    provider,
    view,
    vscode.workspace.registerTextDocumentContentProvider(VERSION_SCHEME, new VersionDocumentProvider(services.stores)),
    versionDiffs,
    handEdits,
    new StoreWatcher(services.stores, () => provider.refresh(), { onEvent: (store, uri) => handEdits.notice(store, uri) }),
    // Saves in the editor also directly: the watcher sometimes misses writes into folders made
    // after start-up, and a notice read in the middle of a save would see a truncated file.
    vscode.workspace.onWillSaveTextDocument(({ document }) => {
      const store = services.stores.forUri(document.uri);
      if (store) handEdits.saving(store, document.uri);
    }),
    vscode.workspace.onDidSaveTextDocument((document) => {
      const store = services.stores.forUri(document.uri);
      if (store) handEdits.saved(store, document.uri);
    }),
    services.stores.onDidChange(() => provider.refresh()),
    revealer,
    services.memoryActivity.onDidTouch((touch) => revealer.onTouch(touch)),
    { dispose: () => clearInterval(ageTimer) },
  );
  return { provider, view, revealer, versionDiffs };
}
