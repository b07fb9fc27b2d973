/**
 * The memory tool as the chat's agent calls it. Every memory call of the chat passes through
 * chatMemoryExecutor, so this is where each call's author goes to the engine: `author()` names
 * the chat (`session`: its id), the user's message being answered (`turn`, from 1) and the chat's
 * title, as they are at the time of the call.
 */
import type * as vscode from 'vscode';
import type { MemoryToolExecutor, MemoryToolResult } from '../../core/memory/types';
import type { Logger } from '../../platform/logger';
import type { MemoryStores } from '../../platform/memoryStores';

/** Who makes a chat's memory calls (the engine's author of a version). */
export interface ChatAuthor {
  name: 'chat';
  session?: string;
  turn?: number;
  title?: string;
}

/**
 * Stores are rebuilt when engine settings change; a session outlives that, so each call goes to
 * whatever engine the folder has at the time of the call, not the one the session started with.
 */
export function chatMemoryExecutor(stores: MemoryStores, folder: vscode.WorkspaceFolder, author: () => ChatAuthor, log: Logger): MemoryToolExecutor {
  return {
    execute(input: unknown, signal?: AbortSignal): Promise<MemoryToolResult> {
      const store = stores.forFolder(folder);
      if (!store) {
        return Promise.resolve({ is_error: true, content: 'Error: the memory store is no longer available (its workspace folder was closed).' });
      }
      const by = author();
      log.trace(`memory call in "${folder.name}" by chat ${by.session ?? '(unsaved)'}, turn ${by.turn ?? 0}`);
      return store.engine.execute(input, signal, by);
    },
  };
}
