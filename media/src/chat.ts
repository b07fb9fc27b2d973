/**
 * The chat webview script (bundled by esbuild into media/dist/chat.js). It keeps a copy of the
 * conversation only to draw it: the extension owns the conversation, sends it once as a snapshot
 * after `ready` and patches after that. The saved state (getState/setState) holds only what the
 * extension cannot send back: the draft, the expanded cards and the scroll position.
 *
 * Cost stays flat with the length of the chat: streamed text is drawn once per frame and only
 * its last block re-rendered; the scroll and the layout it forces happen once per frame; the list
 * is virtualised by pages (pages.ts): a page far out of view gives up its rows' DOM and is drawn
 * again from `entries` when it comes near, and pages off screen skip layout and paint
 * (content-visibility in chat.css).
 */
import {
  MAX_CARD_OUTPUT_CHARS,
  MAX_PROMPT_CHARS,
  emptyTokenUsage,
  parseExtensionMessage,
  type ChatAttachment,
  type ChatStarter,
  type ChatEntry,
  type ChatSnapshot,
  type ChatStatus,
  type DisabledAction,
  type ExtensionToWebview,
  type KeyState,
  type QueuedMessage,
  type StarterAction,
} from '../../src/features/chat/shared/protocol';
import type { ChangeSummaryView } from '../../src/features/chat/shared/changeSummary';
import { drawChangeSummary, type ChangeSummaryHost } from './changeSummary';
import { element, icon } from './dom';
import { formatUsageLine } from './format';
import { PagedList } from './pages';
import { actionButton, outputView, renderEntry, setOutputText, updateAssistant, type EntryCallbacks } from './render';
import { vscodeApi, type SavedState, type ScrollAnchor } from './vscodeApi';

const vscode = vscodeApi();

const transcriptEl = byId('transcript');
const emptyEl = byId('empty');
const previousEl = byId('previous');
const starterEl = byId('starter');
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
/** Messages sent while an answer runs, waiting for their turn: under the conversation. */
const queuedEl = element('div', 'queued', undefined, { role: 'list', 'aria-label': 'Messages waiting to be sent' });
queuedEl.hidden = true;
transcriptEl.append(queuedEl);
/** Why the input holds text it did not before (queued messages given back). */
const composerNote = element('div', 'composer-note', undefined, { role: 'status' });
composerNote.hidden = true;
input.before(composerNote);

let entries: ChatEntry[] = [];
/** The same entries by id (text and output deltas find theirs without a scan). */
const byEntryId = new Map<string, ChatEntry>();
let status: ChatStatus = { running: false, totals: emptyTokenUsage(), requests: 0 };
const elements = new Map<string, HTMLElement>();
const expanded = new Set<string>();
/** In `expanded`: the change summary's list is folded (not a row id: kept by drawSnapshot). */
const SUMMARY_FOLDED = 'change-summary-folded';
/** Assistant entries whose markdown changed since the last frame. */
const dirty = new Set<string>();
/** Tool cards whose output grew since the last frame. */
const dirtyOutputs = new Set<string>();
let frameRequested = false;
/** Where to go back to once the snapshot is drawn (from the saved state): the row at the top of the view. */
let restoreScroll: { anchor?: ScrollAnchor; follow: boolean } | undefined;
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
      saveNow();
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
    saveSoon();
  },
};

function byId(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`chat: #${id} missing`);
  return el;
}

// ---- drawing -------------------------------------------------------------------------------

/**
 * The list of rows, virtualised by pages (pages.ts): rows far out of view leave the DOM and are
 * drawn again from `entries` when they come near. A row stays drawn while it waits for the user
 * (a card's question), streams, or runs.
 */
const list = new PagedList(
  transcriptEl,
  keyPromptEl,
  {
    draw: (id) => elementOf(byEntryId.get(id) as ChatEntry),
    forget: (id) => elements.delete(id),
    text: (id) => rowText(byEntryId.get(id)),
    estimate: (id) => rowEstimate(byEntryId.get(id)),
    pinned: (id) => {
      const entry = byEntryId.get(id);
      if (entry?.kind === 'assistant') return entry.streaming;
      if (entry?.kind === 'tool') return entry.status === 'running' || entry.approval?.state === 'pending';
      return false;
    },
  },
  // Pages drawn as they come near change the heights under a reader who follows the end.
  () => requestFrame(),
);
(window as unknown as { chatListStats: typeof list.stats }).chatListStats = list.stats;

