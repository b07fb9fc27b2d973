/**
 * The store's history: one immutable version per change to a memory file, with its author.
 * Kept in the store's private folder (`.meta/history`), which the memory tool can neither list
 * nor reach, and which git ignores through `.meta/.gitignore`.
 */

/** Who made a change. `name` is one of AUTHOR_NAMES or `mcp:<client name>`. */
export interface Author {
  name: string;
  /** The chat conversation (its id) and the turn in it, for `chat`. */
  session?: string;
  turn?: number;
  /** The chat's title, to name it in tooltips ("chat 'Fix login'"). */
  title?: string;
}

export const AUTHORS = {
  chat: { name: 'chat' },
  run: { name: 'run' },
  exec: { name: 'exec' },
  lmTool: { name: 'lm-tool' },
  user: { name: 'user' },
  expiry: { name: 'expiry' },
} as const satisfies Record<string, Author>;

export function mcpAuthor(clientName: string | undefined): Author {
  // A client names itself: keep it to one short printable line.
  const name = [...(clientName ?? '')].filter((c) => c >= ' ' && c !== '\u007f').join('').trim().slice(0, 80);
  return { name: name === '' ? 'mcp' : `mcp:${name}` };
}

/**
 * What a version records. `edit` is a whole-content change made outside the memory tool (a hand
 * edit seen later, a Features tick); `restore` puts an earlier version's content back.
 */
export type HistoryOp = 'create' | 'str_replace' | 'insert' | 'edit' | 'delete' | 'rename' | 'restore';

export interface HistoryEntry {
  /** Increases with time, per store; never reused. */
  version: number;
  /** Milliseconds since the epoch. */
  time: number;
  op: HistoryOp;
  /** Store-relative path the version is about (for a rename: the new path). */
  path: string;
  /** For a rename: where the file was before. */
  oldPath?: string;
  author: Author;
  /** SHA-256 (hex) of the file's content at this version (for a delete: the content it had). */
  sha256: string;
  /** Bytes of that content. */
  size: number;
  /** Key of the stored copy of the content (the SHA-256 of the stored bytes). */
  blob: string;
  /** The stored copy had secrets replaced with `[REDACTED:…]` (so it differs from sha256). */
  redacted?: boolean;
  /** For a restore: the version whose content came back. */
  restoredFrom?: number;
}

/** How much history a store keeps; oldest goes first, the newest version of a live file never. */
export interface HistoryRetention {
  /** Versions kept per file (the newest ones). */
  maxVersionsPerFile: number;
  /** Versions older than this many days go. */
  maxDays: number;
  /** Stored content bytes of the whole history. */
  maxBytes: number;
}

export const DEFAULT_HISTORY_RETENTION: Readonly<HistoryRetention> = Object.freeze({
  maxVersionsPerFile: 50,
  maxDays: 30,
  maxBytes: 20 * 1024 * 1024,
});

/** The JSON shape `claude-memory history --json` prints for each version. */
export interface HistoryRecordJson {
  version: number;
  path: string;
  op: HistoryOp;
  author: string;
  time: string;
  sha256: string;
  size: number;
  oldPath?: string;
  session?: string;
  turn?: number;
}

export function historyRecordJson(entry: HistoryEntry, display: (rel: string) => string): HistoryRecordJson {
  const json: HistoryRecordJson = {
    version: entry.version,
    path: display(entry.path),
    op: entry.op,
    author: entry.author.name,
    time: new Date(entry.time).toISOString(),
    sha256: entry.sha256,
    size: entry.size,
  };
  if (entry.oldPath !== undefined) json.oldPath = display(entry.oldPath);
  if (entry.author.session !== undefined) json.session = entry.author.session;
  if (entry.author.turn !== undefined) json.turn = entry.author.turn;
  return json;
}
