/**
 * Which conversation is on screen: the last one restored on start-up, New Chat, reopening and
 * deleting chats of Chat History. Each change runs after the restore and any earlier change,
 * and a send waits for it. Moved out of ChatController.
 */
import { restoreConversation } from '../../core/agent/conversationRepair';
import type { StoredChat } from '../../core/session/chatArchive';
import type { ChatPatch, ChatTranscript, SavedConversation } from './chatTranscript';
import type { ChatEnvironment } from './chatPort';
import type { ChatPersistence } from './chatPersistence';
import type { ChatFolders } from './chatFolders';
import type { ChatAgents } from './chatAgents';
import type { SummaryState } from './shared/changeSummary';

export interface ChatConversationsHooks {
  readonly transcript: ChatTranscript;
  readonly persistence: ChatPersistence;
  readonly folders: ChatFolders;
  readonly agents: ChatAgents;
  emit(patches: ChatPatch[]): void;
  isRunning(): boolean;
  /** Stops a running answer, refuses open questions and waits until the send is over. */
  settle(): Promise<void>;
  /** Refuses every question still open on a card. */
  denyAll(): void;
  /** Drops what the other parts keep of the conversation on screen (its rows stay until replaced). */
  forgetConversation(): void;
  /** A saved chat is shown again: its change summary comes back with it. */
  summaryRestored(state: SummaryState | undefined): void;
}

export class ChatConversations {
  /** The last conversation, restored from Chat History on start-up (start()); sends wait for it. */
  restored: Promise<void> = Promise.resolve();
  /**
   * The New Chat, reopen or delete under way: a send waits for it, or it would start in the
   * conversation being replaced and be wiped with it.
   */
  private switching: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly env: Pick<ChatEnvironment, 'archive' | 'log'>,
    private readonly hooks: ChatConversationsHooks,
  ) {}

  /** Start-up: restores the last conversation; resolves (never rejects) once it is shown. */
  start(): Promise<void> {
    this.restored = this.restoreLast().catch((error: unknown) => {
      this.env.log.error(`could not restore the last chat: ${error instanceof Error ? error.message : String(error)}`);
    });
    return this.restored;
  }

  /** Resolves once the New Chat, reopen or delete under way (if any) is over. */
  whenSwitched(): Promise<unknown> {
    return this.switching;
  }

  /** The chats of Chat History, most recently updated first (the current one included). */
  async listChats(): ReturnType<ChatPersistence['list']> {
    await this.restored;
    return this.hooks.persistence.list();
  }

  /**
   * Stops any running answer and starts an empty chat; the conversation stays in Chat History
   * (the empty chat offers to reopen it). Memory files stay.
   */
  newChat(): Promise<void> {
    const { persistence, transcript } = this.hooks;
    return this.switchConversation(async () => {
      await this.hooks.settle();
      await persistence.saveNow();
      const had = persistence.chatId !== undefined;
      this.hooks.forgetConversation();
      this.hooks.emit(transcript.clear());
      this.hooks.emit(transcript.setPendingKey(false));
      await this.env.archive.setCurrent(undefined);
      await persistence.refreshHasPrevious();
      this.env.log.info(had ? 'new chat; the previous conversation is kept in Chat History' : 'new chat');
    });
  }

  /**
   * Reopens the most recently updated other chat of Chat History (the empty chat's "Reopen the last one").
   * False when there is none or an answer is running.
   */
  async reopenPrevious(): Promise<boolean> {
    await this.restored;
    const other = (await this.env.archive.list()).find((c) => c.id !== this.hooks.persistence.chatId);
    return other ? this.openChat(other.id) : false;
  }

  /**
   * Shows chat `id` of Chat History instead of the current one (which stays in the list), and
   * Claude continues its history. False when it is not kept (any more) or an answer is running.
   */
  openChat(id: string): Promise<boolean> {
    const { persistence } = this.hooks;
    return this.switchConversation(async () => {
      if (this.hooks.isRunning()) return false;
      if (id === persistence.chatId) return true;
      await persistence.saveNow();
      const stored = await this.env.archive.load(id);
      if (!stored) {
        await persistence.refreshHasPrevious();
        return false;
      }
      this.hooks.denyAll();
      this.hooks.forgetConversation();
      this.show(stored);
      await this.env.archive.setCurrent(id);
      await persistence.refreshHasPrevious();
      this.env.log.info('reopened a chat from Chat History');
      return true;
    });
  }

  /**
   * Deletes chat `id` from Chat History; deleting the conversation on screen leaves an empty
   * chat. False when it is not kept, or it is the one answering right now.
   */
  deleteChat(id: string): Promise<boolean> {
    return this.switchConversation(async () => {
      const current = id === this.hooks.persistence.chatId;
      if (current && this.hooks.isRunning()) return false;
      if (current) {
        this.hooks.forgetConversation();
        this.hooks.emit(this.hooks.transcript.clear());
      }
      const removed = await this.env.archive.remove(id);
      await this.hooks.persistence.refreshHasPrevious();
      if (removed) this.env.log.info('deleted a chat from Chat History');
      return removed;
    });
  }

  /** Runs a change of the conversation on screen after the restore and any earlier change; sends wait for it. */
  private switchConversation<T>(work: () => Promise<T>): Promise<T> {
    const next = Promise.all([this.restored, this.switching]).then(work);
    this.switching = next.catch(() => undefined);
    return next;
  }

  /**
   * Puts a saved chat on screen and makes its history the next session's. A chat about a folder
   * that is still open switches the chat to it; one about a folder no longer open is shown, and
   * Claude starts the next message without it.
   */
  private show(stored: StoredChat<SavedConversation>): void {
    const { transcript, folders } = this.hooks;
    this.hooks.persistence.adopt(stored);
    folders.follow(stored.folder);
    const sameFolder = stored.folder === '' || stored.folder === (folders.currentStore()?.folder.uri.toString() ?? '');
    const conversation = restoreConversation(stored.history);
    this.hooks.agents.restore(sameFolder && conversation && conversation.length > 0 ? conversation : undefined);
    this.hooks.emit(transcript.restore(stored.transcript));
    this.hooks.summaryRestored(stored.transcript.changes);
    this.hooks.emit(transcript.setPendingKey(false));
    if (!sameFolder) {
      this.hooks.emit(transcript.notice(`This conversation was about the memory of "${stored.folderName}", which is not open: Claude starts the next message without it.`));
    } else if (stored.history.length > 0 && !conversation) {
      this.hooks.emit(transcript.notice('The saved conversation could not be read back for Claude: Claude starts the next message without it.'));
    }
  }

  /** Start-up: the chat shown when the window closed comes back (and a legacy set-aside chat joins the list). */
  private async restoreLast(): Promise<void> {
    const { persistence } = this.hooks;
    const stored = await persistence.loadLast();
    if (stored && !this.hooks.isRunning() && persistence.chatId === undefined && this.hooks.transcript.snapshot().entries.length === 0) {
      this.show(stored);
      this.env.log.info(stored.running ? 'restored the last chat; its answer was cut off by the reload and is shown as stopped' : 'restored the last chat');
      // Saved as stopped now, so the next reload does not stop it again.
      if (stored.running) await persistence.saveNow();
    }
    await persistence.refreshHasPrevious();
  }
}
