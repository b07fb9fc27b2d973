/**
 * A card waiting for the user, and the keyboard. A card never takes a keystroke meant for the
 * composer:
 * - it takes the focus only when the composer has neither the focus nor text (typing goes on
 *   where it was);
 * - for about a second after it appears (GRACE_MS) it ignores Enter, Escape and Space, so a key
 *   already on its way does not answer it; until then it is not "armed" (class approval-armed);
 * - a character typed on the focused card goes into the composer instead of being lost;
 * - with text in the composer, Enter is Deny with that text as the reason once the card is armed
 *   (the hint says so; composerEnter); before that it sends the message as usual (queued).
 */
import { input, transcriptEl } from './page';

/** How long a new card ignores keys: a keystroke already on its way must not answer it. */
export const GRACE_MS = 1000;

/** When each question (card id and host) was first drawn. */
const firstSeen = new Map<string, number>();
/** Questions that took the focus once (a redraw must not pull it back after the user moved on). */
const focused = new Set<string>();

export function waitingCard(): HTMLElement | undefined {
  return transcriptEl.querySelector<HTMLElement>('.tool-approval.approval-pending') ?? undefined;
}

function keyOf(card: HTMLElement): string {
  return `${card.dataset.entryId ?? ''}\n${card.dataset.host ?? ''}`;
}

/**
 * True once the card has been on screen for GRACE_MS: only then do keys answer it. Its class
 * follows (a card drawn again, by a page coming back into view, gets it here too).
 */
export function isArmed(card: HTMLElement): boolean {
  const armed = hasWaited(card);
  card.classList.toggle('approval-armed', armed);
  return armed;
}

function hasWaited(card: HTMLElement): boolean {
  const since = firstSeen.get(keyOf(card));
  return since !== undefined && performance.now() - since >= GRACE_MS;
}

/** A card whose buttons a keystroke in the composer may press (a command's or an edit's; a host question has no reason to take). */
function takesReason(card: HTMLElement): boolean {
  return !card.classList.contains('approval-network');
}

/**
 * After every change: notes new waiting cards, marks the armed ones, and gives the first one the
 * focus when the composer is not in use.
 */
export function noticeWaitingCards(): void {
  const cards = [...transcriptEl.querySelectorAll<HTMLElement>('.tool-approval.approval-pending')];
  for (const card of cards) {
    const key = keyOf(card);
    if (!firstSeen.has(key)) {
      firstSeen.set(key, performance.now());
      // Armed a moment later: the class and the hint follow (a redraw in between keeps the time).
      setTimeout(noticeWaitingCards, GRACE_MS + 20);
    }
    isArmed(card);
  }
  const first = cards[0];
  if (first && !focused.has(keyOf(first))) {
    focused.add(keyOf(first));
    const composerInUse = document.activeElement === input || input.value !== '';
    if (!composerInUse) first.focus({ preventScroll: true });
  }
  updateTypingHint();
}

/**
 * Enter in the composer: true when it answered the waiting card (Deny with the typed text as the
 * reason, sent by the Deny button's handler), false when it is an ordinary send.
 */
export function composerEnter(): boolean {
  const card = waitingCard();
  if (!card || input.value.trim() === '' || !takesReason(card) || !isArmed(card)) return false;
  card.querySelector<HTMLButtonElement>('button[data-action="deny"], button[data-action="reject"]')?.click();
  return true;
}

/** Typing while a card waits: the card says what Enter and Escape will do with the text. */
export function updateTypingHint(): void {
  const card = waitingCard();
  if (!card) return;
  let hint = card.querySelector<HTMLElement>('.approval-hint');
  // Only once the card is armed: before that, Enter still sends the message (it was meant for it).
  if (input.value.trim() === '' || !isArmed(card)) {
    hint?.remove();
    return;
  }
  if (!hint) {
    hint = document.createElement('div');
    hint.className = 'approval-hint';
    hint.setAttribute('role', 'status');
    card.append(hint);
  }
  hint.textContent = takesReason(card)
    ? 'Claude waits for this answer. Enter (or Escape) in the box below denies it, with what you typed as the reason.'
    : 'Escape denies this request. Enter sends your message when the answer is over.';
}

transcriptEl.addEventListener('keydown', (event) => {
  const card = (event.target as HTMLElement | null)?.closest<HTMLElement>('.tool-approval.approval-pending');
  if (!card || event.target !== card) return;
  const press = (action: string) => card.querySelector<HTMLButtonElement>(`button[data-action="${action}"]`)?.click();
  if (event.key === 'Enter' || event.key === 'Escape' || event.key === ' ') {
    if (!isArmed(card)) {
      // Too soon to be meant for this card; Escape must not stop the answer either.
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    if (event.key === 'Enter') {
      event.preventDefault();
      press(card.querySelector('button[data-action="accept"]') ? 'accept' : 'allow-once');
    } else if (event.key === 'Escape') {
      // Denies this question; the view-wide Escape (Stop) does not fire for it.
      event.preventDefault();
      event.stopPropagation();
      press(card.querySelector('button[data-action="reject"]') ? 'reject' : 'deny');
    }
    return;
  }
  // A character typed on the card goes into the composer (as the words of a Deny, or a message).
  if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey && !input.disabled) input.focus();
});
