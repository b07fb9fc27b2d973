/** "Claude Memory: Open Chat": shows the chat view with the keyboard in its input. */
import * as vscode from 'vscode';
import type { ChatFeature } from '../webviews/registerChat';

export function registerOpenChatCommand(chat: ChatFeature): vscode.Disposable {
  return vscode.commands.registerCommand('claudeMemory.openChat', () => chat.reveal(true));
}
