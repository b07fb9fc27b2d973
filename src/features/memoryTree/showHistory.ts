import * as vscode from 'vscode';
import { displayOf } from '../../core/memory/paths';
import type { HistoryEntry } from '../../core/memory/history/types';
import { storeRelative, type MemoryStore } from '../../platform/memoryStores';
import { versionRow } from './historyFormat';
import { versionOfUri, type VersionRef } from '../../ui/versionDocuments';
import { openVersionDiff } from './versionDocuments';
import { restoreVersion } from './restoreVersion';
import { reportFailure, targetNode, type TreeCommandContext } from './treeCommandContext';

interface VersionPick extends vscode.QuickPickItem {
  readonly entry: HistoryEntry;
}

const RESTORE_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('discard'), tooltip: 'Restore This Version' };

/**
 * Show History: the file's versions, newest first; choosing one opens the diff editor (that
 * version ↔ the file now), the row's button restores it. With `version` (a number) the diff of
 * that version opens without asking. Resolves when the pick is closed and what was chosen is done.
 */
export async function showHistory(ctx: TreeCommandContext, arg?: unknown, version?: unknown): Promise<void> {
  const target = historyTarget(ctx, arg);
  if (!target) {
    void vscode.window.showInformationMessage('Open a memory file, or choose one in the Memory tree, to see its history.');
    return;
  }
  const { store, rel } = target;
  if (store.engine.options.history === false) {
    void vscode.window.showInformationMessage('History is off (the claudeMemory.history.enabled setting): no versions are kept.');
    return;
  }
  let entries: HistoryEntry[];
  try {
    entries = await store.engine.fileHistory(rel);
  } catch (e) {
    reportFailure(ctx, `Reading the history of ${displayOf(rel)}`, e);
    return;
  }
  if (typeof version === 'number') {
    if (!entries.some((e) => e.version === version)) {
      void vscode.window.showErrorMessage(`Version ${version} is not in the history of ${displayOf(rel)}.`);
      return;
    }
    return openVersionDiff({ store, version, rel });
  }
  if (entries.length === 0) {
    void vscode.window.showInformationMessage(`${displayOf(rel)} has no versions yet: history starts with the next change.`);
    return;
  }
  const chosen = await pickVersion(store, rel, entries);
  if (chosen?.action === 'open') await openVersionDiff(chosen.ref);
  else if (chosen?.action === 'restore') await restoreVersion(ctx, chosen.ref);
}

async function pickVersion(store: MemoryStore, rel: string, entries: HistoryEntry[]): Promise<{ action: 'open' | 'restore'; ref: VersionRef } | undefined> {
  const now = Date.now();
  const newestFirst = [...entries].reverse();
  const pick = vscode.window.createQuickPick<VersionPick>();
  pick.title = `History of ${displayOf(rel)}${vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders.length > 1 ? ` in ${store.folder.name}` : ''}`;
  pick.placeholder = 'Choose a version to compare with the file as it is now';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.items = newestFirst.map((entry, i) => {
    const row = versionRow(entry, now, i === 0 && entry.op !== 'delete');
    // A delete's version holds what the file had, so it can be compared and restored like any.
    return { ...row, entry, buttons: [RESTORE_BUTTON] };
  });
  return new Promise((resolve) => {
    let result: { action: 'open' | 'restore'; ref: VersionRef } | undefined;
    const ref = (item: VersionPick): VersionRef => ({ store, version: item.entry.version, rel });
    const subscriptions = [
      pick.onDidAccept(() => {
        const item = pick.selectedItems[0] ?? pick.activeItems[0];
        if (item) result = { action: 'open', ref: ref(item) };
        pick.hide();
      }),
      pick.onDidTriggerItemButton((e) => {
        result = { action: 'restore', ref: ref(e.item) };
        pick.hide();
      }),
      pick.onDidHide(() => {
        for (const s of subscriptions) s.dispose();
        pick.dispose();
        resolve(result);
      }),
    ];
    pick.show();
  });
}

/**
 * The file Show History is about: the tree's node, a file Uri (Explorer, editor title), the
 * active editor's memory file (the palette), a version document's file, or the tree's selection.
 */
function historyTarget(ctx: TreeCommandContext, arg: unknown): { store: MemoryStore; rel: string } | undefined {
  const stores = ctx.services.stores;
  const fromUri = (uri: vscode.Uri | undefined) => {
    if (!uri) return undefined;
    const version = versionOfUri(stores, uri);
    if (version) return { store: version.store, rel: version.rel };
    const store = stores.forUri(uri);
    const memoryPath = store?.memoryPathOf(uri);
    const rel = memoryPath === undefined ? undefined : storeRelative(memoryPath);
    return store && rel ? { store, rel } : undefined;
  };
  if (arg instanceof vscode.Uri) return fromUri(arg);
  const node = arg === undefined ? undefined : targetNode(ctx, arg);
  if (node?.kind === 'file') return { store: node.store, rel: node.rel };
  const active = fromUri(vscode.window.activeTextEditor?.document.uri);
  if (active) return active;
  const selected = targetNode(ctx, undefined);
  return selected?.kind === 'file' ? { store: selected.store, rel: selected.rel } : undefined;
}
