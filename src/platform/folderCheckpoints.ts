/**
 * The extension's checkpoint stores, one per local workspace folder, in the repository the CLI
 * uses for the same folder (checkpointRepository.ts). Memory is checkpointed through the
 * folder's current engine (looked up per call: settings changes rebuild engines).
 */
import type * as vscode from 'vscode';
import type { CheckpointMemoryEngine } from '../core/checkpoints/memoryRewind';
import type { CheckpointStore } from '../core/checkpoints/checkpointStore';
import { openCheckpoints } from './node/checkpointRepository';
import type { MemoryStores } from './memoryStores';
import type { SettingsSnapshot } from './settingsParse';

export class FolderCheckpoints {
  private readonly opened = new Map<string, Promise<CheckpointStore>>();

  constructor(
    private readonly stores: MemoryStores,
    private readonly settings: () => Readonly<SettingsSnapshot>,
  ) {}

  /** Undefined for a folder that is not on this machine's disk (a virtual workspace): git cannot reach it. */
  forFolder(folder: vscode.WorkspaceFolder): Promise<CheckpointStore> | undefined {
    if (folder.uri.scheme !== 'file') return undefined;
    const s = this.settings();
    const key = JSON.stringify([folder.uri.toString(), s.memoryFolder, s.checkpointMaxFileMegabytes]);
    let store = this.opened.get(key);
    if (store === undefined) {
      store = openCheckpoints(folder.uri.fsPath, {
        memoryFolder: s.memoryFolder,
        memory: this.engineOf(folder),
        maxFileBytes: s.checkpointMaxFileMegabytes * 1024 * 1024,
      });
      // A failure (no git) is tried again next time rather than remembered.
      store.catch(() => this.opened.delete(key));
      this.opened.set(key, store);
    }
    return store;
  }

  private engineOf(folder: vscode.WorkspaceFolder): CheckpointMemoryEngine {
    const engine = () => this.stores.forFolder(folder)?.engine;
    return {
      history: async () => (await engine()?.history()) ?? [],
      fileUses: async () => (await engine()?.fileUses()) ?? [],
      noticeChange: async (rel) => engine()?.noticeChange(rel),
      restore: async (rel, version, author) => {
        const e = engine();
        if (e === undefined) throw new Error('The memory store is not available.');
        return e.restore(rel, version, author);
      },
      delete: async (rel, author) => {
        const e = engine();
        if (e === undefined) throw new Error('The memory store is not available.');
        await e.delete(rel, author);
      },
    };
  }
}
