/**
 * The chats of one workspace, kept so they survive a window reload: an index (newest first, at
 * most MAX_CHATS, the oldest dropped) and per chat a small head file plus its rows and its API
 * history in chunks of fixed length. Pure: the files are blobs behind ChatBlobs (the extension
 * keeps them in its workspace storage). What a chat holds besides its summary is the caller's
 * (`T`), checked by the caller's `parse` on the way back in; `rows` says which array of it grows.
 *
 * A save writes only what changed: a chunk whose text is the one last written or read is not
 * written again, so a long chat costs a save the size of its last chunks and its head, not of
 * the whole chat. Nothing is cut. Every write goes through `writeJson` (the one place to filter
 * what reaches the disk). Chats saved whole in one file (version 1) are read, and rewritten in
 * chunks when loaded.
 */
import { SerialQueue } from '../memory/mutex';
import { redactDeep } from '../memory/redaction';
import { headOf, fileOf, chunkOf, layoutOf, summaryOf, isSummary, wholeChatOf, CHAT_VERSION, ID_PATTERN, INDEX, MESSAGES_PER_CHUNK, ROWS_PER_CHUNK } from './chatFiles';
import type { ChatBlobs, ChatHead, ChatIndex, ChatSummary, ChunkLayout, RowSplitter, StoredChat } from './chatFiles';

export { chatTitle, MESSAGES_PER_CHUNK, ROWS_PER_CHUNK, TITLE_CHARS, type ChatBlobs, type ChatSummary, type RowSplitter, type StoredChat } from './chatFiles';

/** Chats kept per workspace; saving one more drops the least recently updated. */
export const MAX_CHATS = 50;

/** Opaque values the API checks byte for byte (thinking blocks' signatures, redacted thinking). */
const KEEP_AS_IS: ReadonlySet<string> = new Set(['signature', 'data', 'id', 'tool_use_id', 'folder']);

export class ChatArchive<T> {
  private readonly queue = new SerialQueue();
  private index: ChatIndex | undefined;
  /** The text of each chunk as last written or read, so an unchanged chunk is not written again. */
  private readonly known = new Map<string, string>();
  /** The chunk files of each chat as last written or read: unchanged chunks are kept, replaced ones deleted. */
  private readonly layouts = new Map<string, ChunkLayout>();

  constructor(
    private readonly blobs: ChatBlobs,
    /** Checks a stored transcript; undefined drops the chat as unreadable. */
    private readonly parse: (value: unknown) => T | undefined,
    private readonly maxChats = MAX_CHATS,
    /** The transcript's rows, stored in chunks; without it the transcript is kept whole in the head. */
    private readonly rows?: RowSplitter<T>,
  ) {}

