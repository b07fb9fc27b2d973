/**
 * The chat webview's message protocol, shared by the extension (src/webviews) and the webview
 * script (media/src). Pure TypeScript: no `vscode`, no DOM, so both tsconfigs compile it.
 *
 * Handshake: the webview posts `ready` first; the extension posts nothing before it and answers
 * with a full `snapshot`. After that it posts small patches (`entry`, `text`, `remove`, `status`).
 */

/** Token counts of one model request (same fields as the API's usage). */
export interface TokenUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  output_tokens: number;
}

/** What a button under an error can do. */
export type ErrorAction = 'setApiKey' | 'retry' | 'openSettings';

/** What the button on the "chat is off" banner does. */
export type DisabledAction = 'manageTrust' | 'openFolder';

export type ToolStatus = 'running' | 'ok' | 'error';

/** One row of the conversation. Every string is display text; the webview never trusts it as HTML. */
export type ChatEntry =
  | { kind: 'user'; id: string; text: string }
  /** Markdown as the model wrote it; the webview renders and sanitizes it. */
  | { kind: 'assistant'; id: string; markdown: string; streaming: boolean }
  /** One memory tool call. `path` is a `/memories/...` path. */
  | { kind: 'tool'; id: string; command: string; path?: string; status: ToolStatus; summary?: string }
  /** Token counts of one model request. */
  | { kind: 'usage'; id: string; usage: TokenUsage }
  /** A quiet line: stopped, retrying, context cleared. */
  | { kind: 'notice'; id: string; text: string }
  | { kind: 'error'; id: string; message: string; actions: ErrorAction[] };

export type ChatEntryKind = ChatEntry['kind'];

/** Everything that is not a conversation row. */
export interface ChatStatus {
  running: boolean;
  /** Why the input is disabled (untrusted workspace, no folder), or undefined when it is usable. */
  disabledReason?: string;
  /** The way out of the disabled state, offered as a button next to the reason. */
  disabledAction?: DisabledAction;
  /** Sum of every request's usage since the last "New chat". */
  totals: TokenUsage;
  /** Model requests since the last "New chat". */
  requests: number;
}

export interface ChatSnapshot {
  entries: ChatEntry[];
  status: ChatStatus;
}

export type ExtensionToWebview =
  /** The whole conversation: the answer to `ready`, and after "New chat". */
  | { type: 'snapshot'; snapshot: ChatSnapshot }
  /** Adds the entry, or replaces the entry with the same id. */
  | { type: 'entry'; entry: ChatEntry }
  /** Appends streamed text to an assistant entry. */
  | { type: 'text'; id: string; text: string }
  | { type: 'remove'; id: string }
  | { type: 'status'; status: ChatStatus }
  /** Puts the keyboard focus in the input (after "Ask Claude…" revealed the view). */
  | { type: 'focusInput' };

export type WebviewToExtension =
  | { type: 'ready' }
  | { type: 'send'; text: string }
  | { type: 'stop' }
  | { type: 'retry' }
  /**
   * Opens a tool card's memory file in an editor; `path` is a `/memories/...` path. `entryId` is
   * the card's id: the extension opens the path in the folder the card's tool call ran in.
   */
  | { type: 'openMemory'; entryId: string; path: string }
  | { type: 'setApiKey' }
  | { type: 'openSettings' }
  | { type: 'manageTrust' }
  | { type: 'openFolder' };

/** Longest prompt the webview may send; anything longer is refused, not truncated. */
export const MAX_PROMPT_CHARS = 100_000;
/** Longest memory path accepted from the webview. */
export const MAX_PATH_CHARS = 1_000;
/** Longest entry id accepted from the webview (the transcript's ids are `e<number>`). */
export const MAX_ENTRY_ID_CHARS = 100;

export function emptyTokenUsage(): TokenUsage {
  return { input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 0 };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Messages without a payload, by type. */
const BARE_WEBVIEW_TYPES = new Set(['ready', 'stop', 'retry', 'setApiKey', 'openSettings', 'manageTrust', 'openFolder']);

/**
 * Checks a message that arrived from the webview. The webview runs markdown from the model, so
 * the extension treats its messages as untrusted input: unknown types, extra payload shapes and
 * oversized strings are rejected (undefined), never coerced.
 */
export function parseWebviewMessage(value: unknown): WebviewToExtension | undefined {
  if (!isRecord(value) || typeof value.type !== 'string') return undefined;
  const type = value.type;
  if (BARE_WEBVIEW_TYPES.has(type)) return { type } as WebviewToExtension;
  if (type === 'send') {
    const text = value.text;
    if (typeof text !== 'string' || text.trim() === '' || text.length > MAX_PROMPT_CHARS) return undefined;
    return { type, text };
  }
  if (type === 'openMemory') {
    const path = value.path;
    const entryId = value.entryId;
    if (typeof path !== 'string' || !isMemoryPath(path) || !isEntryId(entryId)) return undefined;
    return { type, entryId, path };
  }
  return undefined;
}

/**
 * A `/memories` path a UI may open: absolute under `/memories`, no `.`/`..`/empty segments, no
 * backslash or control characters. The engine checks paths again; this keeps junk out early.
 */
export function isMemoryPath(path: string): boolean {
  if (path.length > MAX_PATH_CHARS) return false;
  if (path !== '/memories' && !path.startsWith('/memories/')) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(path)) return false;
  const segments = path.split('/').slice(2);
  return segments.every((s) => s !== '' && s !== '.' && s !== '..');
}

/** An entry id as the webview may send it back: short, letters, digits, `-` and `_` only. */
export function isEntryId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_ENTRY_ID_CHARS && /^[A-Za-z0-9_-]+$/.test(value);
}

const ENTRY_KINDS = new Set<ChatEntryKind>(['user', 'assistant', 'tool', 'usage', 'notice', 'error']);

/**
 * Checks a message that arrived from the extension (the webview's side of the contract): the
 * shape only, so a protocol mismatch after an update fails loudly instead of half-rendering.
 */
export function parseExtensionMessage(value: unknown): ExtensionToWebview | undefined {
  if (!isRecord(value) || typeof value.type !== 'string') return undefined;
  switch (value.type) {
    case 'snapshot': {
      const s = value.snapshot;
      if (!isRecord(s) || !Array.isArray(s.entries) || !s.entries.every(isEntry) || !isStatus(s.status)) return undefined;
      return value as ExtensionToWebview;
    }
    case 'entry':
      return isEntry(value.entry) ? (value as ExtensionToWebview) : undefined;
    case 'text':
      return typeof value.id === 'string' && typeof value.text === 'string' ? (value as ExtensionToWebview) : undefined;
    case 'remove':
      return typeof value.id === 'string' ? (value as ExtensionToWebview) : undefined;
    case 'status':
      return isStatus(value.status) ? (value as ExtensionToWebview) : undefined;
    case 'focusInput':
      return { type: 'focusInput' };
    default:
      return undefined;
  }
}

function isEntry(value: unknown): value is ChatEntry {
  return isRecord(value) && typeof value.id === 'string' && ENTRY_KINDS.has(value.kind as ChatEntryKind);
}

function isStatus(value: unknown): value is ChatStatus {
  return isRecord(value) && typeof value.running === 'boolean' && isRecord(value.totals) && typeof value.requests === 'number';
}
