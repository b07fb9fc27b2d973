/** The Memory view's version diffs: open one (a version ↔ the file now), and know when one is in front (Restore This Version). */
import * as vscode from 'vscode';
import type { MemoryStores } from '../../platform/memoryStores';
import { versionOfUri, versionUri, type VersionRef } from '../../ui/versionDocuments';
import { versionDiffTitle } from './historyFormat';

/** Opens the diff editor: that version on the left, the file as it is now on the right. */
export async function openVersionDiff(ref: VersionRef): Promise<void> {
  await vscode.commands.executeCommand('vscode.diff', versionUri(ref.store, ref.version, ref.rel), ref.store.fs.uriOf(ref.rel), versionDiffTitle(ref.rel, ref.version), {
    preview: true,
  });
}

/**
 * Follows the editor tabs: when the active tab is a diff whose left side is one of our versions,
 * sets the context key that shows "Restore This Version" in the editor's title bar.
 */
export class VersionDiffTracker implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];
  private active: boolean | undefined;

  constructor(
    private readonly stores: MemoryStores,
    private readonly contextKey: string,
  ) {
    this.subscriptions = [vscode.window.tabGroups.onDidChangeTabs(() => this.update()), vscode.window.tabGroups.onDidChangeTabGroups(() => this.update())];
    this.update();
  }

  /** The version shown in the active diff tab, if it is one of ours. */
  activeVersion(): VersionRef | undefined {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    return input instanceof vscode.TabInputTextDiff ? versionOfUri(this.stores, input.original) : undefined;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }

  private update(): void {
    const active = this.activeVersion() !== undefined;
    if (active === this.active) return;
    this.active = active;
    void vscode.commands.executeCommand('setContext', this.contextKey, active);
  }
}
