/** Adapts the extension's shared services to what the chat needs (ChatEnvironment). */
import * as vscode from 'vscode';
import type { MemoryToolExecutor, MemoryToolResult } from '../core/memory/types';
import type { ExtensionServices } from '../platform/services';
import { createWorkspaceTools } from '../platform/workspaceTools';
import type { ChatEnvironment, ChatStore } from './chatController';

export function chatEnvironment(services: ExtensionServices, state: vscode.Memento): ChatEnvironment {
  return {
    // The chat's own approver asks on the call's card (ChatApprover).
    workspaceTools: (folder, approver) =>
      createWorkspaceTools({ folder, approver, settings: () => services.settings.current, memento: state, log: services.logger('tools') }),
    log: services.logger('chat'),
    apiKey: () => services.apiKey.get(),
    keyState: async () => {
      const key = await services.apiKey.getWithSource();
      return !key ? 'missing' : key.source === 'secretStorage' ? 'stored' : 'environment';
    },
    onDidChangeKey: services.apiKey.onDidChange,
    state,
    pathOf: (uri) => {
      const memoryPath = services.stores.forUri(uri)?.memoryPathOf(uri);
      if (memoryPath) return memoryPath;
      return vscode.workspace.asRelativePath(uri, vscode.workspace.workspaceFolders !== undefined && vscode.workspace.workspaceFolders.length > 1);
    },
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
