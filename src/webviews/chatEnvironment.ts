/** Adapts the extension's shared services to what the chat needs (ChatEnvironment). */
import * as vscode from 'vscode';
import type { MemoryToolExecutor, MemoryToolResult } from '../core/memory/types';
import { createModalApprover } from '../platform/modalApprover';
import type { ExtensionServices } from '../platform/services';
import { createWorkspaceTools } from '../platform/workspaceTools';
import type { ChatEnvironment, ChatStore } from './chatController';

export function chatEnvironment(services: ExtensionServices, workspaceState: vscode.Memento): ChatEnvironment {
  // Until the chat asks on the call's card, a modal dialog asks (its own file: easy to swap).
  const approver = createModalApprover();
  return {
    workspaceTools: (folder) =>
      createWorkspaceTools({ folder, approver, settings: () => services.settings.current, memento: workspaceState, log: services.logger('tools') }),
    log: services.logger('chat'),
    apiKey: () => services.apiKey.get(),
    settings: () => services.settings.current,
    isTrusted: () => services.trust.isTrusted(),
    // Multi-root: the controller remembers which folder the user chose; undefined is the first.
    store: (folderUri) => {
      const store = folderUri ? services.stores.forFolder(folderUri) : services.stores.primary();
      if (!store) return undefined;
      const folder = store.folder;
      return {
        folder,
        engine: currentEngineOf(services, folder),
        uriOf: (memoryPath) => services.stores.forFolder(folder)?.uriOfMemoryPath(memoryPath),
      } satisfies ChatStore;
    },
    memoryTouched: (store, touched) => services.memoryActivity.fire({ ...touched, folder: store.folder }),
  };
}

/**
 * Stores are rebuilt when engine settings change; a session outlives that, so its tool calls go
 * to whatever engine the folder has at the time of the call, not the one it started with.
 */
function currentEngineOf(services: ExtensionServices, folder: vscode.WorkspaceFolder): MemoryToolExecutor {
  return {
    execute(input: unknown, signal?: AbortSignal): Promise<MemoryToolResult> {
      const store = services.stores.forFolder(folder);
      if (!store) {
        return Promise.resolve({ is_error: true, content: 'Error: the memory store is no longer available (its workspace folder was closed).' });
      }
      return store.engine.execute(input, signal);
    },
  };
}
