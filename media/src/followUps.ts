/**
 * The follow-up buttons under a message (Initialize's draft: "Review features.json", "Resume
 * Session"): real buttons with their names as text, in the theme's button colours, in tab order.
 * A click posts `followUp` with the message's id; the extension finds the folder itself.
 */
import type { ChatEntry, FollowUpAction } from '../../src/features/chat/shared/protocol';
import { element, icon } from './dom';

export const FOLLOW_UP_LABELS: Record<FollowUpAction, { icon: string; text: string; title: (folder: string) => string }> = {
  reviewFeatures: { icon: 'checklist', text: 'Review features.json', title: (folder) => `Open the feature checklist of "${folder}" in an editor` },
  resume: { icon: 'debug-continue', text: 'Resume Session', title: (folder) => `Start a session on the next feature of "${folder}"` },
};

/** The bar of buttons for `entry` (undefined when it has none). */
export function followUpBar(entry: ChatEntry, onClick: (entryId: string, action: FollowUpAction) => void): HTMLElement | undefined {
  const followUps = entry.kind === 'assistant' || entry.kind === 'notice' ? entry.followUps : undefined;
  if (!followUps) return undefined;
  const bar = element('div', 'follow-ups', undefined, { role: 'group', 'aria-label': 'Next steps' });
  followUps.actions.forEach((action, i) => {
    const label = FOLLOW_UP_LABELS[action];
    // The last one is the way on (primary); the ones before it secondary.
    const button = element('button', i === followUps.actions.length - 1 ? 'button follow-up' : 'button secondary follow-up', undefined, {
      type: 'button',
      'data-follow-up': action,
      title: label.title(followUps.folder),
    });
    button.append(icon(label.icon), document.createTextNode(label.text));
    button.addEventListener('click', () => onClick(entry.id, action));
    bar.append(button);
  });
  return bar;
}

/** Draws `entry`'s buttons again on its element (an answer kept in place when its row changes). */
export function redrawFollowUps(el: HTMLElement, entry: ChatEntry, onClick: (entryId: string, action: FollowUpAction) => void): void {
  el.querySelector(':scope > .follow-ups')?.remove();
  const bar = followUpBar(entry, onClick);
  if (bar) el.append(bar);
}
