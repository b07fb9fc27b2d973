/**
 * "What changed, at a glance": the summary above the composer ("3 files changed · 2 memory files
 * · 1 feature"), each changed file with its +/− lines, Open Diff, Keep and Undo, and Keep All /
 * Undo All. The extension owns the summary (it is saved with the chat) and sends it whole on every
 * change; this only draws it. Whether the list is folded is the page's own (saved state).
 */
import { notCoveredLine, summaryLine, type ChangeSummaryView, type SummaryRow } from '../../src/features/chat/shared/changeSummary';
import type { WebviewToExtension } from '../../src/features/chat/shared/protocol';
import { element, icon } from './dom';
import { vscode } from './page';
import { saveSoon } from './savedState';
import { expanded } from './viewState';

export interface ChangeSummaryHost {
  post(message: WebviewToExtension): void;
  /** The list is folded (kept in the page's saved state). */
  isFolded(): boolean;
  setFolded(folded: boolean): void;
}

const ROOT_CLASS = 'change-summary';

/** In `expanded`: the change summary's list is folded (not a row id: drawSnapshot keeps it). */
export const SUMMARY_FOLDED = 'change-summary-folded';
let shown: ChangeSummaryView | undefined;
/** The page as the summary's host: messages go to the extension, the fold is the page's saved state. */
const pageHost: ChangeSummaryHost = {
  post: (message) => vscode.postMessage(message),
  isFolded: () => expanded.has(SUMMARY_FOLDED),
  setFolded: (folded) => {
    if (folded) expanded.add(SUMMARY_FOLDED);
    else expanded.delete(SUMMARY_FOLDED);
    saveSoon();
    drawChanges(shown);
  },
};

/** Draws the summary the extension sent last (undefined: nothing to show). */
export function drawChanges(next: ChangeSummaryView | undefined): void {
  shown = next;
  drawChangeSummary(next, pageHost);
}

/** Draws `view` above the composer (removes the summary when undefined). */
export function drawChangeSummary(view: ChangeSummaryView | undefined, host: ChangeSummaryHost): void {
  const composer = document.querySelector('footer.composer');
  let root = document.querySelector<HTMLElement>(`.${ROOT_CLASS}`);
  if (view === undefined || composer === null) {
    root?.remove();
    return;
  }
  if (root === null) {
    root = element('section', ROOT_CLASS, undefined, { 'aria-label': 'Changes to review' });
    composer.prepend(root);
  }
  root.replaceChildren(...content(view, host));
  root.classList.toggle('folded', host.isFolded());
}

function content(view: ChangeSummaryView, host: ChangeSummaryHost): HTMLElement[] {
  const open = view.rows.length > 0;
  const folded = host.isFolded();
  const head = element('div', 'cs-head');
  const toggle = element('button', 'cs-toggle', undefined, {
    type: 'button',
    'aria-expanded': String(open && !folded),
    'aria-label': `${headline(view)}: ${folded ? 'show' : 'hide'} the list`,
    title: `Changes since your message "${view.since}"`,
  });
  toggle.disabled = !open;
  toggle.append(icon(!open ? 'pass' : folded ? 'chevron-right' : 'chevron-down'), element('span', 'cs-title', headline(view)));
  toggle.addEventListener('click', () => host.setFolded(!host.isFolded()));
  head.append(toggle);
  if (open) {
    const busy = view.busy === true;
    head.append(
      button('cs-keep-all', 'check-all', 'Keep All', 'Keep all changes (they leave this list)', busy, () => host.post({ type: 'summaryAll', action: 'keep' })),
      button(
        'cs-undo-all',
        'discard',
        'Undo All',
        view.running ? 'Stop the answer first: Claude may still be changing files' : `Undo all changes: back to how they were before "${view.since}", what commands did included`,
        busy || view.running,
        () => host.post({ type: 'summaryAll', action: 'undo' }),
      ),
    );
  }
  const parts: HTMLElement[] = [head];
  if (open) {
    const list = element('ul', 'cs-rows', undefined, { 'aria-label': 'Changed files' });
    list.hidden = folded;
    for (const row of view.rows) list.append(rowOf(row, view, host));
    parts.push(list);
  }
  const reviewed = reviewedLine(view);
  if (reviewed !== undefined) parts.push(element('div', 'cs-reviewed', reviewed, { role: 'status' }));
  if (view.notCovered !== undefined) {
    const line = element('div', 'cs-not-covered', undefined, { title: 'Checkpoints leave out what .gitignore ignores (build output, node_modules, local data): a change there is not listed and cannot be undone or rewound here.' });
    line.append(icon('eye-closed'), document.createTextNode(` ${notCoveredLine(view.notCovered)}`));
    parts.push(line);
  }
  return parts;
}

