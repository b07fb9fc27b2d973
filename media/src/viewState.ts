/** What the chat script's modules (chat.ts and its parts) share of the view's state. */
import type { ScrollAnchor } from './vscodeApi';

export const view = {
  /** Where to go back to once the snapshot is drawn (from the saved state): the row at the top of the view. */
  restoreScroll: undefined as { anchor?: ScrollAnchor; follow: boolean } | undefined,
  /** Whether the view follows the conversation; false once the reader scrolls up, until they come back. */
  follow: true,
};
/** Expanded cards and prompt chips (kept across hide/show in the saved state). */
export const expanded = new Set<string>();
/** The drawn row of each entry that has one (far pages give theirs up). */
export const elements = new Map<string, HTMLElement>();
