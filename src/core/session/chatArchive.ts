/**
 * The chats of one workspace, kept so they survive a window reload: an index (newest first, at
 * most MAX_CHATS, the oldest dropped) and one file per chat. Pure: the files are blobs behind
 * ChatBlobs (the extension keeps them in its workspace storage). What a chat holds besides its
 * summary is the caller's (`T`), checked by the caller's `parse` on the way back in.
 */
import { SerialQueue } from '../memory/mutex';
import { redactDeep } from '../memory/redaction';

/** Chats kept per workspace; saving one more drops the least recently updated. */
export const MAX_CHATS = 50;
/** Longest title, from the first message. */
export const TITLE_CHARS = 50;

const INDEX = 'index.json';
/** Opaque values the API checks byte for byte (thinking blocks' signatures, redacted thinking). */
const KEEP_AS_IS: ReadonlySet<string> = new Set(['signature', 'data', 'id', 'tool_use_id', 'folder']);
const ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

export interface ChatSummary {
  /** A random UUID. */
  id: string;
  /** The first message, trimmed (chatTitle). */
  title: string;
  /** Epoch milliseconds. */
  created: number;
  updated: number;
  /** The workspace folder's Uri (as a string) whose memory the chat used; '' when none yet. */
  folder: string;
  /** That folder's name, for the list. */
  folderName: string;
}

export interface StoredChat<T> extends ChatSummary {
  /** Messages the user sent in this chat (the turn a memory call belongs to). */
  turns: number;
  /** The transcript as the chat shows it. */
  transcript: T;
  /** The Messages API history, as the agent had it (repaired on the way back: historyRepair.ts). */
  history: unknown[];
  /** Saved while an answer was still running: it comes back as stopped. */
  running?: boolean;
}

/** Named text blobs: the extension's workspace storage, or a map in tests. */
export interface ChatBlobs {
  read(name: string): Promise<string | undefined>;
  write(name: string, text: string): Promise<void>;
  delete(name: string): Promise<void>;
}

interface ChatIndex {
  version: 1;
  /** The chat shown in the view (restored after a reload). */
  current?: string;
  /** Newest first. */
  chats: ChatSummary[];
}

/** "Fix the login form when the password…" from a first message. */
export function chatTitle(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= TITLE_CHARS) return flat || 'Untitled chat';
  const cut = flat.slice(0, TITLE_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function isSummary(value: unknown): value is ChatSummary {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'string' && ID_PATTERN.test(v.id) && typeof v.title === 'string' && typeof v.created === 'number' &&
    typeof v.updated === 'number' && typeof v.folder === 'string' && typeof v.folderName === 'string'
  );
}

function summaryOf(chat: ChatSummary): ChatSummary {
  return { id: chat.id, title: chat.title, created: chat.created, updated: chat.updated, folder: chat.folder, folderName: chat.folderName };
}

export class ChatArchive<T> {
  private readonly queue = new SerialQueue();
  private index: ChatIndex | undefined;

  constructor(
    private readonly blobs: ChatBlobs,
    /** Checks a stored transcript; undefined drops the chat as unreadable. */
    private readonly parse: (value: unknown) => T | undefined,
    private readonly maxChats = MAX_CHATS,
  ) {}

  /** The chats, most recently updated first. */
  list(): Promise<ChatSummary[]> {
    return this.queue.run(async () => (await this.readIndex()).chats.map(summaryOf));
  }

  /** The id of the chat the view showed last, if it is still kept. */
  current(): Promise<string | undefined> {
    return this.queue.run(async () => (await this.readIndex()).current);
  }

  /** A chat, or undefined when it is not kept or its file is unreadable (then it leaves the list). */
  load(id: string): Promise<StoredChat<T> | undefined> {
    return this.queue.run(async () => {
      const index = await this.readIndex();
      const summary = index.chats.find((c) => c.id === id);
      if (!summary) return undefined;
      const chat = this.parseChat(await this.blobs.read(fileOf(id)).catch(() => undefined), summary);
      if (!chat) await this.drop(index, id);
      return chat;
    });
  }

