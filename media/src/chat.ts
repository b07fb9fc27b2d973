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
 *
 * Its parts: page.ts (the page's elements), viewState.ts (what the parts share), statusBar.ts (all
 * around the conversation), following.ts (scrolling), approvalFocus.ts (a waiting card's keys),
 * savedState.ts (hide/show), rowSummary.ts (rows without their DOM), render.ts (the rows).
 */
import { applyChatPatch, indexOfEntry } from '../../src/features/chat/shared/chatPatch';
import {
  MAX_PROMPT_CHARS,
  emptyTokenUsage,
  parseExtensionMessage,
  type ChatEntry,
  type ChatSnapshot,
  type ChatStatus,
  type ExtensionToWebview,
} from '../../src/features/chat/shared/protocol';
import { composerEnter, isArmed, noticeWaitingCards, updateTypingHint, waitingCard } from './approvalFocus';
import { applyDraft } from './composerDraft';
import { drawChanges, SUMMARY_FOLDED } from './changeSummary';
import { holdAnchor, nearEnd } from './following';
import { redrawFollowUps } from './followUps';
import { PagedList } from './pages';
import {
  bannerEl,
  bannerText,
  composerNote,
  emptyEl,
  form,
  input,
  jumpButton,
  keyPromptEl,
  previousEl,
  sendButton,
  stopButton,
  transcriptEl,
  vscode,
  workingEl,
  workingText,
} from './page';
import { outputView, renderEntry, setOutputText, updateAssistant, type EntryCallbacks } from './render';
import { rowEstimate, rowText } from './rowSummary';
import { restoreSaved, saveNow, saveSoon } from './savedState';
import { drawAttachments, drawBannerAction, drawKey, drawQueued, drawStarter } from './statusBar';
import { elements, expanded, view } from './viewState';

/** The conversation's model: follows the extension's patches through applyChatPatch (shared with the extension's tests). */
let entries: readonly ChatEntry[] = [];
/** The same entries by id (text and output deltas find theirs without a scan). */
const byEntryId = new Map<string, ChatEntry>();
let status: ChatStatus = { running: false, totals: emptyTokenUsage(), requests: 0 };
/** Assistant entries whose markdown changed since the last frame. */
const dirty = new Set<string>();
/** Tool cards whose output grew since the last frame. */
const dirtyOutputs = new Set<string>();
let frameRequested = false;
/** "Open Chat" asked for the input's focus; honoured again when the webview itself gets focus. */
let focusRequested = false;

const callbacks: EntryCallbacks = {
  card: (message) => {
    // Deny sends what the composer holds as the reason, to Claude with the denial (a host
    // request has nobody to tell: the text stays in the composer).
    if (message.type === 'approve' && message.decision === 'deny' && message.host === undefined && input.value.trim() !== '') {
      vscode.postMessage({ ...message, reason: input.value.trim().slice(0, 4000) });
      input.value = '';
      saveNow();
      return;
    }
    vscode.postMessage(message);
  },
  openMemory: (entryId, path) => vscode.postMessage({ type: 'openMemory', entryId, path }),
  action: (action) => vscode.postMessage({ type: action }),
  followUp: (entryId, action) => vscode.postMessage({ type: 'followUp', entryId, action }),
  code: (action, code, language) => vscode.postMessage({ type: 'code', action, code, ...(language ? { language } : {}) }),
  isExpanded: (id) => expanded.has(id),
  setExpanded: (id, open) => {
    if (open) expanded.add(id);
    else expanded.delete(id);
    saveSoon();
  },
};

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

function drawSnapshot(snapshot: ChatSnapshot): void {
  entries = applyChatPatch(entries, { type: 'snapshot', snapshot });
  byEntryId.clear();
  for (const entry of entries) byEntryId.set(entry.id, entry);
  elements.clear();
  dirty.clear();
  dirtyOutputs.clear();
  // A card's own keys ("e12", "e12/output") go with it.
  for (const id of [...expanded]) if (id !== SUMMARY_FOLDED && !byEntryId.has(id.split('/')[0])) expanded.delete(id);
  view.follow = view.restoreScroll?.follow ?? true;
  // Only what fills the view is drawn: where the reader was, else the end.
  list.reset(entries.map((e) => e.id), view.follow ? undefined : view.restoreScroll?.anchor?.id);
  updateEmpty();
  drawStatus(snapshot.status);
  if (entries.length === 0) view.restoreScroll = undefined;
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
    entries = applyChatPatch(entries, { type: 'entry', entry });
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
      redrawFollowUps(old, entry, callbacks.followUp);
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
    entries = applyChatPatch(entries, { type: 'entry', entry });
    byEntryId.set(entry.id, entry);
    // At the end, before the key prompt and the working line.
    list.append(entry.id);
    updateEmpty();
    // A new message of the user's (typed, Resume, Ask from the palette): show it and what follows.
    if (entry.kind === 'user') view.follow = true;
  }
}