  /** Bytes handed to the blobs so far (the chat benchmark reports them per answer). */
  bytesWritten = 0;

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
      const text = await this.blobs.read(fileOf(id)).catch(() => undefined);
      const head = headOf(text, summary);
      const chat = head ? await this.readChunked(head) : wholeChatOf(text, summary, this.parse);
      if (!chat) {
        await this.drop(index, id);
        return undefined;
      }
      // A chat saved whole (before chunks) is rewritten in chunks now, so its next save is small.
      if (!head) await this.writeChat(chat);
      return chat;
    });
  }

  /**
   * Writes the chat and puts it first in the list; `current` makes it the one restored after a
   * reload. Beyond the cap, the least recently updated chats and their files go.
   */
  save(chat: StoredChat<T>, options: { current?: boolean } = {}): Promise<void> {
    if (!ID_PATTERN.test(chat.id)) return Promise.reject(new Error(`not a chat id: ${chat.id}`));
    return this.queue.run(async () => {
      await this.writeChat(chat);
      const index = await this.readIndex();
      const chats = [summaryOf(chat), ...index.chats.filter((c) => c.id !== chat.id)].sort((a, b) => b.updated - a.updated);
      const dropped = chats.splice(this.maxChats);
      const current = options.current ? chat.id : index.current;
      await this.writeIndex({ version: 1, chats, ...(current && chats.some((c) => c.id === current) ? { current } : {}) });
      for (const old of dropped) await this.deleteChat(old.id);
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
    await this.deleteChat(id);
  }

  /**
   * The chat's chunks that changed, each to a new file, then its head, which names the chunks in
   * use: writing the head (a rename over the old one) is the save's commit point. The chunks it
   * replaced are deleted after it, so until then the previous head still finds all of its own.
   */
  private async writeChat(chat: StoredChat<T>): Promise<void> {
    const split = this.rows ? this.rows.split(chat.transcript) : { rows: [], rest: chat.transcript };
    const before = this.layouts.get(chat.id) ?? (await this.readLayout(chat.id));
    const gen = before.gen + 1;
    const r = await this.writeChunks(chat.id, 'r', split.rows, ROWS_PER_CHUNK, before.r, gen);
    const h = await this.writeChunks(chat.id, 'h', chat.history, MESSAGES_PER_CHUNK, before.h, gen);
    const head: ChatHead = {
      version: CHAT_VERSION,
      ...summaryOf(chat),
      turns: chat.turns,
      ...(chat.running ? { running: true as const } : {}),
      rest: split.rest,
      rows: split.rows.length,
      messages: chat.history.length,
      gen,
      parts: { r, h },
    };
    await this.writeJson(fileOf(chat.id), head);
    this.layouts.set(chat.id, { gen, r, h });
    // Chunks replaced by this save, or past its end (rows voided by a retry, a history that
    // compaction shortened), go.
    for (const kind of ['r', 'h'] as const) {
      const now = kind === 'r' ? r : h;
      for (const [k, g] of (kind === 'r' ? before.r : before.h).entries()) {
        if (now[k] !== g) await this.deleteBlob(chunkOf(chat.id, kind, k, g));
      }
    }
  }

  /** Writes the chunks that differ from the ones in use, to files of generation `gen`; returns each chunk's generation. */
  private async writeChunks(id: string, kind: 'r' | 'h', items: readonly unknown[], size: number, inUse: readonly number[], gen: number): Promise<number[]> {
    const gens: number[] = [];
    for (let k = 0; k * size < items.length; k++) {
      const chunk = items.slice(k * size, (k + 1) * size);
      const old = inUse[k];
      const raw = JSON.stringify(chunk);
      if (old !== undefined && this.known.get(chunkOf(id, kind, k, old)) === raw) {
        gens.push(old);
        continue;
      }
      await this.writeJson(chunkOf(id, kind, k, gen), chunk, raw);
      gens.push(gen);
    }
    return gens;
  }

  /** The chunk files named by the head on disk, for a chat not read or written by this archive yet. */
  private async readLayout(id: string): Promise<ChunkLayout> {
    const text = await this.blobs.read(fileOf(id)).catch(() => undefined);
    try {
      const v = JSON.parse(text ?? 'null') as Partial<ChatHead> | null;
      if (v && typeof v === 'object') {
        const layout = layoutOf(v);
        if (layout) return layout;
      }
    } catch {
      // Not a chunked chat: no chunks to delete.
    }
    return { gen: 0, r: [], h: [] };
  }

  private async readChunked(head: ChatHead): Promise<StoredChat<T> | undefined> {
    const layout = layoutOf(head);
    if (!layout) return undefined;
    const rows = await this.readChunks(head.id, 'r', head.rows, ROWS_PER_CHUNK, layout.r);
    const history = await this.readChunks(head.id, 'h', head.messages, MESSAGES_PER_CHUNK, layout.h);
    if (!rows || !history) return undefined;
    const transcript = this.parse(this.rows ? this.rows.join(head.rest, rows) : head.rest);
    if (transcript === undefined) return undefined;
    this.layouts.set(head.id, layout);
    return {
      ...summaryOf(head),
      turns: typeof head.turns === 'number' && head.turns >= 0 ? head.turns : 0,
      transcript,
      history,
      ...(head.running === true ? { running: true } : {}),
    };
  }

  /** All `count` items of a chat's chunks, or undefined when one is missing or unreadable. */
  private async readChunks(id: string, kind: 'r' | 'h', count: number, size: number, gens: readonly number[]): Promise<unknown[] | undefined> {
    const items: unknown[] = [];
    for (let k = 0; k * size < count; k++) {
      const name = chunkOf(id, kind, k, gens[k] ?? 0);
      const text = await this.blobs.read(name).catch(() => undefined);
      if (text === undefined) return undefined;
      let chunk: unknown;
      try {
        chunk = JSON.parse(text);
      } catch {
        return undefined;
      }
      if (!Array.isArray(chunk)) return undefined;
      this.known.set(name, text);
      items.push(...(chunk as unknown[]));
    }
    return items.length === count ? items : undefined;
  }

  private async deleteChat(id: string): Promise<void> {
    const layout = this.layouts.get(id) ?? (await this.readLayout(id));
    await this.deleteBlob(fileOf(id));
    for (const [k, g] of layout.r.entries()) await this.deleteBlob(chunkOf(id, 'r', k, g));
    for (const [k, g] of layout.h.entries()) await this.deleteBlob(chunkOf(id, 'h', k, g));
    this.layouts.delete(id);
  }

  private async deleteBlob(name: string): Promise<void> {
    this.known.delete(name);
    await this.blobs.delete(name).catch(() => undefined);
  }

  /**
   * The one way a chat reaches the disk: every head, chunk and index goes through here. What is
   * written down carries no secret (the transcript, the API history, the title); the live chat
   * still shows what was typed, and signatures of thinking blocks stay byte for byte. A file
   * whose text is the one last written or read here is neither redacted nor written again.
   */
  private async writeJson(name: string, value: unknown, raw = JSON.stringify(value)): Promise<void> {
    if (this.known.get(name) === raw) return;
    const text = JSON.stringify(redactDeep(value, KEEP_AS_IS));
    await this.blobs.write(name, text);
    this.bytesWritten += text.length;
    this.known.set(name, raw);
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
    await this.writeJson(INDEX, index);
  }
}