/** What a row says, in the plain text a far page keeps (find in page, screen readers). */
function rowText(entry: ChatEntry | undefined): string {
  switch (entry?.kind) {
    case undefined:
      return '';
    case 'user':
      return `You: ${entry.label ? `${entry.label}\n` : ''}${entry.text}`;
    case 'assistant':
      return entry.continued ? entry.markdown : `Claude: ${entry.markdown}`;
    case 'tool':
      return [`${entry.command} ${entry.path ?? ''}`.trim(), entry.summary, entry.output].filter((part) => part).join('\n');
    case 'usage':
      return formatUsageLine(entry.usage, entry.costUsd);
    case 'notice':
    case 'reads':
      return entry.text;
    case 'error':
      return entry.message;
  }
}

/** A row's height before it was ever drawn: roughly a line of 18 px per 60 characters. */
function rowEstimate(entry: ChatEntry | undefined): number {
  const lines = (text: string) => text.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(line.length / 60)), 0);
  switch (entry?.kind) {
    case undefined:
      return 0;
    case 'user':
      return entry.label ? 34 : 34 + lines(entry.text) * 18;
    case 'assistant':
      return (entry.continued ? 0 : 20) + Math.min(4000, lines(entry.markdown) * 18);
    case 'tool':
      // The header, the output box (at most 14 lines high), the bars under it.
      return 28 + (entry.output ? Math.min(14, lines(entry.output)) * 18 + 30 : 0) + (entry.edit || entry.version !== undefined ? 22 : 0) + (entry.foldedOutput !== undefined ? 22 : 0);
    case 'error':
      return 60;
    default:
      return 22;
  }
}

function drawSnapshot(snapshot: ChatSnapshot): void {
  entries = snapshot.entries.map((e) => ({ ...e }));
  byEntryId.clear();
  for (const entry of entries) byEntryId.set(entry.id, entry);
  elements.clear();
  dirty.clear();
  dirtyOutputs.clear();
  // A card's own keys ("e12", "e12/output") go with it.
  for (const id of [...expanded]) if (id !== SUMMARY_FOLDED && !byEntryId.has(id.split('/')[0])) expanded.delete(id);
  follow = restoreScroll?.follow ?? true;
  // Only what fills the view is drawn: where the reader was, else the end.
  list.reset(entries.map((e) => e.id), follow ? undefined : restoreScroll?.anchor?.id);
  updateEmpty();
  drawStatus(snapshot.status);
  if (entries.length === 0) restoreScroll = undefined;
}

function elementOf(entry: ChatEntry): HTMLElement {
  const el = renderEntry(entry, callbacks);
  el.dataset.id = entry.id;
  elements.set(entry.id, el);
  return el;
}

// "Ask Claude something" only on an empty, usable chat; while it is off the banner says why.
function updateEmpty(): void {
  emptyEl.hidden = entries.length > 0 || status.disabledReason !== undefined;
  previousEl.hidden = !status.hasPrevious;
}

function upsert(entry: ChatEntry): void {
  const known = byEntryId.get(entry.id);
  const old = elements.get(entry.id);
  if (known) {
    entries[entries.lastIndexOf(known)] = entry;
    byEntryId.set(entry.id, entry);
    // A card answered, an answer over: its page may be given up now if it is far.
    list.reconcileSoon();
    if (!old) {
      // Its page is far: the model changes, the page is drawn from it when it comes near.
      dirty.delete(entry.id);
      list.changed(entry.id);
      return;
    }
    // An answer that stops streaming keeps its drawn blocks: only its last one is drawn again.
    if (known.kind === 'assistant' && entry.kind === 'assistant' && old.querySelector('.markdown')?.hasChildNodes()) {
      dirty.delete(entry.id);
      updateAssistant(old, entry.markdown, entry.streaming, callbacks);
      // Kept in place, so the rewind mark (media/src/rewind.ts) is set here.
      old.classList.toggle('rewound', entry.rewound === true);
      return;
    }
    const el = renderEntry(entry, callbacks);
    el.dataset.id = entry.id;
    old.replaceWith(el);
    elements.set(entry.id, el);
    dirty.delete(entry.id);
  } else {
    entries.push(entry);
    byEntryId.set(entry.id, entry);
    // At the end, before the key prompt and the working line.
    list.append(entry.id);
    updateEmpty();
    // A new message of the user's (typed, Resume, Ask from the palette): show it and what follows.
    if (entry.kind === 'user') follow = true;
  }
}

function appendText(id: string, text: string): void {
  const entry = byEntryId.get(id);
  if (!entry || entry.kind !== 'assistant') return;
  entry.markdown += text;
  // Deltas arrive faster than frames; markdown is rendered at most once per frame per entry.
  dirty.add(id);
  requestFrame();
}

