/** The question on a tool card (a command to allow, an edit to accept, a host to reach) and its answer. */
import type { ToolApproval } from '../../src/features/chat/shared/protocol';
import { cardButton, cardLink } from './cardButtons';
import { element, icon } from './dom';
import type { EntryCallbacks } from './render';

/** The question on a card, or how it was answered. */
export function approvalView(id: string, approval: ToolApproval, callbacks: EntryCallbacks): HTMLElement {
  const el = element('div', `tool-approval approval-${approval.state}`);
  if (approval.state !== 'pending') {
    const said: Record<Exclude<ToolApproval['state'], 'pending'>, string> =
      approval.kind === 'command'
        ? { once: 'Allowed once', always: `Always allowed here: ${approval.prefixes.join(', ')}`, deny: 'Denied' }
        : approval.kind === 'network'
          ? { once: `Allowed ${approval.host} once`, always: `Always allowed: ${approval.host}`, deny: `Denied ${approval.host}` }
          : { once: 'Accepted', always: 'Accepted', deny: 'Rejected' };
    el.append(icon(approval.state === 'deny' ? 'circle-slash' : 'check'), document.createTextNode(` ${said[approval.state]}`));
    return el;
  }
  el.setAttribute('role', 'group');
  // The waiting card takes the keyboard: Enter allows once (accepts), Escape denies (chat.ts).
  el.setAttribute('tabindex', '-1');
  el.dataset.entryId = id;
  if (approval.kind === 'command') {
    el.setAttribute('aria-label', 'Claude asks to run a command. Enter allows it once, Escape denies it.');
    el.append(element('div', 'approval-question', 'Run this command?'), element('code', 'approval-command', approval.command));
    const bar = element('div', 'error-actions');
    bar.append(
      cardButton('Allow once', 'check', { type: 'approve', entryId: id, decision: 'once' }, callbacks, 'button', 'allow-once'),
      // One rule per part of a compound command, to choose from: each remembers only itself.
      ...approval.prefixes.map((rule) =>
        cardButton(`Always allow "${rule}" here`, 'check-all', { type: 'approve', entryId: id, decision: 'always', rule }, callbacks, 'secondary', 'allow-always'),
      ),
      ...(approval.sandboxed
        ? [cardButton('Allow sandboxed commands in this chat', 'shield', { type: 'approve', entryId: id, decision: 'sandboxed' }, callbacks, 'secondary', 'allow-sandboxed')]
        : []),
      cardButton('Deny', 'circle-slash', { type: 'approve', entryId: id, decision: 'deny' }, callbacks, 'secondary', 'deny'),
    );
    el.append(bar);
    const foot = element('div', 'approval-foot');
    foot.append(
      element('span', 'approval-keys', 'Enter: allow once · Escape: deny (what you typed in the box below goes to Claude as the reason) · '),
      cardLink('Manage Command Rules', 'shield', { type: 'manageRules' }, callbacks, 'manage-rules'),
    );
    el.append(foot);
  } else if (approval.kind === 'network') {
    el.setAttribute('aria-label', 'A running command asks to reach a host. Enter allows it once, Escape denies it.');
    el.append(element('div', 'approval-question', 'The command wants to reach'), element('code', 'approval-command', approval.host));
    const bar = element('div', 'error-actions');
    bar.append(
      cardButton('Allow once', 'check', { type: 'approve', entryId: id, decision: 'once' }, callbacks, 'button', 'allow-once'),
      cardButton(`Always allow ${approval.host}`, 'check-all', { type: 'approve', entryId: id, decision: 'always' }, callbacks, 'secondary', 'allow-always'),
      cardButton('Deny', 'circle-slash', { type: 'approve', entryId: id, decision: 'deny' }, callbacks, 'secondary', 'deny'),
    );
    el.append(bar);
  } else {
    el.setAttribute('aria-label', 'Claude asks to change a file. Enter accepts, Escape rejects.');
    el.append(element('div', 'approval-question', `Apply this change to ${approval.path}? (+${approval.added} −${approval.removed} lines)`));
    if (approval.protected) el.append(element('div', 'approval-protected', `Protected place: ${approval.protected}.`));
    const bar = element('div', 'error-actions');
    bar.append(
      cardButton('Open Diff', 'diff', { type: 'openDiff', entryId: id }, callbacks, 'secondary', 'open-diff'),
      cardButton('Accept', 'check', { type: 'approve', entryId: id, decision: 'once' }, callbacks, 'button', 'accept'),
      cardButton('Reject', 'close', { type: 'approve', entryId: id, decision: 'deny' }, callbacks, 'secondary', 'reject'),
    );
    el.append(bar);
  }
  return el;
}
