/**
 * Where the chats of a workspace are kept (ChatArchive's blobs): files in the extension's
 * workspace storage (`ExtensionContext.storageUri`/chats, outside the workspace, so nothing a
 * repository holds can plant or read them), written through workspace.fs. Without a storage
 * folder (VS Code gives none when no folder is open) the workspace state holds them instead.
 */
import * as vscode from 'vscode';
import type { ChatBlobs } from '../core/session/chatArchive';
import { STATE_KEYS } from './ids';

const FOLDER = 'chats';

export function workspaceChatBlobs(storageUri: vscode.Uri | undefined, state: vscode.Memento): ChatBlobs {
  return storageUri ? fileBlobs(vscode.Uri.joinPath(storageUri, FOLDER)) : mementoBlobs(state);
}

function fileBlobs(folder: vscode.Uri): ChatBlobs {
  const fs = vscode.workspace.fs;
  let made: Thenable<void> | undefined;
  return {
    async read(name) {
      try {
        return new TextDecoder().decode(await fs.readFile(vscode.Uri.joinPath(folder, name)));
      } catch (e) {
        if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') return undefined;
        throw e;
      }
    },
    async write(name, text) {
      made ??= fs.createDirectory(folder);
      await made;
      // Written beside, then renamed over: a reload mid-write leaves the old file whole.
      const target = vscode.Uri.joinPath(folder, name);
      const temporary = vscode.Uri.joinPath(folder, `${name}.tmp`);
      await fs.writeFile(temporary, new TextEncoder().encode(text));
      await fs.rename(temporary, target, { overwrite: true });
    },
    async delete(name) {
      try {
        await fs.delete(vscode.Uri.joinPath(folder, name));
      } catch (e) {
        if (!(e instanceof vscode.FileSystemError && e.code === 'FileNotFound')) throw e;
      }
    },
  };
}

function mementoBlobs(state: vscode.Memento): ChatBlobs {
  const key = (name: string): string => `${STATE_KEYS.chatsPrefix}${name}`;
  return {
    read: (name) => Promise.resolve(state.get<string>(key(name))),
    write: (name, text) => Promise.resolve(state.update(key(name), text)),
    delete: (name) => Promise.resolve(state.update(key(name), undefined)),
  };
}
