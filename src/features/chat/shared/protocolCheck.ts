/**
 * Checks both ways of the chat's protocol (protocol.ts): what the webview posts is untrusted
 * input, validated before the extension acts on it; what the extension posts is checked for shape
 * by the webview. The limits of what the webview may send are here too.
 */
import { isSummaryPath, isSummaryView } from './changeSummary';
import type { ChatEntry, ChatEntryKind, ChatStatus, CodeAction, ExtensionToWebview, FollowUpAction, FollowUps, WebviewToExtension } from './protocol';

/** Longest prompt the webview may send; anything longer is refused, not truncated. */
export const MAX_PROMPT_CHARS = 100_000;
/** Longest memory path accepted from the webview. */
export const MAX_PATH_CHARS = 1_000;
/** Longest code block accepted from the webview's code toolbar. */
export const MAX_CODE_CHARS = 1_000_000;
/** Longest language label of a code block (`typescript`, `c++`). */
export const MAX_LANGUAGE_CHARS = 40;
/** Longest entry id accepted from the webview (the transcript's ids are `e<number>`). */
export const MAX_ENTRY_ID_CHARS = 100;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Messages without a payload, by type. */
const BARE_WEBVIEW_TYPES = new Set(['ready', 'stop', 'retry', 'setApiKey', 'getApiKey', 'openSettings', 'manageTrust', 'openFolder', 'reopenPrevious', 'manageRules', 'sandboxSetting']);
/** Longest "Always allow" rule and Deny reason accepted from an approval card. */
export const MAX_RULE_CHARS = 500;
export const MAX_REASON_CHARS = 4000;
/** Longest host (with its port) a card's network question names. */
export const MAX_HOST_CHARS = 300;

function isHost(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value.length <= MAX_HOST_CHARS && /^[A-Za-z0-9.:[\]_-]+$/.test(value);
}
const CODE_ACTIONS = new Set<string>(['copy', 'insert', 'newFile']);
/** Every follow-up button, in the order a message shows them. */
export const FOLLOW_UP_ACTIONS: readonly FollowUpAction[] = ['reviewFeatures', 'resume'];
/** Longest workspace folder name a message's follow-ups carry. */
const MAX_FOLDER_NAME_CHARS = 500;

function isFollowUpAction(value: unknown): value is FollowUpAction {
  return typeof value === 'string' && (FOLLOW_UP_ACTIONS as readonly string[]).includes(value);
}

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
  if (type === 'approve') {
    const { entryId, decision, rule, reason, host } = value;
    if (!isEntryId(entryId) || (decision !== 'once' && decision !== 'always' && decision !== 'deny' && decision !== 'sandboxed')) return undefined;
    if (rule !== undefined && (typeof rule !== 'string' || rule.length > MAX_RULE_CHARS || decision !== 'always')) return undefined;
    if (reason !== undefined && (typeof reason !== 'string' || reason.length > MAX_REASON_CHARS || decision !== 'deny' && decision !== 'sandboxed')) return undefined;
    if (host !== undefined && (!isHost(host) || decision === 'sandboxed' || rule !== undefined)) return undefined;
    return { type, entryId, decision, ...(rule !== undefined ? { rule } : {}), ...(reason !== undefined ? { reason } : {}), ...(host !== undefined ? { host } : {}) };
  }
  if (type === 'allowHost') {
    const { entryId, host } = value;
    return isEntryId(entryId) && isHost(host) ? { type, entryId, host } : undefined;
  }
  if (type === 'openDiff' || type === 'undoEdit' || type === 'showChange' || type === 'unfoldOutput' || type === 'openFile' || type === 'rewind' || type === 'undoRewind') {
    return isEntryId(value.entryId) ? { type, entryId: value.entryId } : undefined;
  }
  if (type === 'starter') {
    const action = value.action;
    return action === 'initialize' || action === 'resume' || action === 'addFile' ? { type, action } : undefined;
  }
  if (type === 'summary') {
    const { action, kind, path } = value;
    if ((action !== 'keep' && action !== 'undo' && action !== 'diff') || (kind !== 'file' && kind !== 'memory') || !isSummaryPath(path)) return undefined;
    return { type, action, kind, path };
  }
  if (type === 'followUp') {
    const { entryId, action } = value;
    return isEntryId(entryId) && isFollowUpAction(action) ? { type, entryId, action } : undefined;
  }
  if (type === 'summaryAll') {
    const action = value.action;
    return action === 'keep' || action === 'undo' ? { type, action } : undefined;
  }
  if (type === 'removeAttachment' || type === 'toggleAttachment') {
    return isEntryId(value.id) ? { type, id: value.id } : undefined;
  }
  if (type === 'code') {
    const { action, code, language } = value;
    if (typeof action !== 'string' || !CODE_ACTIONS.has(action)) return undefined;
    if (typeof code !== 'string' || code.length > MAX_CODE_CHARS) return undefined;
    if (language !== undefined && !(typeof language === 'string' && language.length <= MAX_LANGUAGE_CHARS && /^[A-Za-z0-9_+#.-]+$/.test(language))) return undefined;
    return { type, action: action as CodeAction, code, ...(language !== undefined ? { language } : {}) };
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

const ENTRY_KINDS = new Set<ChatEntryKind>(['user', 'assistant', 'tool', 'usage', 'notice', 'reads', 'error']);

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
      if (s.changes !== undefined && !isSummaryView(s.changes)) return undefined;
      return value as ExtensionToWebview;
    }
    case 'entry':
      return isEntry(value.entry) ? (value as ExtensionToWebview) : undefined;
    case 'text':
    case 'output':
      return typeof value.id === 'string' && typeof value.text === 'string' ? (value as ExtensionToWebview) : undefined;
    case 'remove':
      return typeof value.id === 'string' ? (value as ExtensionToWebview) : undefined;
    case 'status':
      return isStatus(value.status) ? (value as ExtensionToWebview) : undefined;
    case 'focusInput':
      return { type: 'focusInput' };
    case 'draft':
      return typeof value.text === 'string' && typeof value.reason === 'string' && (value.ask === undefined || value.ask === true) && (value.withdraw === undefined || typeof value.withdraw === 'string')
        ? (value as ExtensionToWebview)
        : undefined;
    case 'changes':
      return value.changes === undefined || isSummaryView(value.changes) ? (value as ExtensionToWebview) : undefined;
    default:
      return undefined;
  }
}

/**
 * A conversation row's shape: an id and a known kind (the webview's renderer handles the rest);
 * follow-up buttons, when a row has them, only on a message or a notice and well formed.
 */
export function isEntry(value: unknown): value is ChatEntry {
  if (!isRecord(value) || typeof value.id !== 'string' || !ENTRY_KINDS.has(value.kind as ChatEntryKind)) return false;
  if (value.followUps === undefined) return true;
  return (value.kind === 'assistant' || value.kind === 'notice') && isFollowUps(value.followUps);
}

/** A message's follow-up buttons: a folder name and one or more known actions, none twice. */
export function isFollowUps(value: unknown): value is FollowUps {
  if (!isRecord(value) || typeof value.folder !== 'string' || value.folder === '' || value.folder.length > MAX_FOLDER_NAME_CHARS) return false;
  const actions = value.actions;
  return Array.isArray(actions) && actions.length > 0 && actions.every(isFollowUpAction) && new Set(actions).size === actions.length;
}

function isStatus(value: unknown): value is ChatStatus {
  return isRecord(value) && typeof value.running === 'boolean' && isRecord(value.totals) && typeof value.requests === 'number';
}
