/** "Claude Memory: Stop": cancels the running answer at once; memory changes made so far stay. */
import * as vscode from 'vscode';
import { COMMANDS } from '../../platform/ids';
import type { ChatFeature } from './registerChat';

export function registerChatStopCommand(chat: ChatFeature): vscode.Disposable {
  return vscode.commands.registerCommand(COMMANDS.chatStop, () => chat.controller.stop());
}
