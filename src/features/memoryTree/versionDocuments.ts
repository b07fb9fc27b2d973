import * as vscode from 'vscode';
import { URI_SCHEMES } from '../../platform/ids';
import type { MemoryStore, MemoryStores } from '../../platform/memoryStores';
import { parseVersionDocumentPath, versionDiffTitle, versionDocumentPath } from './historyFormat';

export const VERSION_SCHEME = URI_SCHEMES.version;

/** A version of a memory file, as a read-only document's Uri names it. */
export interface VersionRef {
  readonly store: MemoryStore;
  readonly version: number;
  /** Store-relative path of the file the version belongs to (where a restore writes). */
  readonly rel: string;
}

/** The read-only document of `version` of the file at `rel` in `store`. */
export function versionUri(store: MemoryStore, version: number, rel: string): vscode.Uri {
  return vscode.Uri.from({ scheme: VERSION_SCHEME, path: versionDocumentPath(store.folder.index, version, rel) });
}

/** The version a document of our scheme shows, or undefined for any other Uri. */
export function versionOfUri(stores: MemoryStores, uri: vscode.Uri): VersionRef | undefined {
  if (uri.scheme !== VERSION_SCHEME) return undefined;
  const parsed = parseVersionDocumentPath(uri.path);
  const folder = parsed && vscode.workspace.workspaceFolders?.[parsed.folderIndex];
  const store = folder && stores.forFolder(folder);
  return parsed && store ? { store, version: parsed.version, rel: parsed.rel } : undefined;
}

/**
 * Serves the content of earlier versions from the store's history. The documents are read-only
 * (a content provider's always are): a version is changed only by restoring it.
 */
export class VersionDocumentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly stores: MemoryStores) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ref = versionOfUri(this.stores, uri);
    if (!ref) return '(This version belongs to a workspace folder that is no longer open.)';
    const bytes = await ref.store.engine.versionContent(ref.version);
    if (bytes === undefined) return `(Version ${ref.version} is no longer in the history: retention has dropped it.)`;
    return new TextDecoder().decode(bytes);
  }
}

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
