/**
 * One DOM element per conversation entry. Display text goes in with textContent; only assistant
 * markdown becomes HTML, through renderMarkdown (marked, then DOMPurify). Tool cards are drawn by
 * toolCard.ts (with cardApproval.ts, cardChange.ts and cardButtons.ts).
 */
import type { ChatEntry, CodeAction, ErrorAction, FollowUpAction, NoticeAction, WebviewToExtension } from '../../src/features/chat/shared/protocol';

export type CardMessage = Extract<
  WebviewToExtension,
  { type: 'approve' | 'openDiff' | 'undoEdit' | 'showChange' | 'unfoldOutput' | 'manageRules' | 'openFile' | 'rewind' | 'undoRewind' | 'sandboxSetting' | 'allowHost' }
>;
import { decorateCodeBlocks } from './codeBlocks';
import { element, icon } from './dom';
import { followUpBar } from './followUps';
import { formatUsageDetails, formatUsageLine } from './format';
import { IncrementalMarkdown } from './markdown';
import { decorateRewind } from './rewind';
import { toolCard } from './toolCard';

export { outputView, setOutputText } from './toolCard';

export { icon };

export interface EntryCallbacks {
  /** A card's buttons: approval answers, Open Diff, Undo. */
  card(message: CardMessage): void;
  /** Opens a tool card's path; `entryId` tells the extension which folder's memory it is in. */
  openMemory(entryId: string, path: string): void;
  action(action: ErrorAction | NoticeAction): void;
  /** A follow-up button under message `entryId` (followUps.ts). */
  followUp(entryId: string, action: FollowUpAction): void;
  code(action: CodeAction, code: string, language: string | undefined): void;
  /** Whether a card (or a prompt chip) is expanded; kept outside the DOM so updates keep it. */
  isExpanded(id: string): boolean;
  setExpanded(id: string, expanded: boolean): void;
}

export const ACTION_LABELS: Record<ErrorAction | NoticeAction, { icon: string; text: string }> = {
  setApiKey: { icon: 'key', text: 'Set API Key' },
  getApiKey: { icon: 'link-external', text: 'Get an API key' },
  retry: { icon: 'refresh', text: 'Retry' },
  openSettings: { icon: 'settings-gear', text: 'Open Settings' },
  reopenPrevious: { icon: 'history', text: 'Reopen previous conversation' },
};

export function renderEntry(entry: ChatEntry, callbacks: EntryCallbacks): HTMLElement {
  const row = renderRow(entry, callbacks);
  const followUps = followUpBar(entry, callbacks.followUp);
  if (followUps) row.append(followUps);
  return decorateRewind(entry, row, callbacks.card);
}

function renderRow(entry: ChatEntry, callbacks: EntryCallbacks): HTMLElement {
  switch (entry.kind) {
    case 'user':
      return entry.label ? promptChip(entry, callbacks) : userEntry(entry.text, entry.attachments);
    case 'assistant':
      return assistantEntry(entry.markdown, entry.streaming, callbacks, entry.continued === true);
    case 'tool':
      return toolCard(entry, callbacks);
    case 'usage':
      return element('div', 'entry usage', formatUsageLine(entry.usage, entry.costUsd), {
        title: formatUsageDetails(
          entry.usage,
          entry.requests,
          entry.model,
          entry.costUsd,
          entry.compaction ? { usage: entry.compaction, costUsd: entry.compactionCostUsd } : undefined,
        ),
      });
    case 'notice': {
      const el = element('div', 'entry notice', entry.text);
      if (entry.action) el.append(' ', actionButton(entry.action, callbacks, 'link'));
      return el;
    }
    case 'reads':
      return readsNote(entry, callbacks);
    case 'error':
      return errorEntry(entry.message, entry.actions, callbacks);
  }
}

/** "Read 3 memory files: …": a quiet line; expanding it lists every path (also on hover). */
function readsNote(entry: Extract<ChatEntry, { kind: 'reads' }>, callbacks: EntryCallbacks): HTMLElement {
  const el = element('div', 'entry reads');
  const details = element('details', 'reads-details');
  details.open = callbacks.isExpanded(entry.id);
  const summary = element('summary', 'reads-summary', undefined, { title: entry.paths.join('\n') });
  summary.append(icon('book'), element('span', 'reads-text', entry.text));
  const list = element('ul', 'reads-list', undefined, { 'aria-label': 'Memory files Claude read' });
  for (const path of entry.paths) list.append(element('li', '', path));
  details.append(summary, list);
  details.addEventListener('toggle', () => callbacks.setExpanded(entry.id, details.open));
  el.append(details);
  return el;
}

