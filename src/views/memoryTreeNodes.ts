import type * as vscode from 'vscode';
import type { MemoryStore } from '../platform/memoryStores';

export type MemoryNodeKind = 'root' | 'folder' | 'file';

/** Context values matched by `viewItem ==` in package.json menus. */
export const CONTEXT_VALUES: Readonly<Record<MemoryNodeKind, string>> = {
  root: 'memoryRoot',
  folder: 'memoryFolder',
  file: 'memoryFile',
};

/** One row of the Memory tree: a workspace folder's store root, or a folder or file below it. */
export interface MemoryNode {
  readonly kind: MemoryNodeKind;
  readonly store: MemoryStore;
  /** Store-relative POSIX path; '' for the root. */
  readonly rel: string;
  readonly uri: vscode.Uri;
  /** Undefined for roots and for nodes built by getParent (the tree re-reads them). */
  readonly stat?: vscode.FileStat;
}

/** Stable across refreshes, so selection, expansion and reveal survive a re-read. */
export function nodeId(node: Pick<MemoryNode, 'kind' | 'store' | 'rel'>): string {
  return `${node.kind === 'root' ? 'root' : 'entry'}|${node.store.folder.uri.toString()}|${node.rel}`;
}

export function nameOf(node: MemoryNode): string {
  return node.kind === 'root' ? node.store.folder.name : node.rel.slice(node.rel.lastIndexOf('/') + 1);
}