function headline(view: ChangeSummaryView): string {
  if (view.rows.length === 0) return view.kept + view.undone > 0 ? 'All changes reviewed' : 'No changes to review';
  return `${summaryLine(view)}${view.running ? ' so far' : ''}`;
}

function reviewedLine(view: ChangeSummaryView): string | undefined {
  const parts: string[] = [];
  if (view.kept > 0) parts.push(`${view.kept} kept`);
  if (view.undone > 0) parts.push(`${view.undone} undone`);
  return parts.length === 0 ? undefined : parts.join(' · ');
}

function rowOf(row: SummaryRow, view: ChangeSummaryView, host: ChangeSummaryHost): HTMLElement {
  const shown = row.kind === 'memory' ? `/memories/${row.path}` : row.path;
  // The name first; then its folder (for memory, within the store: the book icon says memory).
  const slash = row.path.lastIndexOf('/');
  const name = row.path.slice(slash + 1);
  const dir = slash > 0 ? row.path.slice(0, slash) : '';
  const li = element('li', `cs-row cs-${row.change}`, undefined, { 'data-kind': row.kind, 'data-path': row.path });
  const what = row.change === 'created' ? 'created' : row.change === 'deleted' ? 'deleted' : 'changed';
  const post = (action: 'diff' | 'keep' | 'undo') => host.post({ type: 'summary', action, kind: row.kind, path: row.path });
  // The name says what the row shows, name then folder (WCAG 2.5.3: the visible text is in the name).
  const open = element('button', 'cs-name', undefined, { type: 'button', title: `${shown} (${what}): open the diff`, 'aria-label': `Open the diff of ${name}${dir !== '' ? ` ${dir}` : ''} (${what})` });
  open.append(icon(row.kind === 'memory' ? 'book' : row.change === 'created' ? 'new-file' : row.change === 'deleted' ? 'trash' : 'file'), element('span', 'cs-file', name));
  if (dir !== '') open.append(document.createTextNode(' '), element('span', 'cs-dir', dir));
  open.addEventListener('click', () => post('diff'));
  li.append(open);
  const size = row.binary ? element('span', 'cs-size', 'binary') : element('span', 'cs-size', undefined, { title: `${row.added} line(s) added, ${row.removed} removed` });
  if (!row.binary) size.append(element('span', 'cs-added', `+${row.added}`), element('span', 'cs-removed', `−${row.removed}`));
  li.append(size);
  const busy = view.busy === true;
  const undoTitle = row.cannotUndo ?? (view.running ? 'Stop the answer first: Claude may still be changing files' : `Undo: ${shown} back to how it was before "${view.since}"`);
  li.append(
    iconButton('diff', 'diff', `Open the diff of ${shown}`, false, () => post('diff')),
    iconButton('check', 'keep', `Keep ${shown}`, busy, () => post('keep')),
    iconButton('discard', 'undo', undoTitle, busy || view.running || row.cannotUndo !== undefined, () => post('undo'), `Undo ${shown}`),
  );
  if (row.note !== undefined) li.append(element('div', 'cs-note', row.note));
  return li;
}

function button(className: string, codicon: string, text: string, title: string, disabled: boolean, click: () => void): HTMLButtonElement {
  const b = element('button', `button secondary cs-button ${className}`, undefined, { type: 'button', title, 'aria-label': text, 'data-action': className });
  b.append(icon(codicon), element('span', 'cs-button-text', text));
  b.disabled = disabled;
  b.addEventListener('click', click);
  return b;
}

function iconButton(codicon: string, action: string, title: string, disabled: boolean, click: () => void, label = title): HTMLButtonElement {
  const b = element('button', `icon-button cs-icon cs-${action}`, undefined, { type: 'button', title, 'aria-label': label, 'data-action': `summary-${action}` });
  b.append(icon(codicon));
  b.disabled = disabled;
  b.addEventListener('click', click);
  return b;
}
