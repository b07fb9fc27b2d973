import * as vscode from 'vscode';
import type { HistoryEntry } from '../../core/memory/history/types';
import type { Logger } from '../../platform/logger';
import { VIEWS } from '../../platform/ids';
import type { ExtensionServices } from '../../platform/services';
import { openChangeDiff } from './changeDiff';
import { ChangeFeedProvider, type FeedNode } from './changeFeedProvider';
import { ReviewMarks } from './reviewMarks';
import { refreshAgesWhileVisible } from '../../ui/ageRefresh';

export interface ChangeFeed {
  readonly provider: ChangeFeedProvider;
  readonly view: vscode.TreeView<FeedNode>;
  /** Opens a change's diff (previous version ↔ this one). */
  openDiff(folder: vscode.Uri, entry: HistoryEntry): Promise<void>;
  readonly review: ReviewMarks;
  /**
   * Marks versions of the store of workspace folder `key` (its Uri string) reviewed, as opening
   * their diffs would, and redraws the feed and its badge: the chat's change summary calls it for
   * Keep and Undo of a memory file, so a file has one review state.
   */
  markReviewed(key: string, versions: readonly number[]): Promise<void>;
  /** The "Claude Memory" output's `changes` channel: what Undo did, or why it did nothing. */
  readonly log: Logger;
}

/**
 * Creates the Memory Changes view and keeps it (and its badge) in step with every store's
 * history, through the stores' one change signal (this window's writes and other processes': the
 * CLI, the MCP server, git).
 */
export function registerChangeFeed(context: vscode.ExtensionContext, services: ExtensionServices): ChangeFeed {
  const review = new ReviewMarks(context.workspaceState);
  const log = services.logger('changes');
  const provider = new ChangeFeedProvider(services.stores, review, log);
  const view = vscode.window.createTreeView(VIEWS.changes, { treeDataProvider: provider, canSelectMany: false });
  const refresh = () => void provider.refresh();

  context.subscriptions.push(
    provider,
    view,
    provider.onDidLoad(() => (view.badge = provider.badge)),
    services.storeChanges.onDidChange(refresh),
    refreshAgesWhileVisible(view, refresh, () => provider.loadedAt),
  );
  refresh();
  const markReviewed = async (key: string, versions: readonly number[]): Promise<void> => {
    if (await review.markMany(key, versions)) await provider.refresh();
  };
  return { provider, view, review, log, markReviewed, openDiff: (folder, entry) => openChangeDiff(services.stores, folder, entry) };
}
