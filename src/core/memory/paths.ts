/**
 * Model-supplied `/memories/...` paths → store-relative paths, or a MemoryError.
 *
 * Rules (decided; documented in docs and tests):
 * - The path must be `/memories` or start with `/memories/` (separator-aware: `/memoriesX` and
 *   `/memories_backup/a` are outside).
 * - Empty and `.` segments collapse (`/memories/`, `/memories//`, `/memories/.` all mean the root),
 *   so the root protections see every alias as the root. Any `..` segment is refused, even one
 *   that would resolve inside the store: there is no legitimate need for it and refusing is
 *   simpler to verify than resolving.
 * - Refused anywhere in the path: backslashes, control characters (C0, DEL, C1, U+2028/2029),
 *   characters Windows cannot store (`<>:"|?*`) and its device
 *   names (`nul.md`, `COM1`), percent-encodings of `.`, `/`, `\`, `%`,
 *   control or non-ASCII bytes (this covers `%2e%2e%2f`, `%2f` and double encodings like
 *   `%252e`), names ending in a dot or space (Windows drops those, creating aliases), names of
 *   more than 255 UTF-8 bytes, paths over 1024 characters, and the engine's own temporary-file
 *   prefix.
 * - Anything in the store's private `.meta` folder (the lock) is refused, whatever the command.
 */
import { MemoryError } from './errors';
import { messages } from './messages';
import { MEMORY_ROOT } from './types';

export const MAX_PATH_CHARS = 1024;
export const MAX_NAME_BYTES = 255;
/** Prefix of the hidden temporary files of atomic writes; the model may never name one. */
export const TEMP_NAME_PREFIX = '.~tmp-';
/**
 * The store's private folder (`<store>/.meta`: the cross-process lock, its own .gitignore). No
 * command may name anything in it: hidden names are never listed, and any path into it is refused.
 */
export const META_FOLDER = '.meta';

export interface MemoryPath {
  /** Canonical `/memories/...` form, used in every message. */
  readonly display: string;
  /** Store-relative POSIX path: `''` for the root. */
  readonly rel: string;
  readonly isRoot: boolean;
}

/** What no memory path may hold: C0, DEL, C1, U+2028/2029 (also the listing's test for a name). */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;
/** Device names Windows opens instead of a file, whatever the extension (`nul.md`, `COM1.txt`). */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\..*)?$/i;
const PERCENT_ESCAPE = /%([0-9A-Fa-f]{2})/g;

export function parseMemoryPath(raw: unknown, param = 'path'): MemoryPath {
  if (typeof raw !== 'string') {
    throw new MemoryError(messages.pathNotString(param));
  }
  if (raw.length > MAX_PATH_CHARS) {
    throw new MemoryError(messages.pathTooLong(MAX_PATH_CHARS));
  }
  const shown = showRawPath(raw);
  if (CONTROL_CHARS.test(raw)) {
    throw new MemoryError(messages.controlChar(shown));
  }
  if (raw.includes('\\')) {
    throw new MemoryError(messages.backslash(shown));
  }
  if (hasDangerousPercentEscape(raw)) {
    throw new MemoryError(messages.encodedSeparator(shown));
  }
  if (raw !== MEMORY_ROOT && !raw.startsWith(MEMORY_ROOT + '/')) {
    throw new MemoryError(messages.outsideRoot(shown));
  }
  const segments = raw
    .slice(MEMORY_ROOT.length)
    .split('/')
    .filter((s) => s !== '' && s !== '.');
  for (const segment of segments) {
    if (segment === '..') {
      throw new MemoryError(messages.traversal(shown));
    }
    if (WINDOWS_FORBIDDEN.test(segment) || WINDOWS_DEVICE.test(segment)) {
      throw new MemoryError(messages.windowsForbidden(shown));
    }
    if (utf8Length(segment) > MAX_NAME_BYTES) {
      throw new MemoryError(messages.nameTooLong(shown, MAX_NAME_BYTES));
    }
    if (segment.endsWith('.') || segment.endsWith(' ')) {
      // Windows silently drops them, so `a.md.` would alias `a.md` and slip past exact-path rules.
      throw new MemoryError(messages.trailingDotOrSpace(shown));
    }
    if (segment.toLowerCase().startsWith(TEMP_NAME_PREFIX)) {
      throw new MemoryError(messages.reservedName(shown));
    }
  }
  // Folded: on a case-insensitive disk `/memories/.META` is the same folder.
  if (segments.length > 0 && segments[0].normalize('NFC').toLowerCase() === META_FOLDER) {
    throw new MemoryError(messages.metaFolder(shown));
  }
  const rel = segments.join('/');
  return { rel, display: displayOf(rel), isRoot: rel === '' };
}

/** `/memories/...` form of a store-relative path. */
export function displayOf(rel: string): string {
  return rel === '' ? MEMORY_ROOT : `${MEMORY_ROOT}/${rel}`;
}

export function joinRel(parent: string, name: string): string {
  return parent === '' ? name : `${parent}/${name}`;
}

export function parentOf(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i < 0 ? '' : rel.slice(0, i);
}

/** Every proper ancestor of `rel`, root first: 'a/b/c' → ['', 'a', 'a/b']. */
export function ancestorsOf(rel: string): string[] {
  if (rel === '') return [];
  const parts = rel.split('/');
  const out = [''];
  for (let i = 1; i < parts.length; i++) out.push(parts.slice(0, i).join('/'));
  return out;
}

/** True when `rel` is `ancestor` itself or lies below it. */
export function isSameOrInside(rel: string, ancestor: string): boolean {
  return ancestor === '' || rel === ancestor || rel.startsWith(ancestor + '/');
}

function hasDangerousPercentEscape(raw: string): boolean {
  for (const match of raw.matchAll(PERCENT_ESCAPE)) {
    const byte = parseInt(match[1], 16);
    if (byte < 0x20 || byte >= 0x7f || byte === 0x2e || byte === 0x2f || byte === 0x5c || byte === 0x25) {
      return true;
    }
  }
  return false;
}

function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}

/** A refused raw path as it may be echoed: control characters escaped, length bounded. */
export function showRawPath(raw: string): string {
  // eslint-disable-next-line no-control-regex
  const escaped = raw.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.length > 200 ? `${escaped.slice(0, 200)}…` : escaped;
}
