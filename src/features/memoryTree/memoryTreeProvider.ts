import * as vscode from 'vscode';
import { displayOf, isSameOrInside, joinRel, parentOf } from '../../core/memory/paths';
import { CONTEXT_KEYS } from '../../platform/ids';
import type { Logger } from '../../platform/logger';
import type { MemoryActivity, MemoryTouch } from '../../platform/memoryActivity';
import { storeRelative, type MemoryStore, type MemoryStores } from '../../platform/memoryStores';
import { CONTEXT_VALUES, MemoryNode, nameOf, nodeId } from './memoryTreeNodes';
import { lastChangeLine } from './historyFormat';
import { compareEntries, describeEntry, formatAge, formatSize, isVisibleName, touchLabel } from '../../ui/treeFormat';
import { deletedGroupItem, deletedGroupNode, deletedItem, deletedNodes, escapeMd, loadTreeHistory, type TreeHistory } from './treeHistory';

/**
 * Adds to the items of the tree's entries what another feature knows about them (pins and
 * expiry); when that knowledge changes, the tree is refreshed.
 */
export interface TreeItemAnnotator {
  annotate(node: MemoryNode, item: vscode.TreeItem): void;
  /** Its marks changed for a reason of its own (a pin, a setting): the tree redraws. */
  readonly onDidChange: vscode.Event<void>;
  /** Brings its marks up to date after a store change; the tree redraws once, after every annotator's update. */
  update?(): Promise<void>;
}

/**
 * The Memory tree: one root per workspace folder, showing the files in its memory folder as they
 * are on disk (whoever wrote them). Reads go through the store's file system each time the tree
 * is refreshed; listings are cached only until the next refresh.
 */