function appendOutput(id: string, text: string): void {
  const entry = byEntryId.get(id);
  if (!entry || entry.kind !== 'tool') return;
  const all = `${entry.output ?? ''}${text}`;
  entry.output = all.length > MAX_CARD_OUTPUT_CHARS ? all.slice(-MAX_CARD_OUTPUT_CHARS) : all;
  dirtyOutputs.add(id);
  requestFrame();
}

/** Everything that changed is drawn in the next frame, then one scroll (and the one layout it needs). */
function requestFrame(): void {
  if (frameRequested) return;
  frameRequested = true;
  requestAnimationFrame(flush);
}

function flush(): void {
  frameRequested = false;
  for (const id of dirty) {
    const entry = byEntryId.get(id);
    const el = elements.get(id);
    if (entry?.kind === 'assistant' && el) updateAssistant(el, entry.markdown, entry.streaming, callbacks);
  }
  dirty.clear();
  for (const id of dirtyOutputs) {
    const entry = byEntryId.get(id);
    const card = elements.get(id);
    if (entry?.kind !== 'tool' || !card) continue;
    let box = card.querySelector<HTMLElement>('.tool-output');
    if (!box) {
      box = outputView('')[0];
      // Where the card draws it: under the approval's answer, else under the header.
      (card.querySelector(':scope > .tool-approval') ?? card.querySelector(':scope > .tool-head'))?.after(box);
    }
    setOutputText(box, entry.output ?? '');
  }
  dirtyOutputs.clear();
  afterChange();
}

function remove(id: string): void {
  byEntryId.delete(id);
  entries = entries.filter((e) => e.id !== id);
  list.remove(id);
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
  // While an answer runs, Send queues the message: it goes out when the answer is over.
  sendButton.disabled = disabled;
  sendButton.title = next.running ? 'Claude is answering: your message is queued and sent when the answer is over.' : '';
  drawQueued(next.queued ?? []);
  stopButton.hidden = !next.running;
  transcriptEl.setAttribute('aria-busy', String(next.running));
  document.body.classList.toggle('running', next.running);
  workingEl.hidden = !next.running || next.working === undefined;
  workingText.textContent = next.working ?? '';
  drawKey(next.key, next.pendingKey === true, disabled, next.keyRejected === true);
  drawAttachments(next.attachments ?? []);
  drawStarter(next.starter);
  list.reconcileSoon();
}

const STARTER_ACTIONS: Record<StarterAction, { icon: string; text: string; title: string }> = {
  initialize: { icon: 'sparkle', text: 'Initialize Project Memory', title: 'Write a feature checklist, a progress log and startup notes for this folder (Claude can draft them).' },
  resume: { icon: 'debug-continue', text: 'Resume Session', title: 'Claude picks up the next feature that does not pass yet, from the progress log and the checklist.' },
  addFile: { icon: 'add', text: 'Add File…', title: 'Choose a file to send with your next message.' },
};

/** The empty chat: which folder and model it works with, and what to start with. */
function drawStarter(starter: ChatStarter | undefined): void {
  starterEl.hidden = starter === undefined;
  if (!starter) {
    starterEl.replaceChildren();
    return;
  }
  const line = element('p', 'starter-line');
  // Each item stays whole; the line breaks between them in a narrow side bar.
  const folder = element('span', 'starter-item', undefined, { title: 'The folder the chat works in' });
  folder.append(icon('folder'), document.createTextNode(` ${starter.folder}`));
  const model = element('span', 'starter-item', undefined, { title: 'The model (setting claudeMemory.model)' });
  model.append(icon('hubot'), document.createTextNode(` ${starter.model}`));
  line.append(folder, element('span', 'starter-sep', ' · '), model);
  const actions = element('div', 'starter-actions', undefined, { role: 'group', 'aria-label': 'Start with' });
  const shown: StarterAction[] = starter.canResume ? ['resume', 'initialize', 'addFile'] : ['initialize', 'addFile'];
  for (const action of shown) {
    const label = STARTER_ACTIONS[action];
    const button = element('button', action === shown[0] ? 'button' : 'button secondary', undefined, { type: 'button', 'data-starter': action, title: label.title });
    button.append(icon(label.icon), document.createTextNode(` ${label.text}`));
    button.addEventListener('click', () => vscode.postMessage({ type: 'starter', action }));
    actions.append(button);
  }
  starterEl.replaceChildren(line, actions);
}

function drawQueued(list: readonly QueuedMessage[]): void {
  queuedEl.hidden = list.length === 0;
  queuedEl.replaceChildren(
    ...list.map((q) => {
      const row = element('div', 'entry user queued-message', undefined, { role: 'listitem', 'data-queued': q.id });
      const who = element('div', 'who');
      who.append(document.createTextNode('You '), element('span', 'queued-label', '· queued: sent when the answer is over'));
      row.append(who, element('div', 'user-text', q.text));
      return row;
    }),
  );
}

