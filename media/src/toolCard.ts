/** A tool call's card: its header and status, file link, output box, edit and history bars. */
import type { ChatEntry, ToolChange, ToolEdit, ToolFile, ToolStatus } from '../../src/features/chat/shared/protocol';
import { OUTPUT_TAIL_LINES, commandOutcome, outputLineCount, rangeLabel, splitPath, type CommandOutcome } from '../../src/features/chat/shared/cardText';
import { approvalView, networkView } from './cardApproval';
import { cardLink } from './cardButtons';
import { changeSize, toolBody } from './cardChange';
import { element, icon } from './dom';
import type { EntryCallbacks } from './render';

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

export function toolCard(entry: Extract<ChatEntry, { kind: 'tool' }>, callbacks: EntryCallbacks): HTMLElement {
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

  // Next to the command, for as long as the card is there: it ran (or would run) with the user's rights.
  if (entry.unsandboxed) head.append(element('span', 'tool-chip chip-unsandboxed', 'unsandboxed', { title: 'This command runs without the OS sandbox: it can write anywhere you can and reach the network.' }));
  if (outcome?.label) head.append(element('span', 'tool-exit', outcome.label, { title: `The command ${outcome.description}.` }));
  const mark = element('span', `tool-status status-${entry.status}`, undefined, { title: outcome ? `${status.text}: ${outcome.description}` : status.text, role: 'img', 'aria-label': statusText });
  mark.append(icon(status.icon));
  head.append(mark);
  card.append(head);

  if (entry.approval) card.append(approvalView(entry.id, entry.approval, callbacks));
  if (entry.network && entry.network.length > 0) card.append(networkView(entry.id, entry.network, callbacks));
  if (entry.output !== undefined) card.append(...outputView(entry.output, entry.status === 'running' ? undefined : { id: entry.id, callbacks }));
  else if (entry.foldedOutput !== undefined) {
    // An old card's output is not sent with the conversation: one click brings it.
    const bar = element('div', 'tool-edit tool-folded');
    bar.append(cardLink(`Show Output (${entry.foldedOutput} lines)`, 'unfold', { type: 'unfoldOutput', entryId: entry.id }, callbacks, 'unfold-output'));
    card.append(bar);
  }
  if (entry.edit) card.append(editBar(entry.id, entry.edit, callbacks));
  if (entry.version !== undefined && !entry.tool) card.append(historyBar(entry.id, entry.version, entry.change, callbacks, entry.undone === true));

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
  // Its name holds the text it shows, name then folder (WCAG 2.5.3); the full path is on hover.
  const { name, folder } = splitPath(file.path);
  const shown = `${range ? `${name}:${range}` : name}${folder ? ` ${folder}` : ''}`;
  const link = namedPath(file.path, range, 'button', { type: 'button', title: `Open ${where}`, 'aria-label': `Open ${shown}`, 'data-action': 'open-file' });
  link.classList.add('link');
  link.addEventListener('click', () => callbacks.card({ type: 'openFile', entryId: id }));
  return link;
}

function namedPath<K extends 'span' | 'button'>(path: string, range: string | undefined, tag: K, attributes: Record<string, string>): HTMLElementTagNameMap[K] {
  const { name, folder } = splitPath(path);
  const el = element(tag, 'tool-path tool-file', undefined, { title: path, ...attributes });
  el.append(element('span', 'file-name', range ? `${name}:${range}` : name));
  if (folder) el.append(document.createTextNode(' '), element('span', 'file-folder', folder));
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
function historyBar(id: string, version: number, change: ToolChange | undefined, callbacks: EntryCallbacks, undone: boolean): HTMLElement {
  const bar = element('div', 'tool-edit tool-history');
  const size = change ? changeSize(change) : undefined;
  if (size) bar.append(element('span', 'edit-size', `+${size.added} −${size.removed}`, { title: `${size.added} line(s) added, ${size.removed} removed` }));
  const link = cardLink('History', 'history', { type: 'showChange', entryId: id }, callbacks, 'show-change');
  link.title = `Show version ${version} in Memory Changes, with its diff`;
  bar.append(link);
  if (undone) {
    const mark = element('span', 'edit-undone', undefined, { title: 'You undid this file in the change summary: it is back to how it was before. Claude is told with your next message.' });
    mark.append(icon('discard'), document.createTextNode(' Undone'));
    bar.append(mark);
  }
  return bar;
}
