/**
 * One DOM element per conversation entry. Display text goes in with textContent; only assistant
 * markdown becomes HTML, through renderMarkdown (marked, then DOMPurify).
 */
import type { ChatEntry, CodeAction, ErrorAction, NoticeAction, ToolApproval, ToolChange, ToolEdit, ToolFile, ToolStatus, WebviewToExtension } from '../../src/features/chat/shared/protocol';
import { changeRows, type ChangeRow } from '../../src/features/chat/shared/changeRows';
import { OUTPUT_TAIL_LINES, commandOutcome, outputLineCount, rangeLabel, splitPath, type CommandOutcome } from '../../src/features/chat/shared/cardText';

export type CardMessage = Extract<WebviewToExtension, { type: 'approve' | 'openDiff' | 'undoEdit' | 'showChange' | 'unfoldOutput' | 'manageRules' | 'openFile' | 'rewind' }>;
import { decorateCodeBlocks } from './codeBlocks';
import { element, icon } from './dom';
import { formatUsageDetails, formatUsageLine } from './format';
import { IncrementalMarkdown } from './markdown';
import { decorateRewind } from './rewind';

export { icon };

export interface EntryCallbacks {
  /** A card's buttons: approval answers, Open Diff, Undo. */
  card(message: CardMessage): void;
  /** Opens a tool card's path; `entryId` tells the extension which folder's memory it is in. */
  openMemory(entryId: string, path: string): void;
  action(action: ErrorAction | NoticeAction): void;
  code(action: CodeAction, code: string, language: string | undefined): void;
  /** Whether a card (or a prompt chip) is expanded; kept outside the DOM so updates keep it. */
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
  run: 'terminal',
  restart: 'debug-restart',
};

/** How a card names its tool (memory cards say nothing: they are the default). */
const TOOL_TITLES: Record<string, string> = {
  str_replace_based_edit_tool: 'File',
  bash: 'Shell',
};

const STATUS_LABELS: Record<ToolStatus, { icon: string; text: string }> = {
  running: { icon: 'loading codicon-modifier-spin', text: 'running' },
  ok: { icon: 'pass', text: 'done' },
  error: { icon: 'error', text: 'failed' },
};

export const ACTION_LABELS: Record<ErrorAction | NoticeAction, { icon: string; text: string }> = {
  setApiKey: { icon: 'key', text: 'Set API Key' },
  getApiKey: { icon: 'link-external', text: 'Get an API key' },
  retry: { icon: 'refresh', text: 'Retry' },
  openSettings: { icon: 'settings-gear', text: 'Open Settings' },
  reopenPrevious: { icon: 'history', text: 'Reopen previous conversation' },
};

