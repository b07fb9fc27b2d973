/**
 * One DOM element per conversation entry. Display text goes in with textContent; only assistant
 * markdown becomes HTML, through renderMarkdown (marked, then DOMPurify).
 */
import type { ChatEntry, ErrorAction, ToolStatus } from '../../src/webviews/protocol';
import { formatUsage } from './format';
import { renderMarkdown } from './markdown';

export interface EntryCallbacks {
  /** Opens a tool card's path; `entryId` tells the extension which folder's memory it is in. */
  openMemory(entryId: string, path: string): void;
  action(action: ErrorAction): void;
  /** Whether a tool card's result is expanded; kept outside the DOM so updates keep it. */
  isExpanded(id: string): boolean;
  setExpanded(id: string, expanded: boolean): void;
}

const TOOL_ICONS: Record<string, string> = {
  view: 'eye',
  create: 'new-file',
  str_replace: 'replace',
  insert: 'insert',
  delete: 'trash',
  rename: 'arrow-swap',
};

const STATUS_LABELS: Record<ToolStatus, { icon: string; text: string }> = {
  running: { icon: 'loading codicon-modifier-spin', text: 'running' },
  ok: { icon: 'check', text: 'ok' },
  error: { icon: 'error', text: 'error' },
};

const ACTION_LABELS: Record<ErrorAction, { icon: string; text: string }> = {
  setApiKey: { icon: 'key', text: 'Set API Key' },
  retry: { icon: 'refresh', text: 'Retry' },
  openSettings: { icon: 'settings-gear', text: 'Open Settings' },
};

export function renderEntry(entry: ChatEntry, callbacks: EntryCallbacks): HTMLElement {
  switch (entry.kind) {
    case 'user':
      return userEntry(entry.text);
    case 'assistant':
      return assistantEntry(entry.markdown, entry.streaming);
    case 'tool':
      return toolCard(entry, callbacks);
    case 'usage':
      return element('div', 'entry usage', formatUsage(entry.usage), { title: 'Tokens of this model request' });
    case 'notice':
      return element('div', 'entry notice', entry.text);
    case 'error':
      return errorEntry(entry.message, entry.actions, callbacks);
  }
}

/** Re-renders a streaming assistant entry in place (cheaper than replacing the element). */
export function updateAssistant(el: HTMLElement, markdown: string, streaming: boolean): void {
  const body = el.querySelector<HTMLElement>('.markdown');
  if (body) body.replaceChildren(renderMarkdown(markdown));
  el.setAttribute('aria-busy', String(streaming));
  el.classList.toggle('streaming', streaming);
}

function userEntry(text: string): HTMLElement {
  const el = element('div', 'entry user');
  el.append(element('div', 'who', 'You'), element('div', 'user-text', text));
  return el;
}

function assistantEntry(markdown: string, streaming: boolean): HTMLElement {
  const el = element('div', 'entry assistant');
  const body = element('div', 'markdown');
  el.append(element('div', 'who', 'Claude'), body);
  updateAssistant(el, markdown, streaming);
  return el;
}

function toolCard(entry: Extract<ChatEntry, { kind: 'tool' }>, callbacks: EntryCallbacks): HTMLElement {
  const card = element('div', `entry tool tool-${entry.status}`);
  card.setAttribute('role', 'group');
  card.setAttribute('aria-label', `Memory ${entry.command} ${entry.path ?? ''}: ${STATUS_LABELS[entry.status].text}`);
  const head = element('div', 'tool-head');
  head.append(icon(TOOL_ICONS[entry.command] ?? 'tools', 'tool-icon'), element('span', 'tool-command', entry.command));

  if (entry.path) {
    const path = entry.path;
    // Every path is under /memories; the narrow side bar shows the part after it.
    const shown = path.startsWith('/memories/') ? path.slice('/memories/'.length) : path;
    const open = element('button', 'link tool-path', shown, { type: 'button', title: `Open ${path}`, 'aria-label': `Open ${path}` });
    open.addEventListener('click', () => callbacks.openMemory(entry.id, path));
    head.append(open);
  } else {
    head.append(element('span', 'tool-path', '/memories'));
  }

  const status = STATUS_LABELS[entry.status];
  const badge = element('span', `badge badge-${entry.status}`);
  badge.append(icon(status.icon), document.createTextNode(status.text));
  head.append(badge);
  card.append(head);

  if (entry.summary) {
    const summaryId = `summary-${entry.id}`;
    const expanded = callbacks.isExpanded(entry.id);
    const toggle = element('button', 'icon-button tool-toggle', undefined, {
      type: 'button',
      'aria-expanded': String(expanded),
      'aria-controls': summaryId,
      'aria-label': 'Show result',
      title: 'Show result',
    });
    toggle.append(icon(expanded ? 'chevron-down' : 'chevron-right'));
    const summary = element('div', 'tool-summary', entry.summary, { id: summaryId });
    summary.hidden = !expanded;
    toggle.addEventListener('click', () => {
      const open = summary.hidden;
      summary.hidden = !open;
      toggle.setAttribute('aria-expanded', String(open));
      toggle.replaceChildren(icon(open ? 'chevron-down' : 'chevron-right'));
      callbacks.setExpanded(entry.id, open);
    });
    head.append(toggle);
    card.append(summary);
  }
  return card;
}

function errorEntry(message: string, actions: ErrorAction[], callbacks: EntryCallbacks): HTMLElement {
  const el = element('div', 'entry error');
  el.setAttribute('role', 'alert');
  const text = element('div', 'error-text');
  text.append(icon('error'), document.createTextNode(message));
  el.append(text);
  if (actions.length > 0) {
    const bar = element('div', 'error-actions');
    for (const action of actions) {
      const label = ACTION_LABELS[action];
      const button = element('button', 'button', undefined, { type: 'button', 'data-action': action });
      button.append(icon(label.icon), document.createTextNode(label.text));
      button.addEventListener('click', () => callbacks.action(action));
      bar.append(button);
    }
    el.append(bar);
  }
  return el;
}

export function icon(name: string, extra = ''): HTMLElement {
  const el = element('span', `codicon codicon-${name} ${extra}`.trim());
  el.setAttribute('aria-hidden', 'true');
  return el;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string,
  attributes: Record<string, string> = {},
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  el.className = className;
  if (text !== undefined) el.textContent = text;
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  return el;
}
