/**
 * The chat webview script (bundled by esbuild into media/dist/chat.js). It keeps a copy of the
 * conversation only to draw it: the extension owns the state, sends a snapshot after `ready` and
 * patches after that. getState/setState give an instant redraw when the view is shown again.
 */
import {
  MAX_CARD_OUTPUT_CHARS,
  emptyTokenUsage,
  parseExtensionMessage,
  type ChatAttachment,
  type ChatEntry,
  type ChatSnapshot,
  type ChatStatus,
  type DisabledAction,
  type ExtensionToWebview,
  type KeyState,
} from '../../src/webviews/protocol';
import { element, icon } from './dom';
import { actionButton, outputView, renderEntry, updateAssistant, type EntryCallbacks } from './render';
import { vscodeApi, type SavedState } from './vscodeApi';

const vscode = vscodeApi();

const transcriptEl = byId('transcript');
const emptyEl = byId('empty');
const previousEl = byId('previous');
const keyPromptEl = byId('key-prompt');
const workingEl = byId('working');
const workingText = byId('working-text');
const jumpButton = byId('jump') as HTMLButtonElement;
const bannerEl = byId('banner');
const bannerText = byId('banner-text');
const bannerAction = byId('banner-action') as HTMLButtonElement;
const form = byId('composer-form') as HTMLFormElement;
const input = byId('prompt') as HTMLTextAreaElement;
const sendButton = byId('send') as HTMLButtonElement;
const stopButton = byId('stop') as HTMLButtonElement;
const keyStateButton = byId('key-state') as HTMLButtonElement;
const attachmentsEl = byId('attachments');

let entries: ChatEntry[] = [];
let status: ChatStatus = { running: false, totals: emptyTokenUsage(), requests: 0 };
const elements = new Map<string, HTMLElement>();
const expanded = new Set<string>();
/** Assistant entries whose markdown changed since the last frame. */
const dirty = new Set<string>();
let frameRequested = false;
/** Whether the view follows the conversation; false once the reader scrolls up, until they come back. */
let follow = true;
/** "Open Chat" asked for the input's focus; honoured again when the webview itself gets focus. */
let focusRequested = false;

const callbacks: EntryCallbacks = {
  card: (message) => {
    // Deny sends what the composer holds as the reason, to Claude with the denial.
    if (message.type === 'approve' && message.decision === 'deny' && input.value.trim() !== '') {
      vscode.postMessage({ ...message, reason: input.value.trim().slice(0, 4000) });
      input.value = '';
      save();
      return;
    }
    vscode.postMessage(message);
  },
  openMemory: (entryId, path) => vscode.postMessage({ type: 'openMemory', entryId, path }),
  action: (action) => vscode.postMessage({ type: action }),
  code: (action, code, language) => vscode.postMessage({ type: 'code', action, code, ...(language ? { language } : {}) }),
  isExpanded: (id) => expanded.has(id),
  setExpanded: (id, open) => {
    if (open) expanded.add(id);
    else expanded.delete(id);
    save();
  },
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
  for (const id of [...expanded]) if (!entries.some((e) => e.id === id)) expanded.delete(id);
  for (const entry of entries) appendElement(entry);
  drawStatus(snapshot.status);
  follow = true;
}

function appendElement(entry: ChatEntry): void {
  const el = renderEntry(entry, callbacks);
  el.dataset.id = entry.id;
  elements.set(entry.id, el);
  // Entries go before the key prompt and the working line, which stay at the end.
  transcriptEl.insertBefore(el, keyPromptEl);
  updateEmpty();
}

