/** Everything around the conversation: the starter, queued messages, the key line and prompt, chips, the banner. */
import type { ChatAttachment, ChatStarter, DisabledAction, KeyState, QueuedMessage, StarterAction } from '../../src/features/chat/shared/protocol';
import { element, icon } from './dom';
import { attachmentsEl, bannerAction, byId, keyPromptEl, keyStateButton, queuedEl, starterEl, vscode } from './page';
import { actionButton, type EntryCallbacks } from './render';

const STARTER_ACTIONS: Record<StarterAction, { icon: string; text: string; title: string }> = {
  initialize: { icon: 'sparkle', text: 'Initialize Project Memory', title: 'Write a feature checklist, a progress log and startup notes for this folder (Claude can draft them).' },
  resume: { icon: 'debug-continue', text: 'Resume Session', title: 'Claude picks up the next feature that does not pass yet, from the progress log and the checklist.' },
  addFile: { icon: 'add', text: 'Add File…', title: 'Choose a file to send with your next message.' },
};

/** The empty chat: which folder and model it works with, and what to start with. */
export function drawStarter(starter: ChatStarter | undefined): void {
  starterEl.hidden = starter === undefined;
  if (!starter) {
    starterEl.replaceChildren();
    return;
  }
  const line = element('p', 'starter-line');
  // Each item stays whole; the line breaks between them in a narrow side bar.
  const folder = element('span', 'starter-item', undefined, { title: 'The folder the chat works in' });
  folder.append(icon('folder'), document.createTextNode(` ${starter.folder}`));
  const model = element('span', 'starter-item', undefined, { title: 'The model (setting claudeMemory.model)' });
  model.append(icon('hubot'), document.createTextNode(` ${starter.model}`));
  line.append(folder, element('span', 'starter-sep', ' · '), model);
  const actions = element('div', 'starter-actions', undefined, { role: 'group', 'aria-label': 'Start with' });
  const shown: StarterAction[] = starter.canResume ? ['resume', 'initialize', 'addFile'] : ['initialize', 'addFile'];
  for (const action of shown) {
    const label = STARTER_ACTIONS[action];
    const button = element('button', action === shown[0] ? 'button' : 'button secondary', undefined, { type: 'button', 'data-starter': action, title: label.title });
    button.append(icon(label.icon), document.createTextNode(` ${label.text}`));
    button.addEventListener('click', () => vscode.postMessage({ type: 'starter', action }));
    actions.append(button);
  }
  starterEl.replaceChildren(line, actions);
}

export function drawQueued(list: readonly QueuedMessage[]): void {
  queuedEl.hidden = list.length === 0;
  queuedEl.replaceChildren(
    ...list.map((q) => {
      const row = element('div', 'entry user queued-message', undefined, { role: 'listitem', 'data-queued': q.id });
      const who = element('div', 'who');
      who.append(document.createTextNode('You '), element('span', 'queued-label', '· queued: sent when the answer is over'));
      row.append(who, element('div', 'user-text', q.text));
      return row;
    }),
  );
}

const KEY_STATES: Record<KeyState, { icon: string; text: string; title: string }> = {
  missing: { icon: 'warning', text: 'No API key', title: 'No Anthropic API key is set: click to set one.' },
  stored: { icon: 'key', text: 'API key set', title: 'An API key is kept in VS Code\'s secret storage. Click to replace it.' },
  environment: { icon: 'key', text: 'Key from ANTHROPIC_API_KEY', title: 'The API key comes from the ANTHROPIC_API_KEY environment variable. Click to store another one.' },
};

const KEY_REJECTED = { icon: 'warning', text: 'API key rejected (401)', title: 'The Anthropic API rejected this key (401). Click to set another one.' };

