/** "Claude Memory: New Chat": stops any answer and forgets the conversation (memory files stay). */
import * as vscode from 'vscode';
import { COMMANDS } from '../../platform/ids';
import type { ChatFeature } from './registerChat';

export function registerChatNewCommand(chat: ChatFeature): vscode.Disposable {
  return vscode.commands.registerCommand(COMMANDS.chatNew, () => chat.controller.newChat());
}
