/**
 * "Claude Memory: Chat History": the workspace's chats in a quick pick (title, how long ago, and
 * the folder in a multi-root workspace). Enter reopens one in place of the current conversation (which stays in the list);
 * the trash button on a row deletes that chat.
 */
import * as vscode from 'vscode';
import type { ChatSummary } from '../../core/session/chatArchive';
import { COMMANDS } from '../../platform/ids';
import { formatAge } from '../../ui/treeFormat';
import type { ChatFeature } from './registerChat';

interface ChatPick extends vscode.QuickPickItem {
  readonly chat: ChatSummary;
}

const DELETE_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete Chat' };

export function registerChatHistoryCommand(chat: ChatFeature): vscode.Disposable {
  return vscode.commands.registerCommand(COMMANDS.chatHistory, () => showChatHistory(chat));
}

async function showChatHistory(chat: ChatFeature): Promise<void> {
  const controller = chat.controller;
  const pick = vscode.window.createQuickPick<ChatPick>();
  pick.title = 'Chat History';
  pick.placeholder = 'Reopen a chat (the trash button deletes it)';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  const fill = async (): Promise<void> => {
    const chats = await controller.listChats();
    const now = Date.now();
    const current = controller.chatId;
    // The folder only tells chats apart when the workspace has several.
    const folders = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    pick.items = chats.map((c) => ({
      chat: c,
      label: c.title,
      description: [formatAge(c.updated, now), c.id === current ? 'current' : undefined].filter(Boolean).join(' · '),
      detail: folders ? c.folderName || undefined : undefined,
      iconPath: new vscode.ThemeIcon(c.id === current ? 'comment-discussion' : 'comment'),
      buttons: [DELETE_BUTTON],
    }));
    if (chats.length === 0) pick.placeholder = 'No chats yet in this workspace';
  };
  const done = new Promise<void>((resolve) => {
    pick.onDidTriggerItemButton(async (event) => {
      if (!(await controller.deleteChat(event.item.chat.id))) {
        void vscode.window.showInformationMessage('That chat cannot be deleted while Claude is answering in it.');
      }
      await fill();
    });
    pick.onDidAccept(async () => {
      const chosen = pick.selectedItems[0];
      pick.hide();
      if (!chosen) return;
      await chat.reveal();
      if (!(await controller.openChat(chosen.chat.id))) {
        void vscode.window.showInformationMessage(
          controller.isRunning ? 'Claude is still answering: stop the answer or wait for it, then reopen the chat.' : 'That chat is no longer kept.',
        );
      }
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve();
    });
  });
  pick.busy = true;
  pick.show();
  await fill();
  pick.busy = false;
  await done;
}