/** The key's state next to Send, and the key prompt when there is none. */
export function drawKey(key: KeyState | undefined, pending: boolean, disabled: boolean, rejected: boolean, callbacks: Pick<EntryCallbacks, 'action'>): void {
  keyStateButton.hidden = key === undefined;
  if (key !== undefined) {
    // After a 401 the line says the key was rejected, not that all is fine.
    const label = rejected && key !== 'missing' ? KEY_REJECTED : KEY_STATES[key];
    keyStateButton.replaceChildren(icon(label.icon), document.createTextNode(` ${label.text}`));
    keyStateButton.title = label.title;
    keyStateButton.classList.toggle('missing', key === 'missing' || rejected);
  }
  const show = key === 'missing' && !disabled;
  keyPromptEl.hidden = !show;
  if (!show) return;
  keyPromptEl.replaceChildren(
    element('p', 'key-prompt-title', 'Claude needs an Anthropic API key to answer.'),
    element(
      'p',
      'key-prompt-text',
      pending
        ? 'Your message is kept: it is sent as soon as you set a key.'
        : 'The key is kept in VS Code\'s secret storage on this machine, never in settings or logs.',
    ),
    buttonRow(callbacks),
  );
}

function buttonRow(callbacks: Pick<EntryCallbacks, 'action'>): HTMLElement {
  const row = element('div', 'error-actions');
  row.append(actionButton('setApiKey', callbacks), actionButton('getApiKey', callbacks, 'link'));
  return row;
}

export function drawAttachments(list: readonly ChatAttachment[]): void {
  attachmentsEl.hidden = list.length === 0;
  attachmentsEl.replaceChildren(...list.map((a) => (a.current ? currentChip(a) : addedChip(a))));
}

/** A file or selection the user added: removable. */
function addedChip(a: ChatAttachment): HTMLElement {
  const chip = element('span', 'chip', undefined, { title: a.detail });
  const remove = element('button', 'icon-button chip-remove', undefined, { type: 'button', 'aria-label': `Remove ${a.label}`, title: 'Remove' });
  remove.append(icon('close'));
  remove.addEventListener('click', () => vscode.postMessage({ type: 'removeAttachment', id: a.id }));
  chip.append(icon('file'), element('span', 'chip-label', a.label), remove);
  return chip;
}

/**
 * The active editor's file: implicit (dashed, "current file"), and a toggle: one click turns it
 * off (shown struck through, not sent), another back on.
 */
function currentChip(a: ChatAttachment): HTMLElement {
  const on = a.off !== true;
  const chip = element('button', `chip current${on ? '' : ' off'}`, undefined, {
    type: 'button',
    'aria-pressed': String(on),
    'data-action': 'toggle-current',
    'aria-label': `${a.label}, the current file: ${on ? 'sent with your message' : 'not sent'}. Toggle.`,
    title: on ? `${a.detail}: the active editor's file, sent with your message. Click to leave it out.` : `${a.detail}: left out. Click to send it with your message.`,
  });
  chip.append(icon(on ? 'eye' : 'eye-closed'), element('span', 'chip-label', a.label), element('span', 'chip-kind', on ? 'current file' : 'current file · off'));
  chip.addEventListener('click', () => vscode.postMessage({ type: 'toggleAttachment', id: a.id }));
  return chip;
}

const BANNER_ACTIONS: Record<DisabledAction, { icon: string; text: string }> = {
  manageTrust: { icon: 'shield', text: 'Manage Workspace Trust' },
  openFolder: { icon: 'folder-opened', text: 'Open Folder' },
};

export function drawBannerAction(action: DisabledAction | undefined): void {
  bannerAction.hidden = action === undefined;
  bannerAction.dataset.action = action ?? '';
  if (!action) return;
  const label = BANNER_ACTIONS[action];
  bannerAction.replaceChildren(icon(label.icon), document.createTextNode(label.text));
}

bannerAction.addEventListener('click', () => {
  const action = bannerAction.dataset.action;
  if (action === 'manageTrust' || action === 'openFolder') vscode.postMessage({ type: action });
});
byId('reopen').addEventListener('click', () => vscode.postMessage({ type: 'reopenPrevious' }));
keyStateButton.addEventListener('click', () => vscode.postMessage({ type: 'setApiKey' }));
