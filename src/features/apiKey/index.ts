/** The API key (Set / Clear, kept in SecretStorage) and the extension's log. */
import * as vscode from 'vscode';
import { COMMANDS } from '../../platform/ids';
import type { ExtensionServices } from '../../platform/services';
import type { UserPrompts } from '../../ui/prompts';
import { clearApiKey, setApiKey } from './apiKey';

export function register(context: vscode.ExtensionContext, services: ExtensionServices, prompts: UserPrompts): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.setApiKey, () => setApiKey(services, prompts)),
    vscode.commands.registerCommand(COMMANDS.clearApiKey, () => clearApiKey(services)),
    vscode.commands.registerCommand(COMMANDS.showLog, () => services.log.show(true)),
  );
}