const renderers = new WeakMap<HTMLElement, IncrementalMarkdown>();

/** Draws (or redraws) an assistant entry; while it streams only the block being written changes. */
export function updateAssistant(el: HTMLElement, markdown: string, streaming: boolean, callbacks: EntryCallbacks): void {
  const body = el.querySelector<HTMLElement>('.markdown');
  if (body) {
    let renderer = renderers.get(body);
    if (!renderer) {
      renderer = new IncrementalMarkdown(body, (block, closed) => decorateCodeBlocks(block, (action, code, language) => callbacks.code(action, code, language), closed));
      renderers.set(body, renderer);
    }
    body.querySelector('.cursor-here')?.classList.remove('cursor-here');
    renderer.update(markdown, streaming);
    if (streaming) markCursor(body);
  }
  el.setAttribute('aria-busy', String(streaming));
  el.classList.toggle('streaming', streaming);
}

/**
 * The streaming cursor goes at the end of the last text, inside the last paragraph or list item,
 * so it does not drop to a line of its own after a list.
 */
function markCursor(body: HTMLElement): void {
  let target: Element = body;
  for (;;) {
    const last = target.lastElementChild;
    if (!last || !/^(P|UL|OL|LI|BLOCKQUOTE|H[1-6]|TABLE|TBODY|THEAD|TR|TD|TH)$/.test(last.tagName)) break;
    target = last;
  }
  target.classList.add('cursor-here');
}

function userEntry(text: string, attachments: readonly string[] | undefined): HTMLElement {
  const el = element('div', 'entry user');
  el.append(element('div', 'who', 'You'), element('div', 'user-text', text));
  if (attachments && attachments.length > 0) el.append(attachmentList(attachments));
  return el;
}

function attachmentList(labels: readonly string[]): HTMLElement {
  const list = element('div', 'chips');
  for (const label of labels) {
    const chip = element('span', 'chip');
    chip.append(icon('file'), document.createTextNode(label));
    list.append(chip);
  }
  return list;
}

/** A built-in prompt: one line with its name; the full text is one click away. */
function promptChip(entry: Extract<ChatEntry, { kind: 'user' }>, callbacks: EntryCallbacks): HTMLElement {
  const el = element('div', 'entry user prompt-chip');
  const details = element('details', 'prompt-details');
  details.open = callbacks.isExpanded(entry.id);
  const summary = element('summary', 'prompt-summary', undefined, { title: 'Show the prompt that was sent' });
  summary.append(icon('sparkle'), element('span', 'prompt-label', entry.label));
  details.append(summary, element('div', 'user-text prompt-text', entry.text));
  details.addEventListener('toggle', () => callbacks.setExpanded(entry.id, details.open));
  el.append(details);
  return el;
}

function assistantEntry(markdown: string, streaming: boolean, callbacks: EntryCallbacks, continued: boolean): HTMLElement {
  const el = element('div', continued ? 'entry assistant continued' : 'entry assistant');
  const body = element('div', 'markdown');
  // One "Claude" header per answer; its later texts (between cards) go on without one.
  if (!continued) el.append(element('div', 'who', 'Claude'));
  el.append(body);
  // Drawn whole: a row is drawn only when its page comes near the view (pages.ts).
  updateAssistant(el, markdown, streaming, callbacks);
  return el;
}

function errorEntry(message: string, actions: ErrorAction[], callbacks: EntryCallbacks): HTMLElement {
  const el = element('div', 'entry error');
  el.setAttribute('role', 'alert');
  const text = element('div', 'error-text');
  text.append(icon('error'), document.createTextNode(message));
  el.append(text);
  if (actions.length > 0) {
    const bar = element('div', 'error-actions');
    for (const action of actions) bar.append(actionButton(action, callbacks));
    el.append(bar);
  }
  return el;
}

export function actionButton(action: ErrorAction | NoticeAction, callbacks: Pick<EntryCallbacks, 'action'>, style: 'button' | 'link' = 'button'): HTMLButtonElement {
  const label = ACTION_LABELS[action];
  const button = element('button', style === 'link' ? 'link' : 'button', undefined, { type: 'button', 'data-action': action });
  button.append(icon(label.icon), document.createTextNode(` ${label.text}`));
  button.addEventListener('click', () => callbacks.action(action));
  return button;
}
