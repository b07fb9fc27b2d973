/**
 * The chat's port for VS Code: adapts the extension's shared services and VS Code's API to what
 * the chat's parts need (ChatEnvironment, chatPort.ts). The only file of the chat's parts' world
 * that calls `vscode.*`; the unit tests pass a fake port instead.
 */
import * as vscode from 'vscode';
import type { ExtensionServices } from '../../platform/services';
import { createWorkspaceTools, folderInfo } from '../../platform/workspaceTools';
import { CONTEXT_KEYS, VIEWS } from '../../platform/ids';
import type { ChatArchive } from '../../core/session/chatArchive';
import type { ChatEnvironment, ChatStore } from './chatPort';
import { promptWithAttachments } from './chatAttachmentPrompt';
import { ChatEdits } from './chatEdits';
import { chatMemoryExecutor } from './chatMemory';
import { storeFileReader } from '../../core/agent/compaction';
import type { SavedConversation } from './chatTranscript';
import { FolderCheckpoints } from '../../platform/folderCheckpoints';

export function chatEnvironment(
  services: ExtensionServices,
  state: vscode.Memento,
  archive: ChatArchive<SavedConversation>,
  extensionUri?: vscode.Uri,
): ChatEnvironment {
  const memoryLog = services.logger('chat memory');
  const checkpoints = new FolderCheckpoints(services.stores, () => services.settings.current);
  return {
    archive,
    checkpoints: (folder) => checkpoints.forFolder(folder),
    compactionInstructions: async () => {
      if (!extensionUri) return undefined;
      try {
        const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, 'media', 'templates', 'compaction-instructions.md'));
        return new TextDecoder().decode(bytes);
      } catch (error) {
        services.logger('chat').warn(`compaction instructions template unreadable; the API's default summary is used: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      }
    },
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
        memory: (author) => chatMemoryExecutor(services.stores, folder, author, memoryLog),
        uriOf: (memoryPath) => services.stores.forFolder(folder)?.uriOfMemoryPath(memoryPath),
        readFile: async (name) => {
          const current = services.stores.forFolder(folder.uri);
          return current ? storeFileReader(current.fs)(name) : undefined;
        },
      } satisfies ChatStore;
    },
    memoryTouched: (store, touched) => services.memoryActivity.fire({ ...touched, folder: store.folder }),
    folderOf: (uri) => vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === uri),
    folderInfo,
    promptWithAttachments,
    emitter: <T>() => new vscode.EventEmitter<T>(),
    createEdits: () => new ChatEdits(),
    setRunning: (running) => void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.chatRunning, running),
    startProgress: () => {
      let end!: () => void;
      const shown = new Promise<void>((resolve) => (end = resolve));
      void vscode.window.withProgress({ location: { viewId: VIEWS.chat } }, () => shown);
      return end;
    },
  };
}