function appendText(id: string, text: string): void {
  if (byEntryId.get(id)?.kind !== 'assistant') return;
  entries = applyChatPatch(entries, { type: 'text', id, text });
  byEntryId.set(id, entries[indexOfEntry(entries, id)]);
  // Deltas arrive faster than frames; markdown is rendered at most once per frame per entry.
  dirty.add(id);
  requestFrame();
}

function appendOutput(id: string, text: string): void {
  if (byEntryId.get(id)?.kind !== 'tool') return;
  entries = applyChatPatch(entries, { type: 'output', id, text });
  byEntryId.set(id, entries[indexOfEntry(entries, id)]);
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
      // Where the card draws it: under the approval's answer and the host requests, else under the header.
      (card.querySelector(':scope > .tool-network') ?? card.querySelector(':scope > .tool-approval') ?? card.querySelector(':scope > .tool-head'))?.after(box);
    }
    setOutputText(box, entry.output ?? '');
  }
  dirtyOutputs.clear();
  afterChange();
}

function remove(id: string): void {
  byEntryId.delete(id);
  entries = applyChatPatch(entries, { type: 'remove', id });
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
  drawKey(next.key, next.pendingKey === true, disabled, next.keyRejected === true, callbacks);
  drawAttachments(next.attachments ?? []);
  drawStarter(next.starter);
  list.reconcileSoon();
}

/** After every change: follow the answer when following, else offer the way back. */
function afterChange(): void {
  if (view.restoreScroll && entries.length > 0) {
    // Back where the reader was when the view was hidden (unless they were following the end):
    // the same row at the same place at the top of the view.
    if (view.restoreScroll.anchor && !view.restoreScroll.follow) holdAnchor(view.restoreScroll.anchor);
    view.restoreScroll = undefined;
  }
  if (view.follow) transcriptEl.scrollTop = transcriptEl.scrollHeight;
  jumpButton.hidden = view.follow || nearEnd();
  noticeWaitingCards();
}

jumpButton.addEventListener('click', () => {
  view.follow = true;
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
      // Queued messages come back into the input, never dropped; a rewound message never merges into a draft unasked.
      applyDraft(input, composerNote, message, saveSoon);
      return;
  }
  requestFrame();
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
  view.follow = true;
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
    // With a card waiting (and armed), Enter with text is Deny with that text as the reason.
    if (!composerEnter()) send();
  } else if (event.key === 'Escape' && waitingCard()) {
    // Escape in the composer while a card waits: deny it, with the typed text as the reason;
    // never in its first second (the key was not meant for it), and never Stop either.
    event.preventDefault();
    event.stopPropagation();
    const card = waitingCard();
    if (card && isArmed(card)) card.querySelector<HTMLButtonElement>('button[data-action="deny"], button[data-action="reject"]')?.click();
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

restoreSaved();
// The conversation comes from the extension only: it answers `ready` with one snapshot.
vscode.postMessage({ type: 'ready' });
