/** A tool card's buttons and links: each posts its card's message to the extension. */
import { element, icon } from './dom';
import type { CardMessage, EntryCallbacks } from './render';

export function cardButton(text: string, iconName: string, message: CardMessage, callbacks: EntryCallbacks, style: 'button' | 'secondary', action: string): HTMLButtonElement {
  const button = element('button', style === 'secondary' ? 'button secondary' : 'button', undefined, { type: 'button', 'data-action': action });
  button.append(icon(iconName), document.createTextNode(` ${text}`));
  button.addEventListener('click', () => {
    // One answer per question: the card is redrawn with the outcome.
    if (message.type === 'approve') button.closest('.tool-approval')?.querySelectorAll('button').forEach((b) => (b.disabled = true));
    callbacks.card(message);
  });
  return button;
}

export function cardLink(text: string, iconName: string, message: CardMessage, callbacks: EntryCallbacks, action: string): HTMLButtonElement {
  const button = element('button', 'link', undefined, { type: 'button', 'data-action': action });
  button.append(icon(iconName), document.createTextNode(` ${text}`));
  button.addEventListener('click', () => callbacks.card(message));
  return button;
}
