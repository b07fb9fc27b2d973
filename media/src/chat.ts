/**
 * The chat webview script (bundled by esbuild into media/dist/chat.js). It keeps a copy of the
 * conversation only to draw it: the extension owns the state, sends a snapshot after `ready` and
 * patches after that. getState/setState give an instant redraw when the view is shown again.
 */
import {
  emptyTokenUsage,
  parseExtensionMessage,
  type ChatEntry,
  type ChatSnapshot,
  type ChatStatus,
  type DisabledAction,
  type ExtensionToWebview,
} from '../../src/webviews/protocol';
import { formatCount, formatUsage } from './format';
import { icon, renderEntry, updateAssistant, type EntryCallbacks } from './render';
import { vscodeApi, type SavedState } from './vscodeApi';

const vscode = vscodeApi();

const transcriptEl = byId('transcript');
const emptyEl = byId('empty');
const bannerEl = byId('banner');
const bannerText = byId('banner-text');
const bannerAction = byId('banner-action') as HTMLButtonElement;
const form = byId('composer-form') as HTMLFormElement;
const input = byId('prompt') as HTMLTextAreaElement;
const sendButton = byId('send') as HTMLButtonElement;
const stopButton = byId('stop') as HTMLButtonElement;
const totalsEl = byId('totals');

let entries: ChatEntry[] = [];
let status: ChatStatus = { running: false, totals: emptyTokenUsage(), requests: 0 };
const elements = new Map<string, HTMLElement>();
const expanded = new Set<string>();
/** Assistant entries whose markdown changed since the last frame. */
const dirty = new Set<string>();
let frameRequested = false;

const callbacks: EntryCallbacks = {
  openMemory: (entryId, path) => vscode.postMessage({ type: 'openMemory', entryId, path }),
  action: (action) => vscode.postMessage({ type: action }),
  isExpanded: (id) => expanded.has(id),
  setExpanded: (id, open) => (open ? expanded.add(id) : expanded.delete(id)),
};

function byId(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`chat: #${id} missing`);
  return el;
}

// ---- drawing -------------------------------------------------------------------------------

function drawSnapshot(snapshot: ChatSnapshot): void {
  entries = snapshot.entries.map((e) => ({ ...e }));
  for (const el of elements.values()) el.remove();
  elements.clear();
  dirty.clear();
  for (const entry of entries) appendElement(entry);
  drawStatus(snapshot.status);
  scrollToEnd(true);
}

function appendElement(entry: ChatEntry): void {
  const el = renderEntry(entry, callbacks);
  el.dataset.id = entry.id;
  elements.set(entry.id, el);
  transcriptEl.append(el);
  updateEmpty();
}

// "Ask Claude something" only on an empty, usable chat; while it is off the banner says why.
function updateEmpty(): void {
  emptyEl.hidden = entries.length > 0 || status.disabledReason !== undefined;
}

function upsert(entry: ChatEntry): void {
  const index = entries.findIndex((e) => e.id === entry.id);
  const old = elements.get(entry.id);
  if (index >= 0 && old) {
    entries[index] = entry;
    const el = renderEntry(entry, callbacks);
    el.dataset.id = entry.id;
    old.replaceWith(el);
    elements.set(entry.id, el);
    dirty.delete(entry.id);
  } else {
    entries.push(entry);
    appendElement(entry);
  }
}

function appendText(id: string, text: string): void {
  const entry = entries.find((e) => e.id === id);
  if (!entry || entry.kind !== 'assistant') return;
  entry.markdown += text;
  dirty.add(id);
  // Deltas arrive faster than frames; markdown is rendered at most once per frame per entry.
  if (!frameRequested) {
    frameRequested = true;
    requestAnimationFrame(flushText);
  }
}

function flushText(): void {
  frameRequested = false;
  const stick = nearEnd();
  for (const id of dirty) {
    const entry = entries.find((e) => e.id === id);
    const el = elements.get(id);
    if (entry?.kind === 'assistant' && el) updateAssistant(el, entry.markdown, entry.streaming);
  }
  dirty.clear();
  scrollToEnd(stick);
  save();
}

