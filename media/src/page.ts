/** The chat page's one VS Code API handle and its fixed elements (media/chat.html's ids). */
import { element } from './dom';
import { vscodeApi } from './vscodeApi';

export function byId(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`chat: #${id} missing`);
  return el;
}

export const vscode = vscodeApi();

export const transcriptEl = byId('transcript');
export const emptyEl = byId('empty');
export const previousEl = byId('previous');
export const starterEl = byId('starter');
export const keyPromptEl = byId('key-prompt');
export const workingEl = byId('working');
export const workingText = byId('working-text');
export const jumpButton = byId('jump') as HTMLButtonElement;
export const bannerEl = byId('banner');
export const bannerText = byId('banner-text');
export const bannerAction = byId('banner-action') as HTMLButtonElement;
export const form = byId('composer-form') as HTMLFormElement;
export const input = byId('prompt') as HTMLTextAreaElement;
export const sendButton = byId('send') as HTMLButtonElement;
export const stopButton = byId('stop') as HTMLButtonElement;
export const keyStateButton = byId('key-state') as HTMLButtonElement;
export const attachmentsEl = byId('attachments');
/** Messages sent while an answer runs, waiting for their turn: under the conversation. */
export const queuedEl = element('div', 'queued', undefined, { role: 'list', 'aria-label': 'Messages waiting to be sent' });
queuedEl.hidden = true;
transcriptEl.append(queuedEl);
/** Why the input holds text it did not before (queued messages given back). */
export const composerNote = element('div', 'composer-note', undefined, { role: 'status' });
composerNote.hidden = true;
input.before(composerNote);
