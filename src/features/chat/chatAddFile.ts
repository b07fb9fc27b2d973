/**
 * "Add File to Chat" (Explorer and Memory tree context menus, editor title): puts the file as a
 * chip in the chat's input; its text goes with the next message.
 */
import { COMMANDS } from '../../platform/ids';
import * as vscode from 'vscode';
import type { ChatFeature } from './registerChat';

export function registerChatAddFileCommand(chat: ChatFeature): vscode.Disposable {
  return vscode.commands.registerCommand(COMMANDS.chatAddFile, async (target?: unknown, selected?: unknown) => {
    const uris = targetUris(target, selected);
    if (uris.length === 0) {
      void vscode.window.showInformationMessage('Choose a file in the Explorer or the Memory view, or open one in an editor, then Add File to Chat.');
      return;
    }
    for (const uri of uris) {
      const stat = await vscode.workspace.fs.stat(uri).then(undefined, () => undefined);
      if (stat && stat.type & vscode.FileType.File) chat.controller.attach(uri);
    }
    await chat.reveal(true);
  });
}

/**
 * The files a menu passed: the Explorer gives (clicked Uri, all selected Uris); the Memory tree
 * gives a node with a `uri`; the palette gives nothing (the active editor's file is used).
 */
function targetUris(target: unknown, selected: unknown): vscode.Uri[] {
  if (Array.isArray(selected) && selected.every((u) => u instanceof vscode.Uri) && selected.length > 0) return selected as vscode.Uri[];
  if (target instanceof vscode.Uri) return [target];
  if (typeof target === 'object' && target !== null && (target as { uri?: unknown }).uri instanceof vscode.Uri) {
    return [(target as { uri: vscode.Uri }).uri];
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  return active && active.scheme !== 'untitled' ? [active] : [];
}

/** "Claude Memory: Ask About Selection" (editor context menu): the selection as a chip, then the input. */
export function registerAskAboutSelectionCommand(chat: ChatFeature): vscode.Disposable {
  return vscode.commands.registerCommand(COMMANDS.askAboutSelection, async () => {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showInformationMessage('Select some code in an editor first.');
      return;
    }
    chat.controller.attach(editor.document.uri, editor.selection.isEmpty ? undefined : editor.selection);
    await chat.reveal(true);
  });
}