function remove(id: string): void {
  entries = entries.filter((e) => e.id !== id);
  elements.get(id)?.remove();
  elements.delete(id);
  dirty.delete(id);
  updateEmpty();
}

function drawStatus(next: ChatStatus): void {
  status = next;
  const disabled = next.disabledReason !== undefined;
  bannerEl.hidden = !disabled;
  bannerText.textContent = next.disabledReason ?? '';
  drawBannerAction(disabled ? next.disabledAction : undefined);
  updateEmpty();
  input.disabled = disabled;
  sendButton.disabled = disabled || next.running;
  stopButton.hidden = !next.running;
  transcriptEl.setAttribute('aria-busy', String(next.running));
  document.body.classList.toggle('running', next.running);
  totalsEl.textContent = next.requests === 0 ? '' : `Session: ${formatUsage(next.totals)}`;
  totalsEl.title = `${formatCount(next.requests)} model request(s) since the last new chat`;
}

const BANNER_ACTIONS: Record<DisabledAction, { icon: string; text: string }> = {
  manageTrust: { icon: 'shield', text: 'Manage Workspace Trust' },
  openFolder: { icon: 'folder-opened', text: 'Open Folder' },
};

function drawBannerAction(action: DisabledAction | undefined): void {
  bannerAction.hidden = action === undefined;
  bannerAction.dataset.action = action ?? '';
  if (!action) return;
  const label = BANNER_ACTIONS[action];
  bannerAction.replaceChildren(icon(label.icon), document.createTextNode(label.text));
}

bannerAction.addEventListener('click', () => {
  const action = bannerAction.dataset.action;
  if (action === 'manageTrust' || action === 'openFolder') vscode.postMessage({ type: action });
});

function nearEnd(): boolean {
  return transcriptEl.scrollHeight - transcriptEl.scrollTop - transcriptEl.clientHeight < 48;
}

/** Follows the answer only when the reader is already at the end (does not yank them back). */
function scrollToEnd(stick: boolean): void {
  if (stick) transcriptEl.scrollTop = transcriptEl.scrollHeight;
}

// ---- messages from the extension -----------------------------------------------------------

function handle(message: ExtensionToWebview): void {
  const stick = nearEnd();
  switch (message.type) {
    case 'snapshot':
      drawSnapshot(message.snapshot);
      break;
    case 'entry':
      upsert(message.entry);
      break;
    case 'text':
      appendText(message.id, message.text);
      return; // saved and scrolled once per frame
    case 'remove':
      remove(message.id);
      break;
    case 'status':
      drawStatus(message.status);
      break;
    case 'focusInput':
      input.focus();
      return;
  }
  scrollToEnd(stick);
  save();
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = parseExtensionMessage(event.data);
  if (message) handle(message);
  else console.warn('chat: ignored an unknown message');
});

// ---- composer ------------------------------------------------------------------------------

function send(): void {
  const text = input.value;
  if (text.trim() === '' || input.disabled || status.running) return;
  vscode.postMessage({ type: 'send', text });
  input.value = '';
  save();
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  send();
});

input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    send();
  }
});

// Escape stops the answer from anywhere in the view.
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && status.running) {
    event.preventDefault();
    vscode.postMessage({ type: 'stop' });
  }
});

stopButton.addEventListener('click', () => vscode.postMessage({ type: 'stop' }));
input.addEventListener('input', () => save());

// ---- state across hide/show ----------------------------------------------------------------

function save(): void {
  const state: SavedState = { snapshot: { entries, status }, draft: input.value };
  vscode.setState(state);
}

const saved = vscode.getState();
// Checked like a message: state saved by an older version of this script may have another shape.
const restored = parseExtensionMessage({ type: 'snapshot', snapshot: saved?.snapshot });
if (restored?.type === 'snapshot') drawSnapshot(restored.snapshot);
if (typeof saved?.draft === 'string') input.value = saved.draft;
// The extension answers with the authoritative snapshot.
vscode.postMessage({ type: 'ready' });
