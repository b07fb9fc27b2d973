/** Following the conversation: the end stays in view while the reader follows it; a re-show holds the reader's row. */
import { jumpButton, transcriptEl } from './page';
import { saveSoon } from './savedState';
import { elements, view } from './viewState';
import type { ScrollAnchor } from './vscodeApi';

export function nearEnd(): boolean {
  return transcriptEl.scrollHeight - transcriptEl.scrollTop - transcriptEl.clientHeight < 48;
}

/**
 * Keeps row `anchor` where it was at the top of the view while the pages around it are drawn and
 * laid out (the pages above were only estimated): for a few frames, or until the reader scrolls.
 */
let held: { anchor: ScrollAnchor; frames: number } | undefined;
export function holdAnchor(anchor: ScrollAnchor): void {
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

// Scrolling up stops following; scrolling back to the end (or the button) resumes it.
// Only a scroll up (the reader's) stops following: rows drawn as they come into view change
// the heights under a scroll to the end, which must not read as the reader leaving it.
let lastScrollTop = 0;
transcriptEl.addEventListener('scroll', () => {
  const top = transcriptEl.scrollTop;
  if (top < lastScrollTop - 2) view.follow = nearEnd();
  else if (nearEnd()) view.follow = true;
  lastScrollTop = top;
  jumpButton.hidden = view.follow;
  saveSoon();
});

// Rows change height after they are placed: content-visibility lays a page of rows out for real
// only when it comes near the viewport, and far pages are drawn again. While following, the end stays
// in view through those changes too (a jump to the end would otherwise land short of it).
const rowHeights = new ResizeObserver(() => {
  if (view.follow) transcriptEl.scrollTop = transcriptEl.scrollHeight;
  jumpButton.hidden = view.follow || nearEnd();
});
for (const row of Array.from(transcriptEl.children)) rowHeights.observe(row);
new MutationObserver((records) => {
  for (const record of records) {
    record.addedNodes.forEach((node) => node instanceof Element && rowHeights.observe(node));
    record.removedNodes.forEach((node) => node instanceof Element && rowHeights.unobserve(node));
  }
}).observe(transcriptEl, { childList: true });
