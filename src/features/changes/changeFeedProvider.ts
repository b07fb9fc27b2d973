/**
 * The Memory Changes view: the newest versions of every store's history, newest first (grouped by
 * workspace folder when there are several), an expiry sweep as one row with its files below.
 * The rows and the badge are computed on every refresh, whether the view is visible or not, so
 * the badge counts changes the user has not looked at yet.
 */
import * as vscode from 'vscode';
import type { HistoryEntry } from '../../core/memory/history/types';
import type { Logger } from '../../platform/logger';
import type { MemoryStore, MemoryStores } from '../../platform/memoryStores';
import { COMMANDS } from '../../platform/ids';
import {
  badgeTooltip,
  changeDescription,
  changeLabel,
  changeTooltipLines,
  expiryLabel,
  feedRows,
  unseenCount,
  type FeedRow,
} from './changeFeedModel';
import type { ReviewMarks } from './reviewMarks';

export type FeedNode =
  | { kind: 'folder'; key: string; name: string }
  | (FeedRow & { id: string })
  | { kind: 'expired'; id: string; key: string; entry: HistoryEntry; unseen: boolean };

export type ChangeNode = Extract<FeedNode, { kind: 'change' | 'expired' }>;
export type ExpiryNode = Extract<FeedNode, { kind: 'expiry' }>;

const OP_ICONS: Record<HistoryEntry['op'], string> = {
  create: 'diff-added',
  str_replace: 'diff-modified',
  insert: 'diff-modified',
  edit: 'diff-modified',
  delete: 'diff-removed',
  rename: 'diff-renamed',
  restore: 'history',
};

/** The tree item id of a version's row: stable across refreshes, so reveal finds it. */
export function changeId(key: string, version: number): string {
  return `${key}#${version}`;
}

interface StoreRows {
  key: string;
  name: string;
  rows: FeedNode[];
  newest: number;
  unseen: number;
}

