import * as vscode from 'vscode';
import { CONTEXT_KEYS, VIEWS } from '../../platform/ids';
import type { ExtensionServices } from '../../platform/services';
import type { MemoryNode } from './memoryTreeNodes';
import { MemoryTreeProvider } from './memoryTreeProvider';
import { refreshAgesWhileVisible } from '../../ui/ageRefresh';
import { TouchRevealer } from './touchRevealer';
import { VersionDiffTracker } from './versionDocuments';

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
  const view = vscode.window.createTreeView(VIEWS.memoryTree, { treeDataProvider: provider, showCollapseAll: true, canSelectMany: false });
  const revealer = new TouchRevealer(provider, view, services.stores, log);
  const versionDiffs = new VersionDiffTracker(services.stores, CONTEXT_KEYS.versionDiffActive);

  context.subscriptions.push(
    provider,
    view,
    versionDiffs,
    services.storeChanges.onDidChange(() => void provider.storeChanged()),
    revealer,
    services.memoryActivity.onDidTouch((touch) => revealer.onTouch(touch)),
    refreshAgesWhileVisible(view, () => provider.refresh(), () => provider.drawnAt),
  );
  return { provider, view, revealer, versionDiffs };
}