export function renderEntry(entry: ChatEntry, callbacks: EntryCallbacks): HTMLElement {
  return decorateRewind(entry, renderRow(entry, callbacks), callbacks.card);
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

function toolCard(entry: Extract<ChatEntry, { kind: 'tool' }>, callbacks: EntryCallbacks): HTMLElement {
  const card = element('div', `entry tool tool-${entry.status}`);
  const status = STATUS_LABELS[entry.status];
  const title = entry.tool ? TOOL_TITLES[entry.tool] : undefined;
  // A finished command says how it ended: "exit 1" next to a red ✗, never a green ✓.
  const outcome: CommandOutcome | undefined = entry.exit && entry.status !== 'running' ? commandOutcome(entry.exit) : undefined;
  const statusText = outcome?.label ? `${status.text}, ${outcome.label}` : status.text;
  card.setAttribute('role', 'group');
  const range = entry.file ? rangeLabel(entry.file.range) : undefined;
  card.setAttribute('aria-label', `${title ?? 'Memory'} ${entry.command} ${entry.path ?? ''}${range ? `, lines ${range}` : ''}: ${statusText}`);
  const head = element('div', 'tool-head');
  head.append(icon(TOOL_ICONS[entry.command] ?? 'tools', 'tool-icon'), element('span', 'tool-command', entry.command));

  if (entry.tool === 'bash' && entry.path) {
    head.append(element('code', 'tool-path tool-shell', entry.path, { title: entry.path }));
  } else if (entry.tool && entry.file) {
    head.append(fileLink(entry.id, entry.file, callbacks));
  } else if (entry.tool && entry.path) {
    // A path outside the folder (the call failed): as written, its name first all the same.
    head.append(namedPath(entry.path, undefined, 'span', {}));
  } else if (entry.path) {
    const path = entry.path;
    // Every path is under /memories; the narrow side bar shows the part after it, the full one on hover.
    const shown = path.startsWith('/memories/') ? path.slice('/memories/'.length) : path;
    const open = element('button', 'link tool-path', shown, { type: 'button', title: `Open ${path}`, 'aria-label': `Open ${path}` });
    open.addEventListener('click', () => callbacks.openMemory(entry.id, path));
    head.append(open);
  } else {
    head.append(element('span', 'tool-path', '/memories'));
  }

  if (outcome?.label) head.append(element('span', 'tool-exit', outcome.label, { title: `The command ${outcome.description}.` }));
  const mark = element('span', `tool-status status-${entry.status}`, undefined, { title: outcome ? `${status.text}: ${outcome.description}` : status.text, role: 'img', 'aria-label': statusText });
  mark.append(icon(status.icon));
  head.append(mark);
  card.append(head);

  if (entry.approval) card.append(approvalView(entry.id, entry.approval, callbacks));
  if (entry.output !== undefined) card.append(...outputView(entry.output, entry.status === 'running' ? undefined : { id: entry.id, callbacks }));
  else if (entry.foldedOutput !== undefined) {
    // An old card's output is not sent with the conversation: one click brings it.
    const bar = element('div', 'tool-edit tool-folded');
    bar.append(cardLink(`Show Output (${entry.foldedOutput} lines)`, 'unfold', { type: 'unfoldOutput', entryId: entry.id }, callbacks, 'unfold-output'));
    card.append(bar);
  }
  if (entry.edit) card.append(editBar(entry.id, entry.edit, callbacks));
  if (entry.version !== undefined && !entry.tool) card.append(historyBar(entry.id, entry.version, entry.change, callbacks));

  const body = toolBody(entry);
  if (body) {
    const bodyId = `details-${entry.id}`;
    const expanded = callbacks.isExpanded(entry.id);
    const toggle = element('button', 'icon-button tool-toggle', undefined, {
      type: 'button',
      'aria-expanded': String(expanded),
      'aria-controls': bodyId,
      'aria-label': entry.change ? 'Show what changed' : 'Show result',
      title: entry.change ? 'Show what changed' : 'Show result',
    });
    toggle.append(icon(expanded ? 'chevron-down' : 'chevron-right'));
    body.id = bodyId;
    body.hidden = !expanded;
    toggle.addEventListener('click', () => {
      const open = body.hidden;
      body.hidden = !open;
      toggle.setAttribute('aria-expanded', String(open));
      toggle.replaceChildren(icon(open ? 'chevron-down' : 'chevron-right'));
      callbacks.setExpanded(entry.id, open);
    });
    head.append(toggle);
    card.append(body);
  }
  return card;
}

/** The question on a card, or how it was answered. */
function approvalView(id: string, approval: ToolApproval, callbacks: EntryCallbacks): HTMLElement {
  const el = element('div', `tool-approval approval-${approval.state}`);
  if (approval.state !== 'pending') {
    const said: Record<Exclude<ToolApproval['state'], 'pending'>, string> =
      approval.kind === 'command'
        ? { once: 'Allowed once', always: `Always allowed here: ${approval.prefixes.join(', ')}`, deny: 'Denied' }
        : approval.kind === 'network'
          ? { once: `Allowed ${approval.host} once`, always: `Always allowed: ${approval.host}`, deny: `Denied ${approval.host}` }
          : { once: 'Accepted', always: 'Accepted', deny: 'Rejected' };
    el.append(icon(approval.state === 'deny' ? 'circle-slash' : 'check'), document.createTextNode(` ${said[approval.state]}`));
    return el;
  }
  el.setAttribute('role', 'group');
  // The waiting card takes the keyboard: Enter allows once (accepts), Escape denies (chat.ts).
  el.setAttribute('tabindex', '-1');
  el.dataset.entryId = id;
  if (approval.kind === 'command') {
    el.setAttribute('aria-label', 'Claude asks to run a command. Enter allows it once, Escape denies it.');
    el.append(element('div', 'approval-question', 'Run this command?'), element('code', 'approval-command', approval.command));
    const bar = element('div', 'error-actions');
    bar.append(
      cardButton('Allow once', 'check', { type: 'approve', entryId: id, decision: 'once' }, callbacks, 'button', 'allow-once'),
      // One rule per part of a compound command, to choose from: each remembers only itself.
      ...approval.prefixes.map((rule) =>
        cardButton(`Always allow "${rule}" here`, 'check-all', { type: 'approve', entryId: id, decision: 'always', rule }, callbacks, 'secondary', 'allow-always'),
      ),
      ...(approval.sandboxed
        ? [cardButton('Allow sandboxed commands in this chat', 'shield', { type: 'approve', entryId: id, decision: 'sandboxed' }, callbacks, 'secondary', 'allow-sandboxed')]
        : []),
      cardButton('Deny', 'circle-slash', { type: 'approve', entryId: id, decision: 'deny' }, callbacks, 'secondary', 'deny'),
    );
    el.append(bar);
    const foot = element('div', 'approval-foot');
    foot.append(
      element('span', 'approval-keys', 'Enter: allow once · Escape: deny (what you typed in the box below goes to Claude as the reason) · '),
      cardLink('Manage Command Rules', 'shield', { type: 'manageRules' }, callbacks, 'manage-rules'),
    );
    el.append(foot);
  } else if (approval.kind === 'network') {
    el.setAttribute('aria-label', 'A running command asks to reach a host. Enter allows it once, Escape denies it.');
    el.append(element('div', 'approval-question', 'The command wants to reach'), element('code', 'approval-command', approval.host));
    const bar = element('div', 'error-actions');
    bar.append(
      cardButton('Allow once', 'check', { type: 'approve', entryId: id, decision: 'once' }, callbacks, 'button', 'allow-once'),
      cardButton(`Always allow ${approval.host}`, 'check-all', { type: 'approve', entryId: id, decision: 'always' }, callbacks, 'secondary', 'allow-always'),
      cardButton('Deny', 'circle-slash', { type: 'approve', entryId: id, decision: 'deny' }, callbacks, 'secondary', 'deny'),
    );
    el.append(bar);
  } else {
    el.setAttribute('aria-label', 'Claude asks to change a file. Enter accepts, Escape rejects.');
    el.append(element('div', 'approval-question', `Apply this change to ${approval.path}? (+${approval.added} −${approval.removed} lines)`));
    if (approval.protected) el.append(element('div', 'approval-protected', `Protected place: ${approval.protected}.`));
    const bar = element('div', 'error-actions');
    bar.append(
      cardButton('Open Diff', 'diff', { type: 'openDiff', entryId: id }, callbacks, 'secondary', 'open-diff'),
      cardButton('Accept', 'check', { type: 'approve', entryId: id, decision: 'once' }, callbacks, 'button', 'accept'),
      cardButton('Reject', 'close', { type: 'approve', entryId: id, decision: 'deny' }, callbacks, 'secondary', 'reject'),
    );
    el.append(bar);
  }
  return el;
}

function cardButton(text: string, iconName: string, message: CardMessage, callbacks: EntryCallbacks, style: 'button' | 'secondary', action: string): HTMLButtonElement {
  const button = element('button', style === 'secondary' ? 'button secondary' : 'button', undefined, { type: 'button', 'data-action': action });
  button.append(icon(iconName), document.createTextNode(` ${text}`));
  button.addEventListener('click', () => {
    // One answer per question: the card is redrawn with the outcome.
    if (message.type === 'approve') button.closest('.tool-approval')?.querySelectorAll('button').forEach((b) => (b.disabled = true));
    callbacks.card(message);
  });
  return button;
}

/**
 * A command's output: a box that shows its END (where test runners print "# fail 2"), scrolled
 * to the bottom as it grows and when it is drawn again; the rest is a scroll up away. A finished
 * output longer than the box gets "Show all (N lines)", which lets the box grow to all of it.
 * The box anchors at its end by itself (a reversed flex column, chat.css): no script has to
 * scroll it after it is laid out, also for cards drawn off screen or on a restored chat.
 */
export function outputView(text: string, finished?: { id: string; callbacks: Pick<EntryCallbacks, 'isExpanded' | 'setExpanded'> }): HTMLElement[] {
  const box = element('div', 'tool-output', undefined, { role: 'region', 'aria-label': 'Command output', tabindex: '0' });
  box.append(element('pre', 'tool-output-text', text));
  if (!finished) return [box];
  const lines = outputLineCount(text);
  if (lines <= OUTPUT_TAIL_LINES) return [box];
  const key = `${finished.id}/output`;
  const all = finished.callbacks.isExpanded(key);
  box.classList.toggle('tool-output-all', all);
  const bar = element('div', 'tool-output-bar');
  const toggle = element('button', 'link', undefined, { type: 'button', 'data-action': 'output-all', 'aria-expanded': String(all) });
  const draw = (open: boolean): void => {
    toggle.replaceChildren(icon(open ? 'fold' : 'unfold'), document.createTextNode(open ? ' Show the end only' : ` Show all (${lines} lines)`));
    toggle.setAttribute('aria-expanded', String(open));
  };
  draw(all);
  toggle.addEventListener('click', () => {
    const open = !box.classList.contains('tool-output-all');
    box.classList.toggle('tool-output-all', open);
    draw(open);
    finished.callbacks.setExpanded(key, open);
  });
  bar.append(toggle);
  return [box, bar];
}

/** Replaces the text of a card's output box (live output); the box stays anchored at its end. */
export function setOutputText(box: HTMLElement, text: string): void {
  const pre = box.querySelector('.tool-output-text');
  if (pre) pre.textContent = text;
  else box.textContent = text;
}

/**
 * A workspace file on its card: a link whose text puts the name first (it survives a 300 px side
 * bar; the folder after it is cut first), then a read's lines ("todo.js:19–22  src/").
 */
function fileLink(id: string, file: ToolFile, callbacks: EntryCallbacks): HTMLElement {
  const range = rangeLabel(file.range);
  const where = `${file.path}${range ? `, lines ${range}` : ''}`;
  const link = namedPath(file.path, range, 'button', { type: 'button', title: `Open ${where}`, 'aria-label': `Open ${where}`, 'data-action': 'open-file' });
  link.classList.add('link');
  link.addEventListener('click', () => callbacks.card({ type: 'openFile', entryId: id }));
  return link;
}

function namedPath<K extends 'span' | 'button'>(path: string, range: string | undefined, tag: K, attributes: Record<string, string>): HTMLElementTagNameMap[K] {
  const { name, folder } = splitPath(path);
  const el = element(tag, 'tool-path tool-file', undefined, { title: path, ...attributes });
  el.append(element('span', 'file-name', range ? `${name}:${range}` : name));
  if (folder) el.append(element('span', 'file-folder', folder));
  return el;
}

function editBar(id: string, edit: ToolEdit, callbacks: EntryCallbacks): HTMLElement {
  const bar = element('div', 'tool-edit');
  bar.append(element('span', 'edit-size', `+${edit.added} −${edit.removed}`, { title: `${edit.added} line(s) added, ${edit.removed} removed` }));
  bar.append(cardLink('Open Diff', 'diff', { type: 'openDiff', entryId: id }, callbacks, 'open-diff'));
  if (edit.undone) {
    const undone = element('span', 'edit-undone', undefined, { title: `You undid this edit: ${edit.path} is back to its content before it. Claude is told with your next message.` });
    undone.append(icon('discard'), document.createTextNode(' Undone'));
    bar.append(undone);
  }
  else bar.append(cardLink('Undo', 'discard', { type: 'undoEdit', entryId: id }, callbacks, 'undo'));
  return bar;
}

/** A memory write's link to its version in the Memory Changes feed (the diff opens with it). */
function historyBar(id: string, version: number, change: ToolChange | undefined, callbacks: EntryCallbacks): HTMLElement {
  const bar = element('div', 'tool-edit tool-history');
  const size = change ? changeSize(change) : undefined;
  if (size) bar.append(element('span', 'edit-size', `+${size.added} −${size.removed}`, { title: `${size.added} line(s) added, ${size.removed} removed` }));
  const link = cardLink('History', 'history', { type: 'showChange', entryId: id }, callbacks, 'show-change');
  link.title = `Show version ${version} in Memory Changes, with its diff`;
  bar.append(link);
  return bar;
}

function cardLink(text: string, iconName: string, message: CardMessage, callbacks: EntryCallbacks, action: string): HTMLButtonElement {
  const button = element('button', 'link', undefined, { type: 'button', 'data-action': action });
  button.append(icon(iconName), document.createTextNode(` ${text}`));
  button.addEventListener('click', () => callbacks.card(message));
  return button;
}

/** The expandable part of a card: the result line, and what a write changed. */
function toolBody(entry: Extract<ChatEntry, { kind: 'tool' }>): HTMLElement | undefined {
  if (!entry.summary && !entry.change) return undefined;
  const body = element('div', 'tool-details');
  if (entry.summary) body.append(element('div', 'tool-summary', entry.summary));
  if (entry.change) body.append(changeView(entry.change));
  return body;
}

function changeView(change: ToolChange): HTMLElement {
  switch (change.type) {
    case 'str_replace':
      // Line by line, the changed words marked: one flipped `false` is one line out, one in.
      return diffLines(changeRows(change.old, change.new).rows);
    case 'insert':
      return diffLines(lines(change.text).map((text) => ({ kind: 'ins', text })), `after line ${change.line}`);
    case 'create':
      return diffLines(lines(change.text).map((text) => ({ kind: 'ins', text })));
    case 'rename': {
      const el = element('div', 'tool-rename');
      el.append(element('code', '', change.from), icon('arrow-right'), element('code', '', change.to));
      return el;
    }
  }
}

/** Longest change shown inline; the file itself has the rest. */
const MAX_CHANGE_LINES = 200;

function diffLines(rows: readonly ChangeRow[], caption?: string): HTMLElement {
  const el = element('div', 'tool-diff', undefined, { role: 'region', 'aria-label': 'What changed' });
  if (caption) el.append(element('div', 'diff-caption', caption));
  for (const row of rows.slice(0, MAX_CHANGE_LINES)) {
    if (row.kind === 'fold') {
      el.append(element('div', 'diff-fold', `⋯ ${row.count} unchanged line${row.count === 1 ? '' : 's'}`));
      continue;
    }
    const line = element('div', `diff-line diff-${row.kind}`);
    const sign = row.kind === 'ins' ? '+' : row.kind === 'del' ? '−' : ' ';
    const label = row.kind === 'ins' ? 'added' : row.kind === 'del' ? 'removed' : 'unchanged';
    const text = element('span', 'diff-text');
    if (row.kind !== 'ctx' && row.parts) {
      for (const part of row.parts) text.append(part.changed ? element('span', 'diff-word', part.text) : document.createTextNode(part.text));
    } else {
      text.textContent = row.text;
    }
    line.append(element('span', 'diff-sign', sign, { 'aria-label': label }), text);
    el.append(line);
  }
  if (rows.length > MAX_CHANGE_LINES) el.append(element('div', 'diff-caption', `… ${rows.length - MAX_CHANGE_LINES} more lines`));
  return el;
}

/** Lines a memory write added and removed, for its card's "+1 −1". */
function changeSize(change: ToolChange): { added: number; removed: number } | undefined {
  switch (change.type) {
    case 'str_replace': {
      const { added, removed } = changeRows(change.old, change.new);
      return { added, removed };
    }
    case 'insert':
    case 'create':
      return { added: lines(change.text).length, removed: 0 };
    case 'rename':
      return undefined;
  }
}

function lines(text: string): string[] {
  if (text === '') return [];
  const all = text.split('\n');
  if (all[all.length - 1] === '') all.pop();
  return all;
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
