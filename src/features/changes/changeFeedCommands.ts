/**
 * The Memory Changes feed's commands: open a change's diff (which marks it reviewed), undo it,
 * restore what an expiry sweep deleted, mark everything reviewed, and show the change a chat
 * card links to.
 */
import * as vscode from 'vscode';
import { isMemoryError } from '../../core/memory/errors';
import { describeOp } from '../../core/memory/history/describe';
import { COMMANDS, VIEWS, focusViewCommand } from '../../platform/ids';
import { undoDropsLaterWork } from './changeFeedModel';
import { changeId, type ChangeNode, type ExpiryNode, type FeedNode } from './changeFeedProvider';
import type { ChangeFeed } from './registerChangeFeed';
import type { UserPrompts } from '../../ui/prompts';

/** COMMANDS.showChange's argument, as a chat card sends it. */
export interface ShowChangeArgs {
  folderUri: string;
  version: number;
}

export function registerChangeFeedCommands(context: vscode.ExtensionContext, feed: ChangeFeed, prompts: UserPrompts): void {
  const register = (id: string, handler: (...args: never[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, handler));
  register(COMMANDS.openChange, (node: ChangeNode) => openChange(feed, node));
  register(COMMANDS.undoChange, (node: ChangeNode | undefined) => undoChange(feed, prompts, node ?? selectedChange(feed)));
  register(COMMANDS.restoreExpired, (node: ExpiryNode | ChangeNode | undefined) => restoreExpired(feed, node ?? feed.view.selection[0]));
  register(COMMANDS.markAllReviewed, () => markAllReviewed(feed));
  register(COMMANDS.showChange, (args: ShowChangeArgs) => showChange(feed, args));
}

function selectedChange(feed: ChangeFeed): ChangeNode | undefined {
  const node = feed.view.selection[0];
  return node?.kind === 'change' || node?.kind === 'expired' ? node : undefined;
}

export async function openChange(feed: ChangeFeed, node: ChangeNode | undefined): Promise<void> {
  if (node === undefined) return;
  await feed.openDiff(vscode.Uri.parse(node.key), node.entry);
  if (await feed.review.mark(node.key, node.entry.version)) await feed.provider.refresh();
}

/** Undoes one change; when later changes to the file go with it, only after the user agreed. */
export async function undoChange(feed: ChangeFeed, prompts: UserPrompts, node: ChangeNode | undefined): Promise<number | undefined> {
  if (node === undefined) return undefined;
  const store = feed.provider.storeOf(node.key);
  if (store === undefined) return undefined;
  const { entry } = node;
  // An edit made by hand and not recorded yet becomes a version first, so it counts as later work.
  const planned = await store.engine.undoPlan(entry.version);
  if (planned?.plan.kind === 'restore' || planned?.plan.kind === 'delete') await store.engine.noticeChange(planned.plan.path);
  else if (planned?.plan.kind === 'rename') await store.engine.noticeChange(planned.plan.from);
  const undo = await store.engine.undoPlan(entry.version);
  if (undo === undefined) {
    void vscode.window.showInformationMessage(`Version ${entry.version} of ${entry.path} cannot be undone: there is nothing to go back to.`);
    return undefined;
  }
  if (undo.later > 0 && undoDropsLaterWork(await store.engine.history(), entry)) {
    const changes = undo.later === 1 ? '1 later change' : `${undo.later} later changes`;
    const ok = await prompts.confirm(
      `Undo the change to ${entry.path} (${describeOp(entry)})?`,
      `${changes} to that file will be undone too: the file goes back to how it was before this change.`,
      'Undo',
    );
    feed.log.info(`undo of ${entry.path} version ${entry.version}: ${changes} would go too; the user ${ok ? 'agreed' : 'declined'}`);
    if (!ok) return undefined;
  }
  try {
    const version = await store.engine.undo(entry.version);
    feed.log.info(`undid ${entry.path} version ${entry.version} (${describeOp(entry)}): now version ${version}`);
    return version;
  } catch (e) {
    const reason = isMemoryError(e) ? e.message : e instanceof Error ? e.message : String(e);
    feed.log.warn(`undo of ${entry.path} version ${entry.version} failed: ${reason}`);
    void vscode.window.showWarningMessage(`Not undone: ${reason}`);
    return undefined;
  } finally {
    await feed.provider.refresh();
  }
}

/** Brings back what an expiry sweep deleted: all its files, or one. */
export async function restoreExpired(feed: ChangeFeed, node: FeedNode | undefined): Promise<void> {
  if (node === undefined || (node.kind !== 'expiry' && node.kind !== 'expired')) return;
  const store = feed.provider.storeOf(node.key);
  if (store === undefined) return;
  const entries = node.kind === 'expiry' ? node.entries.map((e) => e.entry) : [node.entry];
  const failed: string[] = [];
  for (const entry of entries) {
    try {
      await store.engine.undo(entry.version);
    } catch (e) {
      failed.push(`${entry.path}: ${isMemoryError(e) ? e.message : String(e)}`);
    }
  }
  await feed.provider.refresh();
  if (failed.length > 0) void vscode.window.showWarningMessage(`Not restored: ${failed.join('; ')}`);
}

export async function markAllReviewed(feed: ChangeFeed): Promise<void> {
  await feed.provider.refresh();
  await feed.review.markAll(feed.provider.newestVersions());
  await feed.provider.refresh();
}

/** Reveals a version's row in the feed and opens its diff (a chat card's History link). */
export async function showChange(feed: ChangeFeed, args: ShowChangeArgs | undefined): Promise<boolean> {
  if (typeof args?.folderUri !== 'string' || !Number.isSafeInteger(args.version)) return false;
  await feed.provider.refresh();
  const node = feed.provider.node(changeId(vscode.Uri.parse(args.folderUri).toString(), args.version));
  if (node === undefined || (node.kind !== 'change' && node.kind !== 'expired')) {
    void vscode.window.showInformationMessage(`Version ${args.version} is no longer in the Memory Changes feed (history keeps a limited number of versions).`);
    return false;
  }
  await vscode.commands.executeCommand(focusViewCommand(VIEWS.changes));
  await feed.view.reveal(node, { select: true, focus: false, expand: true });
  await openChange(feed, node);
  return true;
}
