/** Memory Changes: every store's recent versions, newest first, with diff, Undo and a review badge. */
import type * as vscode from 'vscode';
import type { ExtensionServices } from '../../platform/services';
import type { UserPrompts } from '../../ui/prompts';
import { registerChangeFeedCommands } from './changeFeedCommands';
import { registerChangeFeed, type ChangeFeed } from './registerChangeFeed';

export type { ChangeFeed } from './registerChangeFeed';

export function register(context: vscode.ExtensionContext, services: ExtensionServices, prompts: UserPrompts): ChangeFeed {
  const feed = registerChangeFeed(context, services);
  registerChangeFeedCommands(context, feed, prompts);
  return feed;
}
