import * as vscode from 'vscode';
import { COMMANDS } from '../../platform/ids';
import type { ExtensionServices } from '../../platform/services';
import type { MemoryTree } from './registerMemoryTree';
import { deleteEntry } from './deleteEntry';
import { copyMemoryPath, openFile, revealInExplorer } from './entryActions';
import { newEntry } from './newEntry';
import type { UserPrompts } from '../../ui/prompts';
import { renameEntry } from './renameEntry';
import { restoreDeleted, restoreVersion } from './restoreVersion';
import { showHistory } from './showHistory';
import type { TreeCommandContext } from './treeCommandContext';

/** Registers the Memory view's commands (files, folders, history, restore). Every id comes from platform/ids.ts. */
export function registerTreeCommands(context: vscode.ExtensionContext, services: ExtensionServices, tree: MemoryTree, prompts: UserPrompts): void {
  const ctx: TreeCommandContext = { services, tree, prompts };
  const register = (id: string, handler: (...args: unknown[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, handler));
  register(COMMANDS.refreshTree, () => tree.provider.refresh());
  register(COMMANDS.newFile, (arg) => newEntry(ctx, 'file', arg));
  register(COMMANDS.newFolder, (arg) => newEntry(ctx, 'folder', arg));
  register(COMMANDS.rename, (arg) => renameEntry(ctx, arg));
  register(COMMANDS.delete, (arg) => deleteEntry(ctx, arg));
  register(COMMANDS.revealInExplorer, (arg) => revealInExplorer(ctx, arg));
  register(COMMANDS.copyMemoryPath, (arg) => copyMemoryPath(ctx, arg));
  register(COMMANDS.openFile, (arg) => openFile(ctx, arg));
  register(COMMANDS.showHistory, (arg, version) => showHistory(ctx, arg, version));
  register(COMMANDS.restoreVersion, (arg) => restoreVersion(ctx, arg));
  register(COMMANDS.restoreDeleted, (arg) => restoreDeleted(ctx, arg));
}