export class ChangeFeedProvider implements vscode.TreeDataProvider<FeedNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly loaded = new vscode.EventEmitter<void>();
  /** Fires after each refresh computed the rows (tests and the badge wait on it). */
  readonly onDidLoad = this.loaded.event;
  private stores: StoreRows[] = [];
  private readonly parents = new Map<string, FeedNode>();
  private readonly byId = new Map<string, FeedNode>();
  private loading: Promise<void> | undefined;
  private again = false;
  /** What the rows showed at the last redraw. */
  private shown = '';
  /** When the rows were last read (the age refresh goes by it). */
  loadedAt = Date.now();

  constructor(
    private readonly memoryStores: MemoryStores,
    private readonly review: ReviewMarks,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reads every store's history again; resolves when the rows (and badge) are up to date. */
  refresh(): Promise<void> {
    if (this.loading) {
      // A change during a load: read once more after it, so the last write is never missed.
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      do {
        this.again = false;
        await this.load();
      } while (this.again);
    })().finally(() => (this.loading = undefined));
    return this.loading;
  }

  /** Resolves once no read of the histories is running (what a refresh asked for is on screen). */
  whenIdle(): Promise<void> {
    return this.loading ?? Promise.resolve();
  }

  /** Versions to review across all stores. */
  get unseen(): number {
    return this.stores.reduce((n, s) => n + s.unseen, 0);
  }

  get badge(): vscode.ViewBadge | undefined {
    const n = this.unseen;
    return n > 0 ? { value: n, tooltip: badgeTooltip(n) } : undefined;
  }

  /** The newest version of each store, for Mark All Reviewed. */
  newestVersions(): Record<string, number> {
    return Object.fromEntries(this.stores.map((s) => [s.key, s.newest]));
  }

  /** All rows of the feed, top level first (for tests). */
  rows(): readonly FeedNode[] {
    return this.stores.flatMap((s) => s.rows);
  }

  node(id: string): FeedNode | undefined {
    return this.byId.get(id);
  }

  storeOf(key: string): MemoryStore | undefined {
    return this.memoryStores.forKey(key);
  }

  getChildren(node?: FeedNode): FeedNode[] {
    if (node === undefined) {
      if (this.stores.length > 1) return this.stores.map((s) => ({ kind: 'folder', key: s.key, name: s.name }));
      return this.stores[0]?.rows ?? [];
    }
    if (node.kind === 'folder') return this.stores.find((s) => s.key === node.key)?.rows ?? [];
    if (node.kind === 'expiry') return node.entries.map((e) => this.byId.get(changeId(node.key, e.entry.version))).filter((n): n is FeedNode => n !== undefined);
    return [];
  }

  getParent(node: FeedNode): FeedNode | undefined {
    return node.kind === 'folder' ? undefined : this.parents.get(node.id);
  }

  getTreeItem(node: FeedNode): vscode.TreeItem {
    const now = this.now();
    switch (node.kind) {
      case 'folder': {
        const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Expanded);
        item.id = node.key;
        item.iconPath = vscode.ThemeIcon.Folder;
        item.contextValue = 'memoryChangesFolder';
        return item;
      }
      case 'expiry': {
        const newest = node.entries[0].entry;
        const label = expiryLabel(node.entries.length);
        const item = new vscode.TreeItem(node.unseen ? { label, highlights: [[0, label.length]] } : label, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = node.id;
        item.description = `${node.unseen ? '● ' : ''}${changeDescription(newest, now)}`;
        item.tooltip = `${label} (unused for too long): ${node.entries.map((e) => e.entry.path).join(', ')}. Restore brings them back.`;
        item.iconPath = new vscode.ThemeIcon('clock');
        item.contextValue = 'memoryExpiry';
        return item;
      }
      case 'change':
      case 'expired': {
        const label = changeLabel(node.entry);
        const item = new vscode.TreeItem(node.unseen ? { label, highlights: [[0, label.length]] } : label, vscode.TreeItemCollapsibleState.None);
        item.id = node.id;
        item.description = `${node.unseen ? '● ' : ''}${changeDescription(node.entry, now)}`;
        const tooltip = new vscode.MarkdownString();
        const [what, ...rest] = changeTooltipLines(node.entry);
        tooltip.appendText(what);
        tooltip.appendMarkdown('\n\n');
        tooltip.appendText(rest.join('\n'));
        if (node.unseen) tooltip.appendMarkdown('\n\n_Not reviewed yet_');
        item.tooltip = tooltip;
        item.iconPath = new vscode.ThemeIcon(OP_ICONS[node.entry.op]);
        item.contextValue = node.kind === 'expired' ? 'memoryExpired' : 'memoryChange';
        item.command = { command: COMMANDS.openChange, title: 'Open Change', arguments: [node] };
        item.accessibilityInformation = { label: `${label}, ${item.description}` };
        return item;
      }
    }
  }

  dispose(): void {
    this.changed.dispose();
    this.loaded.dispose();
  }

  private async load(): Promise<void> {
    this.loadedAt = Date.now();
    const review = this.review.current;
    const stores: StoreRows[] = [];
    for (const store of this.memoryStores.all()) {
      const key = store.key;
      let history: readonly HistoryEntry[] = [];
      try {
        history = await store.engine.history();
      } catch (e) {
        this.log.warn(`could not read the history of "${store.folder.name}": ${e instanceof Error ? e.message : String(e)}`);
      }
      const feed = feedRows(key, history, review);
      const rows: FeedNode[] = feed.map((row) =>
        row.kind === 'change' ? { ...row, id: changeId(key, row.entry.version) } : { ...row, id: `${key}#sweep-${row.entries[0].entry.version}` },
      );
      stores.push({ key, name: store.folder.name, rows, newest: history.at(-1)?.version ?? 0, unseen: unseenCount(feed) });
    }
    this.stores = stores;
    this.index();
    // The view redraws only when a row would look different: one write is heard twice (the
    // engine's own signal and the file watcher), and a redraw under the pointer swallows the
    // click on a row's Undo. The minute keeps the ages ("2 min ago") moving on the age tick.
    const shown = JSON.stringify([Math.floor(this.now() / 60_000), stores]);
    if (shown !== this.shown) {
      this.shown = shown;
      this.changed.fire();
    }
    this.loaded.fire();
  }

  private index(): void {
    this.parents.clear();
    this.byId.clear();
    const folders = this.stores.length > 1;
    for (const s of this.stores) {
      const folder: FeedNode = { kind: 'folder', key: s.key, name: s.name };
      for (const row of s.rows) {
        if (row.kind === 'folder') continue;
        this.byId.set(row.id, row);
        if (folders) this.parents.set(row.id, folder);
        if (row.kind !== 'expiry') continue;
        for (const { entry, unseen } of row.entries) {
          const child: FeedNode = { kind: 'expired', id: changeId(s.key, entry.version), key: s.key, entry, unseen };
          this.byId.set(child.id, child);
          this.parents.set(child.id, row);
        }
      }
    }
  }
}
