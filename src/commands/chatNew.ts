/** "Claude Memory: New Chat": stops any answer and forgets the conversation (memory files stay). */
import * as vscode from 'vscode';
import type { ChatFeature } from '../webviews/registerChat';

export function registerChatNewCommand(chat: ChatFeature): vscode.Disposable {
  return vscode.commands.registerCommand('claudeMemory.chat.new', () => chat.controller.newChat());
}
