/** "Claude Memory: Open Chat": shows the chat view with the keyboard in its input. */
import * as vscode from 'vscode';
import { COMMANDS } from '../../platform/ids';
import type { ChatFeature } from './registerChat';

export function registerOpenChatCommand(chat: ChatFeature): vscode.Disposable {
  return vscode.commands.registerCommand(COMMANDS.openChat, () => chat.reveal(true));
}