export class MemoryTreeProvider implements vscode.TreeDataProvider<MemoryNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<MemoryNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly refreshed = new vscode.EventEmitter<void>();
  /**
   * Fires right after the whole tree was told to redraw (a new generation of nodes). VS Code's
   * reveal waits for a redraw it was told of, so a reveal started now finds the new listing.
   */
  readonly onDidRefresh = this.refreshed.event;
  /** This generation's listings and roots (a refresh starts a new one). */
  private listings = new Map<string, Promise<MemoryNode[]>>();
  private roots = new Map<string, MemoryNode>();
  /** This generation's history per store (last writers, recently deleted), and the ones already read. */
  private histories = new Map<string, Promise<TreeHistory>>();
  private readHistories = new Map<string, TreeHistory>();
  private storeEmpty: boolean | undefined;
  /** The entry the agent touched last, shown with a mark. */
  private marked: MemoryTouch | undefined;
  private readonly annotators: TreeItemAnnotator[] = [];
  /** The annotators' updates for store changes under way (their own change events are part of them; whenIdle waits for them). */
  private readonly pendingUpdates = new Set<Promise<void>>();
  /** When the tree was last redrawn whole (the age refresh goes by it). */
  drawnAt = Date.now();

  constructor(
    private readonly stores: MemoryStores,
    activity: MemoryActivity,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    // A touch that happened before the view was first shown still counts.
    const last = activity.lastTouch;
    if (last) this.noteTouch(last);
  }

  /**
   * Moves the "touched by Claude" mark. Listing the whole store (every session starts with
   * `view /memories`) keeps the mark where it was; deleting the marked entry removes it.
   */
  noteTouch(touch: MemoryTouch): void {
    const rel = storeRelative(touch.path);
    if (touch.kind === 'delete') {
      if (this.marked && touch.folder.uri.toString() === this.marked.folder.uri.toString() && rel !== undefined) {
        const markedRel = storeRelative(this.marked.newPath ?? this.marked.path);
        if (markedRel !== undefined && isSameOrInside(markedRel, rel)) this.marked = undefined;
      }
      return;
    }
    if (rel === undefined || rel === '') return;
    this.marked = touch;
  }

  addAnnotator(annotator: TreeItemAnnotator): vscode.Disposable {
    this.annotators.push(annotator);
    // While the annotators update for a store change, their own change events are part of it.
    return annotator.onDidChange(() => {
      if (this.pendingUpdates.size === 0) this.refresh();
    });
  }

  /**
   * A store changed: the annotators update first, then the tree redraws once, also for changes that
   * overlap (VS Code's reveal waits for the first of several redraws told of at once, not the rest).
   */
  storeChanged(): Promise<void> {
    const update = Promise.all(this.annotators.map((a) => a.update?.().catch(() => undefined))).then(() => undefined);
    this.pendingUpdates.add(update);
    return update.then(() => {
      this.pendingUpdates.delete(update);
      if (this.pendingUpdates.size === 0) this.refresh();
    });
  }

  /** Resolves once every store change heard so far has been redrawn. */
  async whenIdle(): Promise<void> {
    while (this.pendingUpdates.size > 0) await Promise.all(this.pendingUpdates);
  }

  refresh(): void {
    this.drawnAt = Date.now();
    this.listings = new Map();
    this.roots = new Map();
    this.histories = new Map();
    this.changed.fire(undefined);
    this.refreshed.fire();
  }

  async getChildren(element?: MemoryNode): Promise<MemoryNode[]> {
    if (element?.kind === 'deletedGroup') return deletedNodes(element.store, await this.historyOf(element.store));
    if (element?.kind === 'root') {
      const [listing, history] = await Promise.all([this.list(element.store, ''), this.historyOf(element.store)]);
      const deleted = deletedGroupNode(element.store, history);
      return deleted ? [...listing, deleted] : listing;
    }
    if (element) return element.kind === 'folder' ? this.list(element.store, element.rel) : [];
    const stores = this.stores.all();
    const listings = await Promise.all(stores.map((s) => this.list(s, '')));
    const histories = await Promise.all(stores.map((s) => this.historyOf(s)));
    // A store whose last file was deleted still shows its root, for Recently Deleted.
    const empty = listings.every((l) => l.length === 0) && histories.every((h) => h.deleted.length === 0);
    this.setStoreEmpty(empty);
    // An empty tree lets the welcome view (Initialize / Open Chat / Set API Key) show instead.
    return empty ? [] : stores.map((store) => this.rootNode(store));
  }

  /**
   * Returns the very objects getChildren handed out in this generation: VS Code tracks elements
   * by identity, and a fresh object with a known id makes reveal() fail ("already registered").
   */
  async getParent(element: MemoryNode): Promise<MemoryNode | undefined> {
    if (element.kind === 'root') return undefined;
    if (element.kind === 'deletedGroup') return this.rootNode(element.store);
    if (element.kind === 'deleted') return deletedGroupNode(element.store, await this.historyOf(element.store));
    const parent = parentOf(element.rel);
    if (parent === '') return this.rootNode(element.store);
    return (await this.nodeAt(element.store, parent)) ?? this.entryNode(element.store, parent, 'folder');
  }

  getTreeItem(node: MemoryNode): vscode.TreeItem {
    if (node.kind === 'root') return this.rootItem(node);
    if (node.kind === 'deletedGroup') return deletedGroupItem(node, this.readHistories.get(node.store.key)?.deleted.length ?? 0);
    if (node.kind === 'deleted') return deletedItem(node, this.now());
    const item = new vscode.TreeItem(nameOf(node), node.kind === 'folder' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = nodeId(node);
    item.resourceUri = node.uri;
    item.contextValue = CONTEXT_VALUES[node.kind];
    item.iconPath = node.kind === 'folder' ? vscode.ThemeIcon.Folder : vscode.ThemeIcon.File;
    const now = this.now();
    const described = node.stat ? describeEntry(node.kind, node.stat.size, node.stat.mtime, now) : '';
    const touch = this.touchOf(node);
    item.description = touch ? [`✦ ${touchLabel(touch.kind, touch.writer)}`, described].filter(Boolean).join(' · ') : described;
    if (touch) item.iconPath = new vscode.ThemeIcon('sparkle', new vscode.ThemeColor('charts.purple'));
    item.tooltip = this.tooltip(node, touch, now);
    if (node.kind === 'file') item.command = { command: 'vscode.open', title: 'Open', arguments: [node.uri] };
    for (const annotator of this.annotators) annotator.annotate(node, item);
    return item;
  }

  /** The touch the mark is on (to redraw its row when the mark moves). */
  get markedTouch(): MemoryTouch | undefined {
    return this.marked;
  }

  /**
   * Redraws only the rows the "touched" mark left and moved to, where they are listed already (a
   * row not listed yet is drawn with the mark when it is): not the whole tree.
   */
  async redrawTouched(before: MemoryTouch | undefined): Promise<void> {
    for (const touch of [before, this.marked]) {
      const store = touch && this.stores.forFolder(touch.folder);
      const rel = touch && storeRelative(touch.newPath ?? touch.path);
      if (!store || !rel || !this.listings.has(`${store.key}|${parentOf(rel)}`)) continue;
      const node = await this.nodeAt(store, rel);
      if (node) this.changed.fire(node);
    }
  }

  /** The node of a `/memories/...` path in a store as the tree lists it; undefined when it is not listed. */
  async nodeForMemoryPath(store: MemoryStore, memoryPath: string): Promise<MemoryNode | undefined> {
    const rel = storeRelative(memoryPath);
    if (rel === undefined) return undefined;
    return rel === '' ? this.rootNode(store) : this.nodeAt(store, rel);
  }

  private async nodeAt(store: MemoryStore, rel: string): Promise<MemoryNode | undefined> {
    return (await this.list(store, parentOf(rel))).find((n) => n.rel === rel);
  }

  dispose(): void {
    this.changed.dispose();
    this.refreshed.dispose();
  }

  private list(store: MemoryStore, rel: string): Promise<MemoryNode[]> {
    const key = `${store.key}|${rel}`;
    let listing = this.listings.get(key);
    if (!listing) {
      listing = this.readListing(store, rel);
      this.listings.set(key, listing);
    }
    return listing;
  }

  private async readListing(store: MemoryStore, rel: string): Promise<MemoryNode[]> {
    let entries: [string, vscode.FileType][];
    try {
      // A store that does not exist yet is the common case: stat first, since a failed
      // readDirectory is logged by VS Code's disk provider.
      if (rel === '') await vscode.workspace.fs.stat(store.rootUri);
      entries = await vscode.workspace.fs.readDirectory(store.fs.uriOf(rel));
    } catch (e) {
      if (!(e instanceof vscode.FileSystemError && e.code === 'FileNotFound')) this.log.warn(`cannot list ${displayOf(rel)} in ${store.folder.name}: ${String(e)}`);
      return [];
    }
    const visible = entries.filter(([name]) => isVisibleName(name));
    // Tooltips name each file's last writer from history: read it before the nodes go out.
    await this.historyOf(store);
    const nodes = await Promise.all(
      visible.map(async ([name, type]) => {
        const childRel = joinRel(rel, name);
        // Links are shown but never expanded: their target may lie outside the store.
        const kind = type & vscode.FileType.Directory && !(type & vscode.FileType.SymbolicLink) ? 'folder' : 'file';
        const stat = await Promise.resolve(vscode.workspace.fs.stat(store.fs.uriOf(childRel))).catch(() => undefined);
        return this.entryNode(store, childRel, kind, stat);
      }),
    );
    return nodes.sort((a, b) => compareEntries({ name: nameOf(a), isFolder: a.kind === 'folder' }, { name: nameOf(b), isFolder: b.kind === 'folder' }));
  }

  private historyOf(store: MemoryStore): Promise<TreeHistory> {
    const key = store.key;
    let history = this.histories.get(key);
    if (!history) {
      history = loadTreeHistory(store, this.now(), (e) => this.log.warn(`cannot read the history of ${store.folder.name}: ${String(e)}`)).then((h) => {
        this.readHistories.set(key, h);
        return h;
      });
      this.histories.set(key, history);
    }
    return history;
  }

  private rootNode(store: MemoryStore): MemoryNode {
    const key = store.key;
    let root = this.roots.get(key);
    if (!root) {
      root = { kind: 'root', store, rel: '', uri: store.rootUri };
      this.roots.set(key, root);
    }
    return root;
  }

  private entryNode(store: MemoryStore, rel: string, kind: 'folder' | 'file', stat?: vscode.FileStat): MemoryNode {
    return { kind, store, rel, uri: store.fs.uriOf(rel), stat };
  }

  private rootItem(node: MemoryNode): vscode.TreeItem {
    const item = new vscode.TreeItem(nameOf(node), vscode.TreeItemCollapsibleState.Expanded);
    item.id = nodeId(node);
    item.contextValue = CONTEXT_VALUES.root;
    item.iconPath = new vscode.ThemeIcon('root-folder');
    item.description = displayOf('');
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${escapeMd(node.store.folder.name)}**: Claude's \`/memories\`\n\n`);
    md.appendText(node.store.rootUri.scheme === 'file' ? node.store.rootUri.fsPath : node.store.rootUri.toString());
    item.tooltip = md;
    return item;
  }

  private tooltip(node: MemoryNode, touch: MemoryTouch | undefined, now: number): vscode.MarkdownString {
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${escapeMd(displayOf(node.rel))}**\n\n`);
    if (node.stat) {
      const size = node.kind === 'file' ? `${formatSize(node.stat.size)} (${node.stat.size.toLocaleString('en-US')} bytes) · ` : '';
      md.appendMarkdown(`${size}changed ${formatAge(node.stat.mtime, now)} (${new Date(node.stat.mtime).toLocaleString()})\n\n`);
    }
    const last = node.kind === 'file' ? this.readHistories.get(node.store.key)?.newest.get(node.rel) : undefined;
    if (last && last.op !== 'delete') md.appendMarkdown(`${escapeMd(lastChangeLine(last, now))}\n\n`);
    if (touch) md.appendMarkdown(`✦ Last touched by ${escapeMd(touch.writer ?? 'Claude')} (${touch.kind})\n\n`);
    md.appendMarkdown(`Workspace folder: ${escapeMd(node.store.folder.name)}`);
    return md;
  }

  private touchOf(node: MemoryNode): MemoryTouch | undefined {
    const touch = this.marked;
    if (!touch || touch.folder.uri.toString() !== node.store.key) return undefined;
    return storeRelative(touch.newPath ?? touch.path) === node.rel ? touch : undefined;
  }

  private setStoreEmpty(empty: boolean): void {
    if (this.storeEmpty === empty) return;
    this.storeEmpty = empty;
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.storeEmpty, empty);
  }
}
