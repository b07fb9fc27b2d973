import * as vscode from 'vscode';
import { displayOf } from '../../core/memory/paths';
import { nameOf } from './memoryTreeNodes';
import { reportFailure, targetNode, type TreeCommandContext } from './treeCommandContext';

/** Deletes after a modal confirmation; folders with everything in them. Resolves to true when deleted. */
export async function deleteEntry(ctx: TreeCommandContext, arg: unknown): Promise<boolean> {
  const node = targetNode(ctx, arg);
  if (!node) return false;
  if (node.kind === 'root') {
    void vscode.window.showInformationMessage('The memory folder itself cannot be deleted from the tree; delete its files instead.');
    return false;
  }
  if (!ctx.services.trust.requireTrust('Deleting memory files')) return false;
  const folder = node.kind === 'folder';
  const confirmed = await ctx.prompts.confirm(
    `Delete ${folder ? 'folder' : 'file'} '${nameOf(node)}'${folder ? ' and everything in it' : ''}?`,
    `${displayOf(node.rel)} in ${node.store.folder.name}. ${deleteDetail(ctx.services.settings.get('historyEnabled'), folder)}`,
    'Delete',
  );
  if (!confirmed) return false;
  try {
    await node.store.engine.delete(node.rel);
  } catch (e) {
    reportFailure(ctx, `Deleting ${displayOf(node.rel)}`, e);
    return false;
  }
  ctx.services.logger('tree').info(`user deleted ${displayOf(node.rel)} in ${node.store.folder.name}`);
  ctx.tree.provider.refresh();
  return true;
}

/**
 * What Delete's dialog says about getting the file back: with history on, Recently Deleted (at
 * the end of the store in the Memory tree) restores it, so "cannot be undone" would be untrue.
 */
export function deleteDetail(historyEnabled: boolean, folder: boolean): string {
  if (!historyEnabled) return 'Memory history is off, so this cannot be undone.';
  return folder
    ? 'Its files can be restored from Recently Deleted in the Memory view (while history keeps them).'
    : 'It can be restored from Recently Deleted in the Memory view (while history keeps it).';
}
