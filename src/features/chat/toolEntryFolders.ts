/**
 * Which workspace folder each tool card of the chat belongs to. The chat can switch folders in
 * a multi-root workspace while older cards stay on screen; a card's path must open in the memory
 * of the folder its tool call ran in, not in the folder the chat works in now. Pure (no `vscode`):
 * the controller records folders as tool cards appear, registerChat resolves them on a click.
 */
import type { ChatPatch } from './chatTranscript';

/** A resolved store for a card, or why there is none (shown to the user as is). */
export type EntryStoreLookup<S> = { ok: true; store: S } | { ok: false; reason: string };

export class ToolEntryFolders<F extends { readonly name: string }> {
  private readonly folders = new Map<string, F>();

  /**
   * Records `folder` for every tool card these patches add. The first record wins: a card is
   * updated (tool_end) within the same send, and its folder never changes after it appeared.
   */
  record(patches: readonly ChatPatch[], folder: F): void {
    for (const patch of patches) {
      if (patch.type !== 'entry' || patch.entry.kind !== 'tool') continue;
      if (!this.folders.has(patch.entry.id)) this.folders.set(patch.entry.id, folder);
    }
  }

  folderOf(entryId: string): F | undefined {
    return this.folders.get(entryId);
  }

  /** Forgets every card ("New chat" removes them all). */
  clear(): void {
    this.folders.clear();
  }

  get size(): number {
    return this.folders.size;
  }

  /**
   * The store a card's path opens in: its recorded folder's. A recorded folder that is gone is an
   * error, never a silent switch to another folder's file of the same name. An unknown card (a
   * webview message that raced New Chat) falls back to the chat's current store.
   */
  storeFor<S>(entryId: string, storeOf: (folder: F) => S | undefined, current: () => S | undefined): EntryStoreLookup<S> {
    const folder = this.folders.get(entryId);
    if (folder) {
      const store = storeOf(folder);
      if (store !== undefined) return { ok: true, store };
      return { ok: false, reason: `The folder "${folder.name}" this card's file belongs to is no longer open in this workspace.` };
    }
    const store = current();
    if (store !== undefined) return { ok: true, store };
    return { ok: false, reason: 'Open a folder first: there is no memory to open this file in.' };
  }
}
