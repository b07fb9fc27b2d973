import * as vscode from 'vscode';
import { displayOf, parentOf } from '../../core/memory/paths';
import { nameOf } from './memoryTreeNodes';
import { entryRel, invalidEntryNameReason } from './memoryNames';
import { exists } from './newEntry';
import { reportFailure, targetNode, type TreeCommandContext } from './treeCommandContext';

/** Rename in place (same folder); never replaces an existing entry. Resolves to the new Uri. */
export async function renameEntry(ctx: TreeCommandContext, arg: unknown): Promise<vscode.Uri | undefined> {
  const node = targetNode(ctx, arg);
  if (!node) return undefined;
  if (node.kind === 'root') {
    void vscode.window.showInformationMessage('The memory folder itself is renamed with the claudeMemory.memoryFolder setting.');
    return undefined;
  }
  if (!ctx.services.trust.requireTrust('Renaming memory files')) return undefined;
  const { store } = node;
  const parentRel = parentOf(node.rel);
  const oldName = nameOf(node);
  const validate = async (value: string): Promise<string | undefined> => {
    const reason = invalidEntryNameReason(value, parentRel, false);
    if (reason) return reason;
    if (value.trim() === oldName) return undefined;
    // A case-only rename is the same entry on case-insensitive disks: let the file system decide.
    const target = entryRel(parentRel, value);
    if (target.toLowerCase() !== node.rel.toLowerCase() && (await exists(store, target))) return `${displayOf(target)} already exists.`;
    return undefined;
  };
  const dot = oldName.lastIndexOf('.');
  const name = await ctx.prompts.inputBox({
    title: `Rename ${displayOf(node.rel)}`,
    value: oldName,
    valueSelection: [0, dot > 0 ? dot : oldName.length],
    validateInput: validate,
  });
  if (name === undefined || name.trim() === oldName) return undefined;
  const problem = await validate(name);
  if (problem) {
    void vscode.window.showErrorMessage(problem);
    return undefined;
  }
  const target = entryRel(parentRel, name);
  try {
    await store.engine.rename(node.rel, target);
  } catch (e) {
    reportFailure(ctx, `Renaming ${displayOf(node.rel)}`, e);
    return undefined;
  }
  ctx.services.logger('tree').info(`user renamed ${displayOf(node.rel)} to ${displayOf(target)} in ${store.folder.name}`);
  ctx.tree.provider.refresh();
  return store.fs.uriOf(target);
}
