/**
 * The chat's commands, registered by the chat feature's index:
 * Ask Claude…, New Chat, Chat History, Stop, Open Chat, Choose Chat Folder…, Add File to Chat, Ask About Selection.
 */
import { COMMANDS } from '../../platform/ids';
import * as vscode from 'vscode';
import type { ChatFeature } from './registerChat';
import { registerAskCommand } from './ask';
import { registerAskAboutSelectionCommand, registerChatAddFileCommand } from './chatAddFile';
import { registerChatChooseFolderCommand } from './chatChooseFolder';
import { registerChatHistoryCommand } from './chatHistory';
import { registerChatNewCommand } from './chatNew';
import { registerOpenChatCommand } from './chatOpen';
import { registerChatStopCommand } from './chatStop';
import type { UserPrompts } from '../../ui/prompts';

export function registerChatCommands(context: vscode.ExtensionContext, chat: ChatFeature, prompts: UserPrompts): void {
  context.subscriptions.push(
    registerAskCommand(chat),
    registerChatNewCommand(chat),
    registerChatHistoryCommand(chat),
    registerChatStopCommand(chat),
    registerOpenChatCommand(chat),
    registerChatChooseFolderCommand(chat, prompts),
    registerChatAddFileCommand(chat),
    registerAskAboutSelectionCommand(chat),
    vscode.commands.registerCommand(COMMANDS.chatOpenInEditor, () => chat.openInEditor()),
  );
}
