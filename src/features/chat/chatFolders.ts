/**
 * Which folder's memory the chat works in (the first unless the user chose another), whether
 * the chat is usable at all (trust, an open folder) and the empty chat's starter line. Moved out
 * of ChatController.
 */
import { parseFeatures, summarizeFeatures } from '../../core/session/features';
import { SESSION_FILES } from '../../core/session/memoryFiles';
import type { DisabledAction } from './shared/protocol';
import type { ChatPatch, ChatTranscript } from './chatTranscript';
import type { ChatEmitter, ChatEnvironment, ChatEvent, ChatFolder, ChatStore, ChatUri } from './chatPort';
import { ToolEntryFolders, type EntryStoreLookup } from './toolEntryFolders';

export type ChatFolderResult = { ok: true; changed: boolean } | { ok: false; reason: string };

export interface ChatFoldersHooks {
  readonly transcript: ChatTranscript;
  emit(patches: ChatPatch[]): void;
  /** True while a send runs. */
  isRunning(): boolean;
  /** The chat leaves the folder: its session is not continued, a retry is dropped. */
  leftFolder(): void;
}

export class ChatFolders {
  /** The folder the user (or a command) chose; undefined means the first folder. */
  private chosenFolder: ChatUri | undefined;
  private readonly folderChanges: ChatEmitter<void>;
  /** Fires when the folder whose memory the chat uses changes. */
  readonly onDidChangeFolder: ChatEvent<void>;
  /** The folder each tool card's call ran in, so a card opens its own folder's file after a switch. */
  readonly toolFolders = new ToolEntryFolders<ChatFolder>();

  constructor(
    private readonly env: Pick<ChatEnvironment, 'store' | 'folderOf' | 'isTrusted' | 'settings' | 'log' | 'emitter'>,
    private readonly hooks: ChatFoldersHooks,
  ) {
    this.folderChanges = env.emitter<void>();
    this.onDidChangeFolder = this.folderChanges.event;
  }

  /**
   * The store the chat works in: the chosen folder's, else the first folder's (also when the
   * chosen folder was removed from the workspace).
   */
  currentStore(): ChatStore | undefined {
    return (this.chosenFolder && this.env.store(this.chosenFolder)) || this.env.store(undefined);
  }

  /**
   * The store a tool card's path opens in: the one of the folder its call ran in (see
   * ToolEntryFolders.storeFor for removed folders and unknown ids).
   */
  storeForEntry(entryId: string): EntryStoreLookup<ChatStore> {
    return this.toolFolders.storeFor(entryId, (folder) => this.env.store(folder.uri), () => this.currentStore());
  }

  /**
   * Makes the chat work in `folder`'s memory. The next message starts a new session with the
   * usual notice (see ChatAgents.agentFor): the earlier conversation was about the other folder's files.
   */
  useFolder(folder: ChatUri): ChatFolderResult {
    const store = this.env.store(folder);
    if (!store) return { ok: false, reason: `${folder.toString(true)} is not a folder of this workspace.` };
    if (this.currentStore()?.folder.uri.toString() === store.folder.uri.toString()) return { ok: true, changed: false };
    // The running answer keeps writing to its own folder; switching under it would make the view
    // name one folder while Claude changes another.
    if (this.hooks.isRunning()) return { ok: false, reason: 'Claude is still answering: stop the answer or wait for it, then choose another folder.' };
    this.chosenFolder = store.folder.uri;
    // Switching away ends the conversation, even if the chat comes back to this folder later; a
    // retry ("continue") belongs to the other folder's conversation.
    this.hooks.leftFolder();
    this.env.log.info(`the chat now works in folder "${store.folder.name}"`);
    this.folderChanges.fire();
    void this.refreshStarter();
    return { ok: true, changed: true };
  }

  /** A reopened chat about a folder that is still open switches the chat to it (ChatConversations.show). */
  follow(folderUri: string): void {
    const folder = folderUri ? this.env.folderOf(folderUri) : undefined;
    if (folder && this.currentStore()?.folder.uri.toString() !== folderUri && this.env.store(folder.uri)) {
      this.chosenFolder = folder.uri;
      this.folderChanges.fire();
    }
  }

  /**
   * The empty chat's line and starter actions: the folder, the model, and whether the folder's
   * checklist has a feature left (Resume Session is offered only then). Call when the folder, the
   * model or features.json may have changed.
   */
  async refreshStarter(): Promise<void> {
    const store = this.currentStore();
    if (!store) {
      this.hooks.emit(this.hooks.transcript.setStarter(undefined));
      return;
    }
    let canResume = false;
    try {
      const text = await store.readFile?.(SESSION_FILES.features);
      const parsed = text === undefined ? undefined : parseFeatures(text);
      canResume = parsed?.ok === true && summarizeFeatures(parsed.features).nextFailing !== undefined;
    } catch {
      // Unreadable: nothing to offer.
    }
    // The folder may have changed while the file was read.
    if (this.currentStore()?.folder.uri.toString() !== store.folder.uri.toString()) return;
    this.hooks.emit(this.hooks.transcript.setStarter({ folder: store.folder.name, model: this.env.settings().model, canResume }));
  }

  /** Recomputes why the chat is unusable (trust, folders); call when either changes. */
  refreshAvailability(): void {
    if (this.chosenFolder && !this.env.store(this.chosenFolder)) {
      // The chosen folder was closed: back to the default, and say so in the view.
      this.chosenFolder = undefined;
      this.folderChanges.fire();
    }
    const disabled = this.disabled();
    this.hooks.emit(this.hooks.transcript.setDisabledReason(disabled?.reason, disabled?.action));
    void this.refreshStarter();
  }

  /** Why the chat cannot send now (Restricted Mode, no folder); undefined when it can. */
  disabled(): { reason: string; action: DisabledAction } | undefined {
    if (!this.env.isTrusted()) {
      return {
        reason: 'Chat is off in Restricted Mode: memory files in an untrusted workspace may carry a stranger\'s instructions, and Claude would write files here. Trust the workspace to chat.',
        action: 'manageTrust',
      };
    }
    if (!this.currentStore()) {
      return { reason: `Open a folder to chat: Claude keeps its memory in the folder's ${this.env.settings().memoryFolder}/ directory.`, action: 'openFolder' };
    }
    return undefined;
  }

  dispose(): void {
    this.folderChanges.dispose();
  }
}