  /**
   * Writes the chat and puts it first in the list; `current` makes it the one restored after a
   * reload. Beyond the cap, the least recently updated chats and their files go.
   */
  save(given: StoredChat<T>, options: { current?: boolean } = {}): Promise<void> {
    if (!ID_PATTERN.test(given.id)) return Promise.reject(new Error(`not a chat id: ${given.id}`));
    // What is written down carries no secret (the transcript, the API history, the title); the
    // live chat still shows what was typed. Signatures of thinking blocks stay byte for byte.
    const chat = redactDeep(given, KEEP_AS_IS);
    return this.queue.run(async () => {
      await this.blobs.write(fileOf(chat.id), JSON.stringify(chat));
      const index = await this.readIndex();
      const chats = [summaryOf(chat), ...index.chats.filter((c) => c.id !== chat.id)].sort((a, b) => b.updated - a.updated);
      const dropped = chats.splice(this.maxChats);
      const current = options.current ? chat.id : index.current;
      await this.writeIndex({ version: 1, chats, ...(current && chats.some((c) => c.id === current) ? { current } : {}) });
      for (const old of dropped) await this.blobs.delete(fileOf(old.id)).catch(() => undefined);
    });
  }

  /** Which chat the view shows (undefined: an empty new chat). */
  setCurrent(id: string | undefined): Promise<void> {
    return this.queue.run(async () => {
      const index = await this.readIndex();
      if (index.current === id) return;
      const { current: _old, ...rest } = index;
      await this.writeIndex(id !== undefined && index.chats.some((c) => c.id === id) ? { ...rest, current: id } : rest);
    });
  }

  /** Deletes a chat and its file; false when it was not kept. */
  remove(id: string): Promise<boolean> {
    return this.queue.run(async () => {
      const index = await this.readIndex();
      if (!index.chats.some((c) => c.id === id)) return false;
      await this.drop(index, id);
      return true;
    });
  }

  private async drop(index: ChatIndex, id: string): Promise<void> {
    const { current, ...rest } = index;
    await this.writeIndex({ ...rest, chats: index.chats.filter((c) => c.id !== id), ...(current && current !== id ? { current } : {}) });
    await this.blobs.delete(fileOf(id)).catch(() => undefined);
  }

  private parseChat(text: string | undefined, summary: ChatSummary): StoredChat<T> | undefined {
    if (text === undefined) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (!isSummary(value) || value.id !== summary.id) return undefined;
    const v = value as unknown as Record<string, unknown>;
    const transcript = this.parse(v.transcript);
    if (transcript === undefined || !Array.isArray(v.history)) return undefined;
    return {
      ...summaryOf(value),
      turns: typeof v.turns === 'number' && v.turns >= 0 ? v.turns : 0,
      transcript,
      history: v.history,
      ...(v.running === true ? { running: true } : {}),
    };
  }

  private async readIndex(): Promise<ChatIndex> {
    if (this.index) return this.index;
    let chats: ChatSummary[] = [];
    let current: string | undefined;
    try {
      const value = JSON.parse((await this.blobs.read(INDEX)) ?? 'null') as unknown;
      if (typeof value === 'object' && value !== null && Array.isArray((value as ChatIndex).chats)) {
        chats = (value as ChatIndex).chats.filter(isSummary).map(summaryOf);
        const c = (value as ChatIndex).current;
        if (typeof c === 'string' && chats.some((x) => x.id === c)) current = c;
      }
    } catch {
      // An unreadable index is an empty one: the chat still works, only the list starts afresh.
    }
    this.index = { version: 1, chats, ...(current ? { current } : {}) };
    return this.index;
  }

  private async writeIndex(index: ChatIndex): Promise<void> {
    this.index = index;
    await this.blobs.write(INDEX, JSON.stringify(index));
  }
}

function fileOf(id: string): string {
  return `${id}.json`;
}
