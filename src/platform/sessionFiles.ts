/**
 * Reading the session files of one workspace folder's memory store, for the user-driven commands
 * and the Features view, straight from the store's file system (workspace.fs). Writes never
 * happen here: they go through the engine's hand-edit writer (MemoryEngine.update/createFile),
 * which shares the agent's queue and store lock but not its checklist guards.
 */
import * as vscode from 'vscode';
import { isFsError } from '../core/memory/fileSystem';
import { SESSION_FILES, type SessionFileKey } from '../core/session/memoryFiles';
import type { MemoryStore } from './memoryStores';

/** The file's text, or undefined when it does not exist. */
export async function readSessionFile(store: MemoryStore, key: SessionFileKey): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await store.fs.readFile(SESSION_FILES[key]));
  } catch (e) {
    if (isFsError(e, 'FileNotFound')) return undefined;
    throw e;
  }
}

export async function sessionFileExists(store: MemoryStore, key: SessionFileKey): Promise<boolean> {
  try {
    await store.fs.stat(SESSION_FILES[key]);
    return true;
  } catch (e) {
    if (isFsError(e, 'FileNotFound')) return false;
    throw e;
  }
}

export async function openSessionFile(store: MemoryStore, key: SessionFileKey, selection?: vscode.Range): Promise<void> {
  await vscode.window.showTextDocument(store.fs.uriOf(SESSION_FILES[key]), { preview: false, selection });
}
