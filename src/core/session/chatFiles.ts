/**
 * The files of the chat archive (chatArchive.ts): the index's and a chat's shapes, the names of a
 * chat's head and chunk files, and the checks that a file read back is what it claims to be.
 */

/** Longest title, from the first message. */
export const TITLE_CHARS = 50;

/** The archive's list of chats. */
export const INDEX = 'index.json';
/** Rows per chunk file: an exchange is a handful of rows, so a save rewrites one or two chunks. */
export const ROWS_PER_CHUNK = 16;
/** API history messages per chunk file. */
export const MESSAGES_PER_CHUNK = 8;
/**
 * 3: chunks written by a save get new names (`<id>.r0-7.json`), and the head lists them, so a save
 * cut between its chunks and its head (a window reloaded mid-save) leaves the previous save whole.
 * 2: chunks under fixed names (`<id>.r0.json`); still read (as generation 0 of every chunk).
 */
export const CHAT_VERSION = 3;
export const ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

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

/** How the growing array of a transcript is taken out of it (stored in chunks) and put back. */
export interface RowSplitter<T> {
  split(transcript: T): { rows: readonly unknown[]; rest: unknown };
  join(rest: unknown, rows: unknown[]): unknown;
}

/** The head file of a chunked chat (version 2). */
export interface ChatHead extends ChatSummary {
  version: 2 | 3;
  turns: number;
  running?: true;
  /** The transcript without its rows. */
  rest: unknown;
  rows: number;
  messages: number;
  /** Version 3: the saves' counter, and the save (generation) that wrote each chunk in use. */
  gen?: number;
  parts?: { r: number[]; h: number[] };
}

/** Which chunk files hold a chat: the generation of each row and message chunk. */
export interface ChunkLayout {
  gen: number;
  r: number[];
  h: number[];
}

export interface ChatIndex {
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

export function isSummary(value: unknown): value is ChatSummary {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'string' && ID_PATTERN.test(v.id) && typeof v.title === 'string' && typeof v.created === 'number' &&
    typeof v.updated === 'number' && typeof v.folder === 'string' && typeof v.folderName === 'string'
  );
}

export function summaryOf(chat: ChatSummary): ChatSummary {
  return { id: chat.id, title: chat.title, created: chat.created, updated: chat.updated, folder: chat.folder, folderName: chat.folderName };
}

export function fileOf(id: string): string {
  return `${id}.json`;
}

/** Chunk `k`'s file as written by save `gen` (0: the fixed name of version-2 chats). */
export function chunkOf(id: string, kind: 'r' | 'h', k: number, gen: number): string {
  return gen === 0 ? `${id}.${kind}${k}.json` : `${id}.${kind}${k}-${gen}.json`;
}

/** The chunk files a head names: listed (version 3) or at the fixed names (version 2). */
export function layoutOf(head: Partial<ChatHead>): ChunkLayout | undefined {
  if (typeof head.rows !== 'number' || typeof head.messages !== 'number') return undefined;
  const fixed = (items: number, size: number): number[] => new Array<number>(chunkCount(items, size)).fill(0);
  if (head.version === 2) return { gen: 0, r: fixed(head.rows, ROWS_PER_CHUNK), h: fixed(head.messages, MESSAGES_PER_CHUNK) };
  if (head.version !== 3) return undefined;
  const gens = (value: unknown, items: number, size: number): number[] | undefined =>
    Array.isArray(value) && value.length === chunkCount(items, size) && value.every((g) => Number.isSafeInteger(g) && g >= 0) ? (value as number[]) : undefined;
  const r = gens(head.parts?.r, head.rows, ROWS_PER_CHUNK);
  const h = gens(head.parts?.h, head.messages, MESSAGES_PER_CHUNK);
  if (!r || !h || !Number.isSafeInteger(head.gen) || (head.gen as number) < 0) return undefined;
  return { gen: head.gen as number, r, h };
}

function chunkCount(items: number, size: number): number {
  return Math.ceil(items / size);
}

/** The head of a chunked chat, or undefined (not one: a version 1 chat, or unreadable). */
export function headOf(text: string | undefined, summary: ChatSummary): ChatHead | undefined {
  const v = chatJson(text, summary);
  if (v === undefined) return undefined;
  if ((v.version !== 2 && v.version !== CHAT_VERSION) || typeof v.rows !== 'number' || typeof v.messages !== 'number' || v.rows < 0 || v.messages < 0) return undefined;
  return v as unknown as ChatHead;
}

/** A chat file's JSON when it parses and names the chat `summary` lists, else undefined. */
function chatJson(text: string | undefined, summary: ChatSummary): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isSummary(value) && value.id === summary.id ? (value as unknown as Record<string, unknown>) : undefined;
}

/** A chat saved whole in one file (version 1), or undefined when it is unreadable. */
export function wholeChatOf<T>(text: string | undefined, summary: ChatSummary, parse: (value: unknown) => T | undefined): StoredChat<T> | undefined {
  const v = chatJson(text, summary);
  if (v === undefined) return undefined;
  const transcript = parse(v.transcript);
  if (transcript === undefined || !Array.isArray(v.history)) return undefined;
  return {
    ...summaryOf(v as unknown as ChatSummary),
    turns: typeof v.turns === 'number' && v.turns >= 0 ? v.turns : 0,
    transcript,
    history: v.history,
    ...(v.running === true ? { running: true } : {}),
  };
}
