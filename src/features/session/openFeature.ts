/**
 * A click on a feature (or the summary row) in the Features view: opens features.json at that
 * feature. When the file (or the whole memory folder) is gone, says so in a sentence and offers
 * to initialize, instead of letting the editor fail with the file's raw Uri.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../../platform/ids';
import type { ExtensionServices } from '../../platform/services';
import { openSessionFile, readSessionFile } from '../../platform/sessionFiles';
import { SESSION_FILES } from '../../core/session/memoryFiles';
import { rangeOfFeature } from '../../core/session/featureRange';

const INITIALIZE = 'Initialize Project Memory';

/** Resolves to true when features.json was opened. */
export async function openFeature(services: ExtensionServices, folder: unknown, id: unknown): Promise<boolean> {
  const store = folder instanceof vscode.Uri ? services.stores.forFolder(folder) : undefined;
  if (!store) {
    void vscode.window.showWarningMessage('That feature belongs to a folder that is no longer part of this workspace.');
    return false;
  }
  let text: string | undefined;
  try {
    text = await readSessionFile(store, 'features');
  } catch {
    void vscode.window.showErrorMessage(`${SESSION_FILES.features} in the memory of "${store.folder.name}" cannot be read.`);
    return false;
  }
  if (text === undefined) {
    // Not awaited: the command is over whether or not the user answers.
    const choice = vscode.window.showWarningMessage(
      `${SESSION_FILES.features} no longer exists in the memory of "${store.folder.name}" (it was deleted or moved). Initialize project memory to start a new checklist.`,
      INITIALIZE,
    );
    void Promise.resolve(choice).then((picked) => picked === INITIALIZE && vscode.commands.executeCommand(COMMANDS.initialize, { folder: store.folder.uri }));
    return false;
  }
  const range = typeof id === 'string' ? rangeOfFeature(text, id) : undefined;
  await openSessionFile(store, 'features', range && new vscode.Range(range.line, range.column, range.line, range.column + range.length));
  return true;
}
