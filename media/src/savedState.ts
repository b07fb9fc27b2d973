/** The state across hide/show (getState/setState): the draft, the expanded cards, the row at the top. */
import { input, transcriptEl, vscode } from './page';
import { expanded, view } from './viewState';
import type { SavedState, ScrollAnchor } from './vscodeApi';

/** Written to the saved state so far (for the chat benchmark, bench/chat; nothing reads it here). */
const stats = { stateWrites: 0, stateBytes: 0 };
(window as unknown as { chatStateStats: typeof stats }).chatStateStats = stats;
let saveTimer: ReturnType<typeof setTimeout> | undefined;
let lastSaved = '';
/** Quiet time before the state is written: typing writes it once per pause, not per key. */
const SAVE_DELAY_MS = 400;

export function saveSoon(): void {
  if (saveTimer !== undefined) clearTimeout(saveTimer);
  saveTimer = setTimeout(saveNow, SAVE_DELAY_MS);
}

export function saveNow(): void {
  if (saveTimer !== undefined) clearTimeout(saveTimer);
  saveTimer = undefined;
  const state: SavedState = { draft: input.value, expanded: [...expanded], anchor: topRow(), follow: view.follow };
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

/** Start-up: the draft, the expanded cards and where the reader was come back from the saved state. */
export function restoreSaved(): void {
  const saved = vscode.getState();
  // Expanded cards stay expanded when the view is shown again (the webview is rebuilt then).
  if (Array.isArray(saved?.expanded)) for (const id of saved.expanded) if (typeof id === 'string') expanded.add(id);
  if (typeof saved?.draft === 'string') input.value = saved.draft;
  if (saved?.follow !== undefined) {
    const anchor = saved.anchor;
    view.restoreScroll = { follow: saved.follow !== false, ...(typeof anchor?.id === 'string' && typeof anchor.offset === 'number' ? { anchor } : {}) };
  }
  lastSaved = JSON.stringify({ draft: input.value, expanded: [...expanded], anchor: saved?.anchor, follow: saved?.follow });
}
