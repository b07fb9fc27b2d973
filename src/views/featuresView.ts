/**
 * Wires the Features tree into VS Code: the TreeView with its progress (description, badge),
 * ticking a checkbox (a hand edit of features.json: never guarded, layout kept), opening a
 * feature in features.json, and refreshing when any features.json changes.
 */
import * as vscode from 'vscode';
import { userFacingReason } from '../core/memory/errors';
import { withFeaturePasses } from '../core/session/features';
import { memoryPathOf, SESSION_FILES } from '../core/session/memoryFiles';
import { openSessionFile, readSessionFile } from '../commands/session/storeFiles';
import type { MemoryStore } from '../platform/memoryStores';
import type { ExtensionServices } from '../platform/services';
import { FeaturesTreeProvider, OPEN_FEATURE_COMMAND, passingLabel, type FeatureNode, type FolderChecklist } from './featuresTreeProvider';

export const FEATURES_VIEW_ID = 'claudeMemory.features';

/** For the extension's test API: the view, its data, and what a checkbox tick does. */
export interface FeaturesViewApi {
  readonly view: vscode.TreeView<FeatureNode>;
  readonly provider: FeaturesTreeProvider;
  setPasses(items: ReadonlyArray<[FeatureNode, vscode.TreeItemCheckboxState]>): Promise<void>;
}

export function registerFeaturesView(services: ExtensionServices): { disposable: vscode.Disposable; api: FeaturesViewApi } {
  const provider = new FeaturesTreeProvider(() => services.stores.all());
  const view = vscode.window.createTreeView(FEATURES_VIEW_ID, { treeDataProvider: provider, manageCheckboxStateManually: true, showCollapseAll: true });
  const watchers = new FeatureFileWatchers(services, () => void provider.refresh());
  const log = services.logger('features');
  const tick = (items: ReadonlyArray<[FeatureNode, vscode.TreeItemCheckboxState]>) => setPasses(services, provider, items);

  // The view's header line and badge follow every refresh.
  const updateProgress = async () => showProgress(view, await provider.load());
  const subscriptions: vscode.Disposable[] = [
    provider,
    view,
    watchers,
    provider.onDidChangeTreeData(() => void updateProgress()),
    view.onDidChangeCheckboxState((e) => void tick(e.items).catch((err) => log.error(err))),
    vscode.commands.registerCommand(OPEN_FEATURE_COMMAND, (folder: vscode.Uri, id?: string) => openFeature(services, folder, id)),
    services.stores.onDidChange(() => {
      watchers.rebuild();
      void provider.refresh();
    }),
    services.memoryActivity.onDidTouch((touch) => {
      if (touch.kind !== 'read' && [touch.path, touch.newPath].includes(memoryPathOf('features'))) void provider.refresh();
    }),
  ];
  void updateProgress();
  return { disposable: vscode.Disposable.from(...subscriptions), api: { view, provider, setPasses: tick } };
}

function showProgress(view: vscode.TreeView<FeatureNode>, lists: FolderChecklist[]): void {
  const ok = lists.filter((l): l is FolderChecklist & { state: 'ok' } => l.state === 'ok');
  const passing = ok.reduce((n, l) => n + l.summary.passing, 0);
  const total = ok.reduce((n, l) => n + l.summary.total, 0);
  view.description = ok.length ? passingLabel({ passing, total, nextFailing: undefined }) : undefined;
  view.badge = total > passing ? { value: total - passing, tooltip: `${total - passing} of ${total} features not passing yet` } : undefined;
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

async function openFeature(services: ExtensionServices, folder: vscode.Uri, id: string | undefined): Promise<void> {
  const store = services.stores.forFolder(folder);
  if (!store) return;
  const text = (await readSessionFile(store, 'features')) ?? '';
  await openSessionFile(store, 'features', id === undefined ? undefined : rangeOfFeature(text, id));
}

/** The line of `"id": "<id>"` in the file, so the editor lands on that feature. */
export function rangeOfFeature(text: string, id: string): vscode.Range | undefined {
  const pattern = new RegExp(`"id"\\s*:\\s*${JSON.stringify(id).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
  const match = pattern.exec(text);
  if (!match) return undefined;
  const line = text.slice(0, match.index).split('\n').length - 1;
  const column = match.index - (text.lastIndexOf('\n', match.index - 1) + 1);
  return new vscode.Range(line, column, line, column + match[0].length);
}

/** One watcher on `<memory folder>/features.json` per workspace folder, rebuilt with the stores. */
class FeatureFileWatchers implements vscode.Disposable {
  private watchers: vscode.FileSystemWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly services: ExtensionServices,
    private readonly onChange: () => void,
  ) {
    this.rebuild();
  }

  rebuild(): void {
    this.disposeWatchers();
    this.watchers = this.services.stores.all().map((store) => {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(store.rootUri, SESSION_FILES.features));
      for (const event of [watcher.onDidCreate, watcher.onDidChange, watcher.onDidDelete]) event(() => this.schedule());
      return watcher;
    });
  }

  /** A save can fire several events; one refresh is enough. */
  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(this.onChange, 50);
  }

  private disposeWatchers(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.disposeWatchers();
  }
}
