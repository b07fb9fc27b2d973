/** A card waiting for the user: it takes the focus once, answers Enter and Escape, and says what typed text will do. */
import { input, transcriptEl } from './page';

/** Cards already given the focus once (a redraw must not pull it back after the user moved on). */
const focusedCards = new Set<string>();

export function waitingCard(): HTMLElement | undefined {
  return transcriptEl.querySelector<HTMLElement>('.tool-approval.approval-pending') ?? undefined;
}

export function focusWaitingCard(): void {
  const card = waitingCard();
  const id = card?.dataset.entryId;
  if (!card || !id || focusedCards.has(id)) return;
  focusedCards.add(id);
  card.focus();
  updateTypingHint();
}

/** Typing while a card waits: the card says what the text will do. */
export function updateTypingHint(): void {
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