// "Ask Claude something" only on an empty, usable chat; while it is off the banner says why.
function updateEmpty(): void {
  emptyEl.hidden = entries.length > 0 || status.disabledReason !== undefined;
  previousEl.hidden = !status.hasPrevious;
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
    // A new message of the user's (typed, Resume, Ask from the palette): show it and what follows.
    if (entry.kind === 'user') follow = true;
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

function appendOutput(id: string, text: string): void {
  const entry = entries.find((e) => e.id === id);
  if (!entry || entry.kind !== 'tool') return;
  const all = `${entry.output ?? ''}${text}`;
  entry.output = all.length > MAX_CARD_OUTPUT_CHARS ? all.slice(-MAX_CARD_OUTPUT_CHARS) : all;
  const card = elements.get(id);
  if (!card) return;
  let pre = card.querySelector<HTMLElement>('.tool-output');
  if (!pre) {
    pre = outputView('');
    card.querySelector('.tool-head')?.after(pre);
  }
  pre.textContent = entry.output;
  pre.scrollTop = pre.scrollHeight;
}

function flushText(): void {
  frameRequested = false;
  for (const id of dirty) {
    const entry = entries.find((e) => e.id === id);
    const el = elements.get(id);
    if (entry?.kind === 'assistant' && el) updateAssistant(el, entry.markdown, entry.streaming, callbacks);
  }
  dirty.clear();
  afterChange();
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
  workingEl.hidden = !next.running || next.working === undefined;
  workingText.textContent = next.working ?? '';
  drawKey(next.key, next.pendingKey === true, disabled);
  drawAttachments(next.attachments ?? []);
}

const KEY_STATES: Record<KeyState, { icon: string; text: string; title: string }> = {
  missing: { icon: 'warning', text: 'No API key', title: 'No Anthropic API key is set: click to set one.' },
  stored: { icon: 'key', text: 'API key set', title: 'An API key is kept in VS Code\'s secret storage. Click to replace it.' },
  environment: { icon: 'key', text: 'Key from ANTHROPIC_API_KEY', title: 'The API key comes from the ANTHROPIC_API_KEY environment variable. Click to store another one.' },
};

/** The key's state next to Send, and the key prompt when there is none. */
function drawKey(key: KeyState | undefined, pending: boolean, disabled: boolean): void {
  keyStateButton.hidden = key === undefined;
  if (key !== undefined) {
    const label = KEY_STATES[key];
    keyStateButton.replaceChildren(icon(label.icon), document.createTextNode(` ${label.text}`));
    keyStateButton.title = label.title;
    keyStateButton.classList.toggle('missing', key === 'missing');
  }
  const show = key === 'missing' && !disabled;
  keyPromptEl.hidden = !show;
  if (!show) return;
  keyPromptEl.replaceChildren(
    element('p', 'key-prompt-title', 'Claude needs an Anthropic API key to answer.'),
    element(
      'p',
      'key-prompt-text',
      pending
        ? 'Your message is kept: it is sent as soon as you set a key.'
        : 'The key is kept in VS Code\'s secret storage on this machine, never in settings or logs.',
    ),
    buttonRow(),
  );
}

function buttonRow(): HTMLElement {
  const row = element('div', 'error-actions');
  row.append(actionButton('setApiKey', callbacks), actionButton('getApiKey', callbacks, 'link'));
  return row;
}

function drawAttachments(list: readonly ChatAttachment[]): void {
  attachmentsEl.hidden = list.length === 0;
  attachmentsEl.replaceChildren(
    ...list.map((a) => {
      const chip = element('span', a.current ? 'chip current' : 'chip', undefined, { title: a.current ? `${a.detail} (the active editor's; sent with your message)` : a.detail });
      const remove = element('button', 'icon-button chip-remove', undefined, { type: 'button', 'aria-label': `Remove ${a.label}`, title: 'Remove' });
      remove.append(icon('close'));
      remove.addEventListener('click', () => vscode.postMessage({ type: 'removeAttachment', id: a.id }));
      chip.append(icon(a.current ? 'eye' : 'file'), element('span', 'chip-label', a.label), remove);
      return chip;
    }),
  );
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
byId('reopen').addEventListener('click', () => vscode.postMessage({ type: 'reopenPrevious' }));
keyStateButton.addEventListener('click', () => vscode.postMessage({ type: 'setApiKey' }));

// ---- following the conversation ------------------------------------------------------------

function nearEnd(): boolean {
  return transcriptEl.scrollHeight - transcriptEl.scrollTop - transcriptEl.clientHeight < 48;
}

/** After every change: follow the answer when following, else offer the way back. */
function afterChange(): void {
  if (follow) transcriptEl.scrollTop = transcriptEl.scrollHeight;
  jumpButton.hidden = follow || nearEnd();
  focusWaitingCard();
}

// ---- approval cards: focus, keyboard, typing hint ------------------------------------------

/** Cards already given the focus once (a redraw must not pull it back after the user moved on). */
const focusedCards = new Set<string>();

function waitingCard(): HTMLElement | undefined {
  return transcriptEl.querySelector<HTMLElement>('.tool-approval.approval-pending') ?? undefined;
}

function focusWaitingCard(): void {
  const card = waitingCard();
  const id = card?.dataset.entryId;
  if (!card || !id || focusedCards.has(id)) return;
  focusedCards.add(id);
  card.focus();
  updateTypingHint();
}

/** Typing while a card waits: the card says what the text will do. */
function updateTypingHint(): void {
  const card = waitingCard();
  if (!card) return;
  let hint = card.querySelector<HTMLElement>('.approval-hint');
  if (input.value.trim() === '') {
    hint?.remove();
    return;
  }
  if (!hint) {
    hint = document.createElement('div');
    hint.className = 'approval-hint';
    hint.setAttribute('role', 'status');
    card.append(hint);
  }
  hint.textContent = 'Claude waits for this answer first. Deny (or Escape) sends what you typed as the reason.';
}

transcriptEl.addEventListener('keydown', (event) => {
  const card = (event.target as HTMLElement | null)?.closest<HTMLElement>('.tool-approval.approval-pending');
  if (!card || event.target !== card) return;
  const press = (action: string) => card.querySelector<HTMLButtonElement>(`button[data-action="${action}"]`)?.click();
  if (event.key === 'Enter') {
    event.preventDefault();
    press(card.querySelector('button[data-action="accept"]') ? 'accept' : 'allow-once');
  } else if (event.key === 'Escape') {
    // Denies this question; the view-wide Escape (Stop) does not fire for it.
    event.preventDefault();
    event.stopPropagation();
    press(card.querySelector('button[data-action="reject"]') ? 'reject' : 'deny');
  }
});

// Scrolling up stops following; scrolling back to the end (or the button) resumes it.
transcriptEl.addEventListener('scroll', () => {
  follow = nearEnd();
  jumpButton.hidden = follow;
});

jumpButton.addEventListener('click', () => {
  follow = true;
  afterChange();
  transcriptEl.focus();
});

// ---- messages from the extension -----------------------------------------------------------

function handle(message: ExtensionToWebview): void {
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
    case 'output':
      appendOutput(message.id, message.text);
      break;
    case 'remove':
      remove(message.id);
      break;
    case 'status':
      drawStatus(message.status);
      break;
    case 'focusInput':
      // VS Code may focus the webview itself a moment later (Open Chat, the keybinding): the
      // input takes the focus then too.
      focusRequested = true;
      setTimeout(() => (focusRequested = false), 2000);
      input.focus();
      return;
  }
  afterChange();
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
  // The answer to what was just sent is what the reader wants to see.
  follow = true;
  afterChange();
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
  } else if (event.key === 'Escape' && waitingCard()) {
    // Escape in the composer while a card waits: deny it, with the typed text as the reason.
    event.preventDefault();
    event.stopPropagation();
    waitingCard()?.querySelector<HTMLButtonElement>('button[data-action="deny"], button[data-action="reject"]')?.click();
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
window.addEventListener('focus', () => {
  if (!focusRequested) return;
  focusRequested = false;
  input.focus();
});

input.addEventListener('input', () => {
  save();
  updateTypingHint();
});

// ---- state across hide/show ----------------------------------------------------------------

function save(): void {
  const state: SavedState = { snapshot: { entries, status }, draft: input.value, expanded: [...expanded] };
  vscode.setState(state);
}

const saved = vscode.getState();
// Expanded cards stay expanded when the view is shown again (the webview is rebuilt then).
if (Array.isArray(saved?.expanded)) for (const id of saved.expanded) if (typeof id === 'string') expanded.add(id);
// Checked like a message: state saved by an older version of this script may have another shape.
const restored = parseExtensionMessage({ type: 'snapshot', snapshot: saved?.snapshot });
if (restored?.type === 'snapshot') {
  drawSnapshot(restored.snapshot);
  afterChange();
}
if (typeof saved?.draft === 'string') input.value = saved.draft;
// The extension answers with the authoritative snapshot.
vscode.postMessage({ type: 'ready' });
