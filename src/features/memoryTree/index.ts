/**
 * The Memory view: the stores' files, each file's versions and Recently Deleted, and their commands
 * (new, rename, delete, reveal, Show History, Restore). What other features may use is exported here.
 */
import type * as vscode from 'vscode';
import type { ExtensionServices } from '../../platform/services';
import type { UserPrompts } from '../../ui/prompts';
import { registerMemoryTree, type MemoryTree } from './registerMemoryTree';
import { registerTreeCommands } from './treeCommands';

export type { MemoryTree } from './registerMemoryTree';
export type { MemoryNode } from './memoryTreeNodes';
export type { MemoryTreeProvider, TreeItemAnnotator } from './memoryTreeProvider';
export { reportFailure, targetNode, type TreeCommandContext } from './treeCommandContext';

export function register(context: vscode.ExtensionContext, services: ExtensionServices, prompts: UserPrompts): MemoryTree {
  const tree = registerMemoryTree(context, services);
  registerTreeCommands(context, services, tree, prompts);
  return tree;
}
