/**
 * "Claude Memory: Choose Chat Folder…": in a multi-root workspace, which folder's memory the chat
 * works in. Switching makes the next message start a new session (the controller says so in the
 * transcript), because the conversation so far was about the other folder's files.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../../platform/ids';
import type { UserPrompts } from '../../ui/prompts';
import type { ChatFeature } from './registerChat';

export function registerChatChooseFolderCommand(chat: ChatFeature, prompts: UserPrompts): vscode.Disposable {
  return vscode.commands.registerCommand(COMMANDS.chatChooseFolder, () => chooseChatFolder(chat, prompts));
}

/** Resolves to the folder the chat works in afterwards, or undefined when nothing was chosen. */
async function chooseChatFolder(chat: ChatFeature, prompts: UserPrompts): Promise<vscode.Uri | undefined> {
  const current = chat.controller.currentStore();
  const placeHolder = current ? `The chat uses the memory of "${current.folder.name}"; choose a folder` : 'Choose the folder whose memory the chat uses';
  const folder = await prompts.pickWorkspaceFolder(placeHolder);
  if (!folder) return undefined;
  const result = chat.controller.useFolder(folder.uri);
  if (!result.ok) {
    void vscode.window.showWarningMessage(result.reason);
    return undefined;
  }
  await chat.reveal();
  return chat.controller.currentStore()?.folder.uri;
}