const KEY_STATES: Record<KeyState, { icon: string; text: string; title: string }> = {
  missing: { icon: 'warning', text: 'No API key', title: 'No Anthropic API key is set: click to set one.' },
  stored: { icon: 'key', text: 'API key set', title: 'An API key is kept in VS Code\'s secret storage. Click to replace it.' },
  environment: { icon: 'key', text: 'Key from ANTHROPIC_API_KEY', title: 'The API key comes from the ANTHROPIC_API_KEY environment variable. Click to store another one.' },
};

const KEY_REJECTED = { icon: 'warning', text: 'API key rejected (401)', title: 'The Anthropic API rejected this key (401). Click to set another one.' };

/** The key's state next to Send, and the key prompt when there is none. */
function drawKey(key: KeyState | undefined, pending: boolean, disabled: boolean, rejected: boolean): void {
  keyStateButton.hidden = key === undefined;
  if (key !== undefined) {
    // After a 401 the line says the key was rejected, not that all is fine.
    const label = rejected && key !== 'missing' ? KEY_REJECTED : KEY_STATES[key];
    keyStateButton.replaceChildren(icon(label.icon), document.createTextNode(` ${label.text}`));
    keyStateButton.title = label.title;
    keyStateButton.classList.toggle('missing', key === 'missing' || rejected);
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
  if (restoreScroll && entries.length > 0) {
    // Back where the reader was when the view was hidden (unless they were following the end):
    // the same row at the same place at the top of the view.
    if (restoreScroll.anchor && !restoreScroll.follow) holdAnchor(restoreScroll.anchor);
    restoreScroll = undefined;
  }
  if (follow) transcriptEl.scrollTop = transcriptEl.scrollHeight;
  jumpButton.hidden = follow || nearEnd();
  focusWaitingCard();
}

/**
 * Keeps row `anchor` where it was at the top of the view while the pages around it are drawn and
 * laid out (the pages above were only estimated): for a few frames, or until the reader scrolls.
 */
let held: { anchor: ScrollAnchor; frames: number } | undefined;
function holdAnchor(anchor: ScrollAnchor): void {
  const wasHeld = held !== undefined;
  held = { anchor, frames: 60 };
  if (wasHeld) return;
  const step = (): void => {
    if (!held) return;
    const row = elements.get(held.anchor.id);
    if (row) {
      const delta = row.getBoundingClientRect().top - transcriptEl.getBoundingClientRect().top - held.anchor.offset;
      if (Math.abs(delta) >= 1) transcriptEl.scrollTop += delta;
    }
    held.frames -= 1;
    if (held.frames > 0) requestAnimationFrame(step);
    else held = undefined;
  };
  step();
}
// The reader's own scrolling ends the hold.
for (const type of ['wheel', 'pointerdown', 'keydown', 'touchstart']) transcriptEl.addEventListener(type, () => (held = undefined), { passive: true });

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
// Only a scroll up (the reader's) stops following: rows drawn as they come into view change
// the heights under a scroll to the end, which must not read as the reader leaving it.
let lastScrollTop = 0;
transcriptEl.addEventListener('scroll', () => {
  const top = transcriptEl.scrollTop;
  if (top < lastScrollTop - 2) follow = nearEnd();
  else if (nearEnd()) follow = true;
  lastScrollTop = top;
  jumpButton.hidden = follow;
  saveSoon();
});

// Rows change height after they are placed: content-visibility lays a page of rows out for real
// only when it comes near the viewport, and far pages are drawn again. While following, the end stays
// in view through those changes too (a jump to the end would otherwise land short of it).
const rowHeights = new ResizeObserver(() => {
  if (follow) transcriptEl.scrollTop = transcriptEl.scrollHeight;
  jumpButton.hidden = follow || nearEnd();
});
for (const row of Array.from(transcriptEl.children)) rowHeights.observe(row);
new MutationObserver((records) => {
  for (const record of records) {
    record.addedNodes.forEach((node) => node instanceof Element && rowHeights.observe(node));
    record.removedNodes.forEach((node) => node instanceof Element && rowHeights.unobserve(node));
  }
}).observe(transcriptEl, { childList: true });

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
      drawChanges(message.snapshot.changes);
      break;
    case 'changes':
      drawChanges(message.changes);
      return;
    case 'entry':
      upsert(message.entry);
      break;
    case 'text':
      appendText(message.id, message.text);
      return; // drawn and scrolled once per frame
    case 'output':
      appendOutput(message.id, message.text);
      return;
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
    case 'draft':
      // Queued messages that will not be sent come back into the input, never dropped.
      input.value = input.value.trim() === '' ? message.text : `${message.text}\n\n${input.value}`;
      composerNote.textContent = message.reason;
      composerNote.hidden = false;
      saveSoon();
      return;
  }
  requestFrame();
}

