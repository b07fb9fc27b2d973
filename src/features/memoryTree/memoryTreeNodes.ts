import type * as vscode from 'vscode';
import type { HistoryEntry } from '../../core/memory/history/types';
import type { MemoryStore } from '../../platform/memoryStores';

/** `deletedGroup` is a store's "Recently Deleted" node, `deleted` one deleted file under it. */
export type MemoryNodeKind = 'root' | 'folder' | 'file' | 'deletedGroup' | 'deleted';

/** Context values matched by `viewItem ==` in package.json menus. */
export const CONTEXT_VALUES: Readonly<Record<MemoryNodeKind, string>> = {
  root: 'memoryRoot',
  folder: 'memoryFolder',
  file: 'memoryFile',
  deletedGroup: 'memoryDeletedGroup',
  deleted: 'memoryDeletedFile',
};

/** One row of the Memory tree: a workspace folder's store root, or a folder or file below it. */
export interface MemoryNode {
  readonly kind: MemoryNodeKind;
  readonly store: MemoryStore;
  /** Store-relative POSIX path; '' for the root and the Recently Deleted node. */
  readonly rel: string;
  /** For a deleted file: the read-only document of its last content. */
  readonly uri: vscode.Uri;
  /** Undefined for roots and for nodes built by getParent (the tree re-reads them). */
  readonly stat?: vscode.FileStat;
  /** For a deleted file: the version that deleted it (it holds the content the file had). */
  readonly deletion?: HistoryEntry;
}

/** Stable across refreshes, so selection, expansion and reveal survive a re-read. */
export function nodeId(node: Pick<MemoryNode, 'kind' | 'store' | 'rel'>): string {
  const prefix = node.kind === 'root' || node.kind === 'deletedGroup' || node.kind === 'deleted' ? node.kind : 'entry';
  return `${prefix}|${node.store.key}|${node.rel}`;
}

export function nameOf(node: MemoryNode): string {
  if (node.kind === 'root') return node.store.folder.name;
  if (node.kind === 'deletedGroup') return 'Recently Deleted';
  // A deleted file is named by its whole path: its folder may be gone too.
  if (node.kind === 'deleted') return node.rel;
  return node.rel.slice(node.rel.lastIndexOf('/') + 1);
}
