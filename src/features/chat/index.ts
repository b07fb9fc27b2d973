/**
 * The chat: the side-bar view and editor panels, their commands (Ask Claude…, New Chat, Chat
 * History, Stop, Add File, command rules) and what Initialize / Resume send through it.
 */
import type * as vscode from 'vscode';
import type { ExtensionServices } from '../../platform/services';
import type { UserPrompts } from '../../ui/prompts';
import { registerChatCommands } from './chatCommands';
import { registerManageCommandRules } from './manageCommandRules';
import { registerChat, type ChatApi, type ChatFeature } from './registerChat';
import type { MemoryReviews } from './changeSummaryUi';

export type { ChatApi } from './registerChat';
export type { ChatSendResult } from './chatController';
export type { AskArgs } from './ask';
export type { FollowUpAction } from './shared/protocol';

/** `reviews`: Memory Changes' review marks, which the change summary's Keep and Undo of a memory file set. */
export function register(context: vscode.ExtensionContext, services: ExtensionServices, prompts: UserPrompts, reviews?: MemoryReviews): { api: ChatApi; feature: ChatFeature } {
  const chat = registerChat(context, services, prompts, reviews);
  registerChatCommands(context, chat.feature, prompts);
  registerManageCommandRules(context, chat.feature.controller.sandboxGrant);
  return chat;
}
