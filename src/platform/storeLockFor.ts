/**
 * The cross-process lock for an extension store. A `file:` store (local, and also remote, WSL or
 * container workspaces: the extension host runs where the files are) uses the same lock file as
 * the CLI, so VS Code windows and `claude-memory` commands take turns. Other schemes (virtual
 * file systems) have no lock another process could see: there the engine's queue orders this
 * window's writes and the changed-meanwhile check refuses to replace an edit made elsewhere.
 */
import type * as vscode from 'vscode';
import { NO_STORE_LOCK, type StoreLock } from '../core/memory/storeLock';
import { NodeStoreLock } from './node/nodeStoreLock';

export function storeLockFor(rootUri: vscode.Uri, canWrite: () => boolean): StoreLock {
  if (rootUri.scheme !== 'file') return NO_STORE_LOCK;
  const lock = new NodeStoreLock(rootUri.fsPath);
  // Where nothing may be written (an untrusted workspace) the lock must not create `.meta`
  // either; the adapter refuses the write itself.
  return { acquire: () => (canWrite() ? lock.acquire() : NO_STORE_LOCK.acquire()) };
}
