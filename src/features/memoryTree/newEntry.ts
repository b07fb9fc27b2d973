import * as vscode from 'vscode';
import { displayOf, parentOf } from '../../core/memory/paths';
import type { MemoryStore } from '../../platform/memoryStores';
import { entryRel, invalidEntryNameReason } from './memoryNames';
import { reportFailure, targetNode, type TreeCommandContext } from './treeCommandContext';

export type NewEntryKind = 'file' | 'folder';

/**
 * New file / New folder in the Memory tree: through the engine's hand-edit writer (its queue and
 * store lock, never replacing anything; the agent's write guards do not apply to the user), with
 * names the agent can later use too.
 * Resolves to the new entry's Uri, or undefined when nothing was created.
 */
export async function newEntry(ctx: TreeCommandContext, kind: NewEntryKind, arg: unknown): Promise<vscode.Uri | undefined> {
  if (!ctx.services.trust.requireTrust(kind === 'file' ? 'Creating memory files' : 'Creating memory folders')) return undefined;
  const target = await targetFolder(ctx, arg);
  if (!target) return undefined;
  const { store, parentRel } = target;
  const name = await ctx.prompts.inputBox({
    title: kind === 'file' ? 'New Memory File' : 'New Memory Folder',
    prompt: `In ${displayOf(parentRel)} (${store.folder.name}). Use / to create subfolders.`,
    placeHolder: kind === 'file' ? 'notes.md' : 'project',
    validateInput: (value) => validateNew(store, parentRel, value),
  });
  if (name === undefined) return undefined;
  // Checked again: the input box's validation is advisory and the disk may have changed since.
  const problem = await validateNew(store, parentRel, name);
  if (problem) {
    void vscode.window.showErrorMessage(problem);
    return undefined;
  }
  const rel = entryRel(parentRel, name);
  try {
    if (kind === 'folder') {
      await store.engine.createFolder(rel);
    } else if (!(await store.engine.createFile(rel, new Uint8Array()))) {
      void vscode.window.showErrorMessage(`${displayOf(rel)} already exists.`);
      return undefined;
    }
  } catch (e) {
    reportFailure(ctx, `Creating ${displayOf(rel)}`, e);
    return undefined;
  }
  ctx.services.logger('tree').info(`user created ${kind} ${displayOf(rel)} in ${store.folder.name}`);
  const uri = store.fs.uriOf(rel);
  ctx.tree.provider.refresh();
  if (kind === 'file') await vscode.window.showTextDocument(uri, { preview: false });
  // Shown and selected in the tree, so the user sees where it went (the editor keeps the focus).
  if (!(await ctx.tree.revealer.revealCreated(store, displayOf(rel)))) ctx.services.logger('tree').debug(`could not reveal ${displayOf(rel)}`);
  return uri;
}

async function validateNew(store: MemoryStore, parentRel: string, value: string): Promise<string | undefined> {
  const reason = invalidEntryNameReason(value, parentRel, true);
  if (reason) return reason;
  return (await exists(store, entryRel(parentRel, value))) ? `${displayOf(entryRel(parentRel, value))} already exists.` : undefined;
}

export async function exists(store: MemoryStore, rel: string): Promise<boolean> {
  try {
    await store.fs.stat(rel);
    return true;
  } catch {
    return false;
  }
}

/** Where to create: the clicked folder or root, a clicked file's folder, else a store's root. */
async function targetFolder(ctx: TreeCommandContext, arg: unknown): Promise<{ store: MemoryStore; parentRel: string } | undefined> {
  const node = targetNode(ctx, arg);
  if (node) return { store: node.store, parentRel: node.kind === 'file' ? parentOf(node.rel) : node.rel };
  const stores = ctx.services.stores.all();
  if (stores.length <= 1) {
    if (stores[0]) return { store: stores[0], parentRel: '' };
    void vscode.window.showInformationMessage('Open a folder first: memory files live in the workspace.');
    return undefined;
  }
  const folder = await ctx.prompts.pickWorkspaceFolder('Workspace folder whose memory gets the new entry');
  const store = folder && ctx.services.stores.forFolder(folder);
  return store ? { store, parentRel: '' } : undefined;
}