/** The change summary above the composer (changeSummary.ts); its fold is the page's own state. */
let changes: ChangeSummaryView | undefined;
const summaryHost: ChangeSummaryHost = {
  post: (message) => vscode.postMessage(message),
  isFolded: () => expanded.has(SUMMARY_FOLDED),
  setFolded: (folded) => {
    callbacks.setExpanded(SUMMARY_FOLDED, folded);
    drawChanges(changes);
  },
};

function drawChanges(next: ChangeSummaryView | undefined): void {
  changes = next;
  drawChangeSummary(next, summaryHost);
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = parseExtensionMessage(event.data);
  if (message) handle(message);
  else console.warn('chat: ignored an unknown message');
});

// ---- composer ------------------------------------------------------------------------------

/**
 * Sends the draft. While an answer runs the extension queues it (shown as a pending message and
 * sent when the answer is over), so the text is never dropped between two answers.
 */
function send(): void {
  const text = input.value;
  if (text.trim() === '' || input.disabled || text.length > MAX_PROMPT_CHARS) return;
  vscode.postMessage({ type: 'send', text });
  input.value = '';
  composerNote.hidden = true;
  // The answer to what was just sent is what the reader wants to see.
  follow = true;
  requestFrame();
  saveSoon();
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
  saveSoon();
  updateTypingHint();
});

// ---- state across hide/show ----------------------------------------------------------------

/** Written to the saved state so far (for the chat benchmark, bench/chat; nothing reads it here). */
const stats = { stateWrites: 0, stateBytes: 0 };
(window as unknown as { chatStateStats: typeof stats }).chatStateStats = stats;
let saveTimer: ReturnType<typeof setTimeout> | undefined;
let lastSaved = '';
/** Quiet time before the state is written: typing writes it once per pause, not per key. */
const SAVE_DELAY_MS = 400;

function saveSoon(): void {
  if (saveTimer !== undefined) clearTimeout(saveTimer);
  saveTimer = setTimeout(saveNow, SAVE_DELAY_MS);
}

function saveNow(): void {
  if (saveTimer !== undefined) clearTimeout(saveTimer);
  saveTimer = undefined;
  const state: SavedState = { draft: input.value, expanded: [...expanded], anchor: topRow(), follow };
  const text = JSON.stringify(state);
  if (text === lastSaved) return;
  lastSaved = text;
  stats.stateWrites += 1;
  stats.stateBytes += text.length;
  vscode.setState(state);
}

// The page may be torn down right after it is hidden: what is pending is written now.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') saveNow();
});

/** The row at the top of the view and how far its top is from the view's (what a re-show goes back to). */
let lastAnchor: ScrollAnchor | undefined;
function topRow(): ScrollAnchor | undefined {
  // A hidden view has no layout to read: what was at the top when it was last seen stays.
  if (transcriptEl.clientHeight === 0) return lastAnchor;
  lastAnchor = firstVisibleRow();
  return lastAnchor;
}

function firstVisibleRow(): ScrollAnchor | undefined {
  const top = transcriptEl.getBoundingClientRect().top;
  for (const row of Array.from(transcriptEl.querySelectorAll<HTMLElement>(':scope > .page:not(.far) > .entry'))) {
    const box = row.getBoundingClientRect();
    if (box.bottom > top && row.dataset.id) return { id: row.dataset.id, offset: Math.round(box.top - top) };
  }
  return undefined;
}

const saved = vscode.getState();
// Expanded cards stay expanded when the view is shown again (the webview is rebuilt then).
if (Array.isArray(saved?.expanded)) for (const id of saved.expanded) if (typeof id === 'string') expanded.add(id);
if (typeof saved?.draft === 'string') input.value = saved.draft;
if (saved?.follow !== undefined) {
  const anchor = saved.anchor;
  restoreScroll = { follow: saved.follow !== false, ...(typeof anchor?.id === 'string' && typeof anchor.offset === 'number' ? { anchor } : {}) };
}
lastSaved = JSON.stringify({ draft: input.value, expanded: [...expanded], anchor: saved?.anchor, follow: saved?.follow });
// The conversation comes from the extension only: it answers `ready` with one snapshot.
vscode.postMessage({ type: 'ready' });
