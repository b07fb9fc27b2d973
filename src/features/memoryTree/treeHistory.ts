import * as vscode from 'vscode';
import { DAY_MS } from '../../core/memory/history/expiry';
import type { HistoryEntry } from '../../core/memory/history/types';
import type { MemoryStore } from '../../platform/memoryStores';
import { deletedDescription, deletedFilesOf, newestByPath } from './historyFormat';
import { CONTEXT_VALUES, nameOf, nodeId, type MemoryNode } from './memoryTreeNodes';
import { versionUri } from '../../ui/versionDocuments';

/** At most this many deleted files are listed per store (the newest deletions). */
const MAX_DELETED_LISTED = 200;

/** What the Memory tree shows of one store's history: last writers and recently deleted files. */
export interface TreeHistory {
  /** Newest version per store-relative path. */
  readonly newest: ReadonlyMap<string, HistoryEntry>;
  /** Files deleted within retention that are still gone, newest deletion first. */
  readonly deleted: readonly HistoryEntry[];
}

const EMPTY: TreeHistory = { newest: new Map(), deleted: [] };

/** Reads a store's history for the tree (nothing when history is off or cannot be read). */
export async function loadTreeHistory(store: MemoryStore, now: number, onError: (e: unknown) => void): Promise<TreeHistory> {
  let sorted: readonly HistoryEntry[];
  try {
    sorted = await store.engine.history();
  } catch (e) {
    onError(e);
    return EMPTY;
  }
  const retention = store.engine.options.history;
  const oldest = retention === false ? now : now - retention.maxDays * DAY_MS;
  const candidates = deletedFilesOf(sorted)
    .filter((e) => e.time >= oldest)
    .slice(0, MAX_DELETED_LISTED);
  // Made again outside the engine (git, another editor) and not noticed yet: not deleted.
  const gone = await Promise.all(candidates.map((e) => Promise.resolve(vscode.workspace.fs.stat(store.fs.uriOf(e.path))).then(() => false, () => true)));
  return { newest: newestByPath(sorted), deleted: candidates.filter((_, i) => gone[i]) };
}

/**
 * The nodes are made once per history read: VS Code tracks tree elements by identity, so
 * getParent must hand back the very objects getChildren did.
 */
const groupNodes = new WeakMap<TreeHistory, MemoryNode>();
const fileNodes = new WeakMap<TreeHistory, MemoryNode[]>();

/** The "Recently Deleted" node of a store, when it has deleted files. */
export function deletedGroupNode(store: MemoryStore, history: TreeHistory): MemoryNode | undefined {
  if (history.deleted.length === 0) return undefined;
  let node = groupNodes.get(history);
  if (!node) groupNodes.set(history, (node = { kind: 'deletedGroup', store, rel: '', uri: store.rootUri }));
  return node;
}

export function deletedNodes(store: MemoryStore, history: TreeHistory): MemoryNode[] {
  let nodes = fileNodes.get(history);
  if (!nodes) {
    nodes = history.deleted.map((deletion) => ({ kind: 'deleted', store, rel: deletion.path, uri: versionUri(store, deletion.version, deletion.path), deletion }));
    fileNodes.set(history, nodes);
  }
  return nodes;
}

export function deletedGroupItem(node: MemoryNode, count: number): vscode.TreeItem {
  const item = new vscode.TreeItem(nameOf(node), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = nodeId(node);
  item.contextValue = CONTEXT_VALUES.deletedGroup;
  item.iconPath = new vscode.ThemeIcon('trash');
  item.description = `${count}`;
  item.tooltip = `Memory files deleted in ${node.store.folder.name} that history can still restore`;
  return item;
}

/** A deleted file: click shows its last content (read-only); Restore (inline) brings it back. */
export function deletedItem(node: MemoryNode, now: number): vscode.TreeItem {
  const item = new vscode.TreeItem(nameOf(node), vscode.TreeItemCollapsibleState.None);
  item.id = nodeId(node);
  item.contextValue = CONTEXT_VALUES.deleted;
  // The version's Uri ends in the file's name: the icon theme picks the file's icon.
  item.resourceUri = node.uri;
  const deletion = node.deletion;
  item.description = deletion ? deletedDescription(deletion, now) : '';
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**/memories/${escapeMd(node.rel)}** (deleted)\n\n`);
  if (deletion) md.appendMarkdown(`${escapeMd(`Deleted by ${deletedDescription(deletion, now)} (${new Date(deletion.time).toLocaleString()}), version ${deletion.version}`)}\n\n`);
  md.appendMarkdown('Click to see what it held; **Restore** brings it back.');
  item.tooltip = md;
  item.command = { command: 'vscode.open', title: 'Show Deleted Content', arguments: [node.uri, { preview: true }] };
  return item;
}

export function escapeMd(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
