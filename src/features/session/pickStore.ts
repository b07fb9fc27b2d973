import * as vscode from 'vscode';
import type { MemoryStore } from '../../platform/memoryStores';
import type { ExtensionServices } from '../../platform/services';

/**
 * The store a command acts on: the one named by `folder`, the only one, or the user's pick in a
 * multi-root workspace. Undefined (after saying why) when there is none or the pick was dismissed.
 */
export async function pickStore(services: ExtensionServices, folder: vscode.Uri | undefined, placeHolder: string): Promise<MemoryStore | undefined> {
  if (folder) {
    const store = services.stores.forFolder(folder);
    if (!store) void vscode.window.showErrorMessage(`${folder.toString(true)} is not a folder of this workspace.`);
    return store;
  }
  const stores = services.stores.all();
  if (stores.length === 0) {
    void vscode.window.showErrorMessage('Claude Memory needs a workspace folder: open a folder first.');
    return undefined;
  }
  if (stores.length === 1) return stores[0];
  const picked = await vscode.window.showQuickPick(
    stores.map((store) => ({ label: store.folder.name, description: store.folder.uri.fsPath || store.folder.uri.toString(true), store })),
    { placeHolder, ignoreFocusOut: true },
  );
  return picked?.store;
}
