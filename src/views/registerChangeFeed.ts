import * as vscode from 'vscode';
import type { Logger } from '../platform/logger';
import { VIEWS } from '../platform/ids';
import type { ExtensionServices } from '../platform/services';
import { ChangeDiffContent } from './changeDiff';
import { ChangeFeedProvider, type FeedNode } from './changeFeedProvider';
import { ReviewMarks } from './reviewMarks';
import { StoreWatcher } from './storeWatcher';

/** Relative ages ("5 min ago") go stale; re-read this often while the view is visible. */
const AGE_REFRESH_MS = 60_000;

export interface ChangeFeed {
  readonly provider: ChangeFeedProvider;
  readonly view: vscode.TreeView<FeedNode>;
  readonly diff: ChangeDiffContent;
  readonly review: ReviewMarks;
  /** The "Claude Memory" output's `changes` channel: what Undo did, or why it did nothing. */
  readonly log: Logger;
}

/**
 * Creates the Memory Changes view and keeps it (and its badge) in step with every store's
 * history: the watcher sees writes of other processes (the CLI, the MCP server, git); every write
 * of this window's engines (the chat, the LM tool, the tree, expiry) refreshes it at once.
 */
export function registerChangeFeed(context: vscode.ExtensionContext, services: ExtensionServices): ChangeFeed {
  const review = new ReviewMarks(context.workspaceState);
  const log = services.logger('changes');
  const provider = new ChangeFeedProvider(services.stores, review, log);
  const view = vscode.window.createTreeView(VIEWS.changes, { treeDataProvider: provider, canSelectMany: false });
  const diff = new ChangeDiffContent(services.stores);
  const refresh = () => void provider.refresh();
  const ageTimer = setInterval(() => {
    if (view.visible) refresh();
  }, AGE_REFRESH_MS);

  context.subscriptions.push(
    provider,
    view,
    diff,
    provider.onDidLoad(() => (view.badge = provider.badge)),
    new StoreWatcher(services.stores, refresh),
    services.stores.onDidChange(refresh),
    services.stores.onDidWrite(refresh),
    { dispose: () => clearInterval(ageTimer) },
  );
  refresh();
  return { provider, view, diff, review, log };
}
