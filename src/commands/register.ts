import * as vscode from 'vscode';
import type { ExtensionServices } from '../platform/services';
import type { MemoryTree } from '../views/registerMemoryTree';
import { clearApiKey, setApiKey } from './apiKey';
import { deleteEntry } from './deleteEntry';
import { copyMemoryPath, openFile, revealInExplorer } from './entryActions';
import { newEntry } from './newEntry';
import type { UserPrompts } from './prompts';
import { renameEntry } from './renameEntry';
import type { TreeCommandContext } from './treeCommandContext';

/**
 * Command ids this module registers. The chat (ask, chat.*, openChat) and the multi-session
 * feature (initialize, resume) register their own.
 */
export const COMMANDS = {
  setApiKey: 'claudeMemory.setApiKey',
  clearApiKey: 'claudeMemory.clearApiKey',
  showLog: 'claudeMemory.showLog',
  refreshTree: 'claudeMemory.refreshTree',
  newFile: 'claudeMemory.newFile',
  newFolder: 'claudeMemory.newFolder',
  rename: 'claudeMemory.rename',
  delete: 'claudeMemory.delete',
  revealInExplorer: 'claudeMemory.revealInExplorer',
  copyMemoryPath: 'claudeMemory.copyMemoryPath',
  openFile: 'claudeMemory.openFile',
} as const;

export function registerCommands(context: vscode.ExtensionContext, services: ExtensionServices, tree: MemoryTree, prompts: UserPrompts): void {
  const ctx: TreeCommandContext = { services, tree, prompts };
  const register = (id: string, handler: (...args: unknown[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, handler));
  register(COMMANDS.setApiKey, () => setApiKey(services, prompts));
  register(COMMANDS.clearApiKey, () => clearApiKey(services));
  register(COMMANDS.showLog, () => services.log.show(true));
  register(COMMANDS.refreshTree, () => tree.provider.refresh());
  register(COMMANDS.newFile, (arg) => newEntry(ctx, 'file', arg));
  register(COMMANDS.newFolder, (arg) => newEntry(ctx, 'folder', arg));
  register(COMMANDS.rename, (arg) => renameEntry(ctx, arg));
  register(COMMANDS.delete, (arg) => deleteEntry(ctx, arg));
  register(COMMANDS.revealInExplorer, (arg) => revealInExplorer(ctx, arg));
  register(COMMANDS.copyMemoryPath, (arg) => copyMemoryPath(ctx, arg));
  register(COMMANDS.openFile, (arg) => openFile(ctx, arg));
}
