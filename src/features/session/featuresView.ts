/**
 * Wires the Features tree into VS Code: the TreeView with its progress (the header's "N / M
 * passing"), ticking a checkbox (a hand edit of features.json: never guarded, layout kept), and
 * refreshing when a features.json, or the memory folder holding it, changes. Opening a feature
 * is a command (commands/session/openFeature.ts).
 */
import * as vscode from 'vscode';
import { userFacingReason } from '../../core/memory/errors';
import { withFeaturePasses } from '../../core/session/features';
import { SESSION_FILES } from '../../core/session/memoryFiles';
import { CONTEXT_KEYS, VIEWS } from '../../platform/ids';
import type { MemoryStore } from '../../platform/memoryStores';
import type { ExtensionServices } from '../../platform/services';
import { mayHaveChanged } from '../../platform/storeChanges';
import { FeaturesTreeProvider, passingLabel, type FeatureNode, type FolderChecklist } from './featuresTreeProvider';

/** For the extension's test API: the view, its data, and what a checkbox tick does. */
export interface FeaturesViewApi {
  readonly view: vscode.TreeView<FeatureNode>;
  readonly provider: FeaturesTreeProvider;
  setPasses(items: ReadonlyArray<[FeatureNode, vscode.TreeItemCheckboxState]>): Promise<void>;
}

export function registerFeaturesView(services: ExtensionServices): { disposable: vscode.Disposable; api: FeaturesViewApi } {
  const provider = new FeaturesTreeProvider(() => services.stores.all());
  const view = vscode.window.createTreeView(VIEWS.features, { treeDataProvider: provider, manageCheckboxStateManually: true, showCollapseAll: true });
  const log = services.logger('features');
  const tick = (items: ReadonlyArray<[FeatureNode, vscode.TreeItemCheckboxState]>) => setPasses(services, provider, items);

  // The view's header line follows every refresh.
  const updateProgress = async () => showProgress(view, await provider.load());
  const subscriptions: vscode.Disposable[] = [
    provider,
    view,
    provider.onDidChangeTreeData(() => void updateProgress()),
    view.onDidChangeCheckboxState((e) => void tick(e.items).catch((err) => log.error(err))),
    // This window's writes may have changed the checklist; of other writers', only features.json
    // or the store folder itself going away (or coming back) matter.
    services.storeChanges.onDidChange((change) => {
      if (mayHaveChanged(change, (store) => [store.rootUri, store.fs.uriOf(SESSION_FILES.features)])) void provider.refresh();
    }),
  ];
  void updateProgress();
  return { disposable: vscode.Disposable.from(...subscriptions), api: { view, provider, setPasses: tick } };
}

/**
 * The count lives in the header only (the summary row shows what is next, not the count again).
 * No activity-bar badge: a standing number there reads like unread notifications, and failing
 * features are the normal state of a project, not something that needs attention now.
 */
function showProgress(view: vscode.TreeView<FeatureNode>, lists: FolderChecklist[]): void {
  const ok = lists.filter((l): l is FolderChecklist & { state: 'ok' } => l.state === 'ok');
  const passing = ok.reduce((n, l) => n + l.summary.passing, 0);
  const total = ok.reduce((n, l) => n + l.summary.total, 0);
  view.description = ok.length ? passingLabel({ passing, total, nextFailing: undefined }) : undefined;
  void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.canResume, canResume(lists));
}

/** Resume has something to do: a checklist with a feature that does not pass yet. */
export function canResume(lists: readonly FolderChecklist[]): boolean {
  return lists.some((l) => l.state === 'ok' && l.summary.nextFailing !== undefined);
}

/** Ticks and unticks by hand: the user is the authority over the checklist. */
async function setPasses(services: ExtensionServices, provider: FeaturesTreeProvider, items: ReadonlyArray<[FeatureNode, vscode.TreeItemCheckboxState]>): Promise<void> {
  // With manageCheckboxStateManually the checkbox has already flipped in the view: when the file
  // does not change (refused, failed), re-rendering the ticked items puts it back.
  const ticked = items.map(([node]) => node);
  if (!services.trust.requireTrust('Changing the feature checklist')) {
    await provider.refresh(ticked);
    return;
  }
  // Several ticks may arrive at once (and for several folders): one read-modify-write per file.
  const byStore = new Map<MemoryStore, Array<[string, boolean]>>();
  for (const [node, state] of items) {
    if (node.kind !== 'feature') continue;
    const list = byStore.get(node.store) ?? [];
    list.push([node.feature.id, state === vscode.TreeItemCheckboxState.Checked]);
    byStore.set(node.store, list);
  }
  try {
    for (const [store, changes] of byStore) {
      // Through the engine's writer: the same queue and store lock as Claude's edits (and other
      // windows' and the CLI's), read and written in one turn, atomically, so no tick and no agent
      // edit is ever lost between a read and a write.
      await store.engine.update(SESSION_FILES.features, (text) => {
        if (text === undefined) throw new Error('features.json no longer exists.');
        return changes.reduce((t, [id, passes]) => withFeaturePasses(t, id, passes), text);
      });
    }
  } catch (e) {
    void vscode.window.showErrorMessage(`The checklist was not changed: ${userFacingReason(e)}`);
  } finally {
    // The watcher would refresh too; doing it now keeps the header count in step with the tick.
    // (The watcher's later re-read finds nothing new and refreshes nothing: see FeaturesTreeProvider.)
    await provider.refresh(ticked);
  }
}
