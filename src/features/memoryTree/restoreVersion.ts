import * as vscode from 'vscode';
import { describeChange } from '../../core/memory/history/describe';
import { displayOf } from '../../core/memory/paths';
import type { MemoryNode } from './memoryTreeNodes';
import { formatAge } from '../../ui/treeFormat';
import { versionOfUri, type VersionRef } from '../../ui/versionDocuments';
import { reportFailure, type TreeCommandContext } from './treeCommandContext';

/**
 * Restore This Version: after a modal confirmation naming the file and the version, the file gets
 * that version's content back (recorded as a new `restore` version, so it can be undone in turn).
 * The version comes from Show History's row button, a version document's Uri, or the active
 * version diff tab (the editor title's action). Resolves to the version recorded.
 */
export async function restoreVersion(ctx: TreeCommandContext, arg?: unknown): Promise<number | undefined> {
  const ref = isVersionRef(arg) ? arg : (arg instanceof vscode.Uri ? versionOfUri(ctx.services.stores, arg) : undefined) ?? ctx.tree.versionDiffs.activeVersion();
  if (!ref) {
    void vscode.window.showInformationMessage('Open a version from Show History first, then restore it.');
    return undefined;
  }
  if (!ctx.services.trust.requireTrust('Restoring memory files')) return undefined;
  const { store, version, rel } = ref;
  const entry = (await store.engine.history()).find((e) => e.version === version);
  const what = entry ? ` (${describeChange(entry)}, ${formatAge(entry.time, Date.now())})` : '';
  const confirmed = await ctx.prompts.confirm(
    `Restore '${displayOf(rel)}' to version ${version}?`,
    `In ${store.folder.name}, the file's content becomes version ${version}'s${what}. What it holds now stays in its history, so this can be undone.`,
    'Restore',
  );
  if (!confirmed) return undefined;
  return restoreNow(ctx, store, rel, version, `${displayOf(rel)} restored to version ${version}`);
}

/** Restore (inline on a Recently Deleted file): the file comes back with the content it had, folders made as needed. */
export async function restoreDeleted(ctx: TreeCommandContext, arg?: unknown): Promise<number | undefined> {
  const node = isDeletedNode(arg) ? arg : ctx.tree.view.selection.find(isDeletedNode);
  if (!node?.deletion) return undefined;
  if (!ctx.services.trust.requireTrust('Restoring memory files')) return undefined;
  const { store, rel } = node;
  try {
    await vscode.workspace.fs.stat(store.fs.uriOf(rel));
    // Something is there again: replacing it is Show History's Restore, with its confirmation.
    void vscode.window.showInformationMessage(`${displayOf(rel)} exists again; use Show History on it to bring back the deleted content.`);
    ctx.tree.provider.refresh();
    return undefined;
  } catch {
    // Still gone: restore it.
  }
  const restored = await restoreNow(ctx, store, rel, node.deletion.version, `$(history) ${displayOf(rel)} restored from Recently Deleted`, RESTORED_MESSAGE_MS);
  if (restored !== undefined) {
    await vscode.commands.executeCommand('vscode.open', store.fs.uriOf(rel), { preview: true });
    // Where it is back: selected in the tree (the editor keeps the focus).
    void ctx.tree.revealer.revealCreated(store, displayOf(rel));
  }
  return restored;
}

/** How long the status bar says a deleted file came back (long enough to be seen after the editor opens). */
const RESTORED_MESSAGE_MS = 8_000;

async function restoreNow(ctx: TreeCommandContext, store: VersionRef['store'], rel: string, version: number, done: string, messageMs = 4000): Promise<number | undefined> {
  let recorded: number | undefined;
  try {
    recorded = await store.engine.restore(rel, version);
  } catch (e) {
    reportFailure(ctx, `Restoring ${displayOf(rel)}`, e);
    return undefined;
  }
  ctx.services.logger('tree').info(`user restored ${displayOf(rel)} to version ${version} in ${store.folder.name}${recorded === undefined ? ' (it already held it)' : ` (version ${recorded})`}`);
  ctx.tree.provider.refresh();
  vscode.window.setStatusBarMessage(recorded === undefined ? `${displayOf(rel)} already holds version ${version}` : done, messageMs);
  return recorded;
}

function isVersionRef(value: unknown): value is VersionRef {
  const v = value as Partial<VersionRef> | null;
  return typeof v === 'object' && v !== null && typeof v.version === 'number' && typeof v.rel === 'string' && v.store !== undefined;
}

function isDeletedNode(value: unknown): value is MemoryNode {
  const v = value as Partial<MemoryNode> | null;
  return typeof v === 'object' && v !== null && v.kind === 'deleted' && typeof v.rel === 'string' && v.store !== undefined;
}
