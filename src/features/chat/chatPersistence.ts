/**
 * The persistence of chats: the conversation on screen's identity in Chat History, its saves
 * (soon after every change, before each send resolves, on flush) and the migration of the one
 * conversation New Chat set aside in the workspace state before Chat History. Moved out of
 * ChatController.
 */
import { randomUUID } from 'crypto';
import { STATE_KEYS } from '../../platform/ids';
import { trimConversation } from '../../core/agent/conversationRepair';
import { chatTitle, type ChatSummary, type StoredChat } from '../../core/session/chatArchive';
import type { BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { ChatAuthor } from './chatMemory';
import { parseSavedConversation, type ChatPatch, type ChatTranscript, type SavedConversation } from './chatTranscript';
import type { ChatEnvironment, ChatStore } from './chatPort';
import type { SummaryState } from './shared/changeSummary';

/**
 * Size cap of a saved chat's API history, in characters of JSON: Claude continues a reopened chat
 * with its latest part that fits. The transcript (what the chat shows) is saved whole: the
 * archive writes it in chunks, only the changed ones per save.
 */
export const MAX_SAVED_CONVERSATION_CHARS = 2_500_000;
/** How often a running answer is saved (a reload mid-answer keeps what was shown until then). */
export const SAVE_WHILE_RUNNING_MS = 1_000;

/** The conversation on screen, once it has a first message: what Chat History knows it by. */
export interface ChatIdentity {
  id: string;
  title: string;
  created: number;
  /** Messages sent in it so far (the one being answered included). */
  turns: number;
  /** The folder it was about (a Uri string) and its name, until a session says otherwise. */
  folder: string;
  folderName: string;
}

export interface ChatPersistenceHooks {
  readonly transcript: ChatTranscript;
  emit(patches: ChatPatch[]): void;
  /** True while a send runs (saves are then at most once a second). */
  isRunning(): boolean;
  /** The conversation Claude would continue, and the folder of its session (ChatAgents). */
  conversation(): readonly BetaMessageParam[];
  conversationFolder(): string | undefined;
  /** The change summary's state, saved with the chat. */
  summaryState(): SummaryState | undefined;
}

export class ChatPersistence {
  /** Undefined for an empty new chat: it joins Chat History with its first message. */
  private chat: ChatIdentity | undefined;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(
    private readonly env: Pick<ChatEnvironment, 'archive' | 'state' | 'log' | 'folderOf'>,
    private readonly hooks: ChatPersistenceHooks,
  ) {}

  /** The id of the conversation on screen; undefined for an empty new chat. */
  get chatId(): string | undefined {
    return this.chat?.id;
  }

  /** Who makes this chat's memory calls: the chat's id, the message being answered, its title. */
  author(): ChatAuthor {
    return { name: 'chat', ...(this.chat ? { session: this.chat.id, turn: this.chat.turns, title: this.chat.title } : {}) };
  }

  /** A message is sent: the conversation joins Chat History with its first one, titled after it. */
  countTurn(store: ChatStore, title: string): void {
    this.chat ??= { id: randomUUID(), title: chatTitle(title), created: Date.now(), turns: 0, folder: store.folder.uri.toString(), folderName: store.folder.name };
    this.chat.turns += 1;
  }

  /** The chat's title in Chat History becomes `title` (what a routine's session did); saved with the next save. */
  retitle(title: string): void {
    if (this.chat) this.chat.title = chatTitle(title);
  }

  /** A saved chat is put on screen: it is the one saved from now on. */
  adopt(stored: StoredChat<SavedConversation>): void {
    this.chat = { id: stored.id, title: stored.title, created: stored.created, turns: stored.turns, folder: stored.folder, folderName: stored.folderName };
  }

  /** The conversation on screen is replaced; the next message starts a new one. */
  forget(): void {
    this.chat = undefined;
  }

  /** The chats of Chat History, most recently updated first (the current one included). */
  list(): Promise<ChatSummary[]> {
    return this.env.archive.list();
  }

  /** The chat shown when the window closed (a legacy set-aside chat joins the list first). */
  async loadLast(): Promise<StoredChat<SavedConversation> | undefined> {
    await this.importLegacyPrevious();
    const id = await this.env.archive.current();
    return id ? await this.env.archive.load(id) : undefined;
  }

  /** The one conversation New Chat set aside in the workspace state, before Chat History. */
  private async importLegacyPrevious(): Promise<void> {
    const legacy = this.env.state.get<Record<string, unknown>>(STATE_KEYS.previousChat);
    if (legacy === undefined) return;
    const transcript = parseSavedConversation(legacy);
    const first = transcript?.entries.find((e) => e.kind === 'user');
    if (transcript && first?.kind === 'user') {
      const folder = typeof legacy.folder === 'string' ? legacy.folder : '';
      const now = Date.now();
      await this.env.archive.save({
        id: randomUUID(),
        title: chatTitle(first.label ?? first.text),
        created: now,
        updated: now,
        folder,
        folderName: this.env.folderOf(folder)?.name ?? '',
        turns: transcript.entries.filter((e) => e.kind === 'user').length,
        transcript,
        history: Array.isArray(legacy.history) ? legacy.history : [],
      });
    }
    await this.env.state.update(STATE_KEYS.previousChat, undefined);
  }

  async refreshHasPrevious(): Promise<void> {
    const others = (await this.env.archive.list()).some((c) => c.id !== this.chat?.id);
    this.hooks.emit(this.hooks.transcript.setHasPrevious(others));
  }

  /** Saves soon: at once when idle, at most once a second while an answer streams. */
  scheduleSave(): void {
    if (this.saveTimer || this.disposed || !this.chat) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.saveNow();
    }, this.hooks.isRunning() ? SAVE_WHILE_RUNNING_MS : 0);
  }

  /**
   * Writes the conversation on screen to Chat History (as the current chat). While an answer
   * runs it is saved as running: restored after a reload, it ends as stopped. A failed write is
   * logged; the chat goes on.
   */
  async saveNow(): Promise<void> {
    const chat = this.chat;
    if (this.disposed || !chat) return;
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
    }
    const transcript: SavedConversation = { ...this.hooks.transcript.saved(), changes: this.hooks.summaryState() };
    if (transcript.entries.length === 0) return;
    const conversation = this.hooks.conversation();
    const folder = this.hooks.conversationFolder() ?? chat.folder;
    const folderName = this.env.folderOf(folder)?.name ?? chat.folderName;
    const record: StoredChat<SavedConversation> = {
      id: chat.id,
      title: chat.title,
      created: chat.created,
      updated: Date.now(),
      folder,
      folderName,
      turns: chat.turns,
      transcript,
      history: trimConversation(conversation, MAX_SAVED_CONVERSATION_CHARS),
      ...(transcript.send ? { running: true } : {}),
    };
    try {
      await this.env.archive.save(record, { current: true });
    } catch (error) {
      this.env.log.error(`could not save the chat: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * A window that reloads disposes the chat while the next window may already be saving: from
   * here on nothing is written, so what was saved last stays (deactivate's flush comes before).
   */
  dispose(): void {
    this.disposed = true;
    if (this.saveTimer) clearTimeout(this.saveTimer);
  }
}
