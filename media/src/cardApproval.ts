/**
 * The question on a tool card (a command to allow, an edit to accept, a host to reach) and its
 * answer. A command's scopes are one split button: Allow once, with a menu of the "Always allow"
 * rules and the chat-wide grant, then Deny. A running command's host requests are lines of their
 * own below the command's answer, which they never replace.
 */
import { networkLabel, type CardUnsandboxed, type ToolApproval, type ToolNetwork } from '../../src/features/chat/shared/protocol';
import { cardButton, cardLink } from './cardButtons';
import { element, icon } from './dom';
import type { EntryCallbacks } from './render';

/** The question on a card, or how it was answered. */
export function approvalView(id: string, approval: ToolApproval, callbacks: EntryCallbacks): HTMLElement {
  const el = element('div', `tool-approval approval-${approval.state}`);
  if (approval.state !== 'pending') {
    el.append(icon(approval.state === 'deny' ? 'circle-slash' : 'check'), document.createTextNode(` ${answeredText(approval)}`));
    if (approval.reason !== undefined) el.title = `What you told Claude: ${approval.reason}`;
    return el;
  }
  el.setAttribute('role', 'group');
  // The waiting card takes the keyboard when nothing else has it: Enter allows once (accepts),
  // Escape denies (approvalFocus.ts).
  el.setAttribute('tabindex', '-1');
  el.dataset.entryId = id;
  if (approval.kind === 'command') {
    el.setAttribute('aria-label', `Claude asks to run a command${approval.unsandboxed ? ', without the sandbox' : ''}. Enter allows it once, Escape denies it.`);
    el.append(element('div', 'approval-question', 'Run this command?'), element('code', 'approval-command', approval.command));
    if (approval.unsandboxed) el.append(unsandboxedLine(approval.unsandboxed, callbacks));
    const bar = element('div', 'error-actions approval-actions');
    const once = cardButton('Allow once', 'check', { type: 'approve', entryId: id, decision: 'once' }, callbacks, 'button', 'allow-once');
    const note = approval.stillAsks !== undefined ? `Still asks next time: ${approval.stillAsks}.` : undefined;
    const { split, menu } = splitButton(once, commandScopes(id, approval, callbacks), note, `scopes-${id}`, bar);
    // The menu opens under both buttons, on a row of its own.
    bar.append(split, cardButton('Deny', 'circle-slash', { type: 'approve', entryId: id, decision: 'deny' }, callbacks, 'secondary', 'deny'), ...(menu ? [menu] : []));
    el.append(bar);
    const foot = element('div', 'approval-foot');
    foot.append(element('span', 'approval-keys', 'Enter: allow once · Escape: deny · '), cardLink('Manage Command Rules', 'shield', { type: 'manageRules' }, callbacks, 'manage-rules'));
    el.append(foot);
  } else if (approval.kind === 'network') {
    // A chat saved while a host question of the old kind waited: nothing asks any more.
    el.append(document.createTextNode(`Wanted to reach ${approval.host}`));
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

/** How an answered question reads: the user's own decision, with what they said, or that nobody answered. */
function answeredText(approval: ToolApproval): string {
  const said = approval.reason !== undefined ? `: ${approval.reason}` : '';
  if (approval.kind === 'command') {
    if (approval.state === 'once') return 'Allowed once';
    if (approval.state === 'always') return `Always allowed here: ${approval.prefixes.join(', ')}`;
    return approval.unanswered ? 'Not run: stopped before you answered' : `Denied${said}`;
  }
  if (approval.kind === 'network') {
    return { once: `Allowed ${approval.host} once`, always: `Always allowed: ${approval.host}`, deny: `Denied ${approval.host}`, pending: '' }[approval.state];
  }
  if (approval.state === 'deny') return approval.unanswered ? 'Not applied: stopped before you answered' : `Rejected${said}`;
  return 'Accepted';
}

/** The scopes a command's "Allow once" ▾ offers: its "Always allow" rules, all of them, the chat-wide grant. */
function commandScopes(id: string, approval: Extract<ToolApproval, { kind: 'command' }>, callbacks: EntryCallbacks): HTMLButtonElement[] {
  const items = approval.prefixes.map((rule) => {
    const item = cardButton(`Always allow "${rule}" here`, 'check-all', { type: 'approve', entryId: id, decision: 'always', rule }, callbacks, 'secondary', 'allow-always');
    item.title = `Commands that start with "${rule}" run without asking in this workspace, with any arguments (Manage Command Rules removes it).`;
    return item;
  });
  if (approval.prefixes.length > 1) {
    const all = cardButton(`Always allow all ${approval.prefixes.length} here`, 'check-all', { type: 'approve', entryId: id, decision: 'always' }, callbacks, 'secondary', 'allow-always-all');
    all.title = `Remembers ${approval.prefixes.map((p) => `"${p}"`).join(', ')} for this workspace.`;
    items.push(all);
  }
  if (approval.sandboxed) {
    items.push(cardButton('Allow sandboxed commands in this chat', 'shield', { type: 'approve', entryId: id, decision: 'sandboxed' }, callbacks, 'secondary', 'allow-sandboxed'));
  }
  return items;
}

/**
 * "Allow once" and, when there is more to choose, a ▾ that opens the other scopes (a menu, drawn
 * in `bar` under the buttons, with `note` under its items): one button's width on the card.
 */
function splitButton(once: HTMLButtonElement, items: HTMLButtonElement[], note: string | undefined, menuId: string, bar: HTMLElement): { split: HTMLElement; menu?: HTMLElement } {
  const split = element('span', 'split-button');
  split.append(once);
  if (items.length === 0) return { split };
  const toggle = element('button', 'button split-toggle', undefined, {
    type: 'button',
    'data-action': 'more-scopes',
    'aria-haspopup': 'menu',
    'aria-expanded': 'false',
    'aria-controls': menuId,
    'aria-label': 'More ways to allow',
    title: 'More ways to allow',
  });
  toggle.append(icon('chevron-down'));
  // The box opens and closes; the menu in it holds only its items (ARIA), the note follows them.
  const menu = element('div', 'scope-menu');
  menu.hidden = true;
  const list = element('div', 'scope-list', undefined, { id: menuId, role: 'menu', 'aria-label': 'Ways to allow' });
  for (const item of items) {
    item.setAttribute('role', 'menuitem');
    item.setAttribute('tabindex', '-1');
    item.classList.add('scope-item');
  }
  list.append(...items);
  menu.append(list);
  if (note !== undefined) menu.append(element('div', 'scope-note', note));
  const open = (on: boolean, focus: 'first' | 'toggle' | 'none' = 'none'): void => {
    menu.hidden = !on;
    toggle.setAttribute('aria-expanded', String(on));
    if (on && focus === 'first') items[0]?.focus();
    if (!on && focus === 'toggle') toggle.focus();
  };
  toggle.addEventListener('click', () => open(menu.hidden, 'first'));
  toggle.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      open(true, 'first');
    }
  });
  menu.addEventListener('keydown', (event) => {
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next = (at + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length;
      items[next]?.focus();
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      items[event.key === 'Home' ? 0 : items.length - 1]?.focus();
    } else if (event.key === 'Escape') {
      // Closes the menu only: neither a denial nor Stop.
      event.preventDefault();
      event.stopPropagation();
      open(false, 'toggle');
    } else if (event.key === 'Tab') {
      open(false);
    }
  });
  bar.addEventListener('focusout', (event) => {
    if (!bar.contains(event.relatedTarget as Node | null)) open(false);
  });
  split.classList.add('has-menu');
  split.append(toggle);
  return { split, menu };
}

/** An unsandboxed command says so before the choice, in one line that fits why. */
function unsandboxedLine(why: CardUnsandboxed, callbacks: EntryCallbacks): HTMLElement {
  const line = element('div', 'approval-unsandboxed');
  line.append(icon('warning'));
  if (why.mode === 'off') {
    line.append(document.createTextNode(' Runs unsandboxed, with your rights. '));
    const link = element('button', 'link', 'Turn the sandbox on (claudeMemory.sandbox)', { type: 'button', 'data-action': 'sandbox-setting' });
    link.addEventListener('click', () => callbacks.card({ type: 'sandboxSetting' }));
    line.append(link);
    return line;
  }
  line.append(document.createTextNode(` Runs unsandboxed, with your rights: ${why.why}.`));
  if (why.help) {
    // How to install it, one click away (the line stays one sentence on a narrow side bar).
    const help = element('div', 'approval-unsandboxed-help', `To sandbox commands, ${why.help}.`);
    help.hidden = true;
    const link = element('button', 'link', 'How to install it', { type: 'button', 'data-action': 'sandbox-help', 'aria-expanded': 'false' });
    link.addEventListener('click', () => {
      help.hidden = !help.hidden;
      link.setAttribute('aria-expanded', String(!help.hidden));
    });
    line.append(document.createTextNode(' '), link, help);
  }
  return line;
}

/** A running command's host requests: a question while one waits, then a line that says how it ended. */
export function networkView(id: string, asks: readonly ToolNetwork[], callbacks: EntryCallbacks): HTMLElement {
  const box = element('div', 'tool-network');
  for (const ask of asks) box.append(ask.state === 'pending' ? networkQuestion(id, ask, callbacks) : networkLine(id, ask, callbacks));
  return box;
}

function networkQuestion(id: string, ask: ToolNetwork, callbacks: EntryCallbacks): HTMLElement {
  const label = networkLabel(ask);
  const who = ask.program ?? 'The command';
  const el = element('div', 'tool-approval approval-pending approval-network', undefined, { role: 'group', tabindex: '-1' });
  el.dataset.entryId = id;
  el.dataset.host = label;
  el.setAttribute('aria-label', `${who} asks to reach ${label}. Enter allows it once, Escape denies it.`);
  el.append(element('div', 'approval-question', `${who} wants to reach`), element('code', 'approval-command', label));
  const bar = element('div', 'error-actions approval-actions');
  const once = cardButton('Allow once', 'check', { type: 'approve', entryId: id, decision: 'once', host: label }, callbacks, 'button', 'allow-once');
  const always = cardButton(`Always allow ${ask.host}`, 'check-all', { type: 'approve', entryId: id, decision: 'always', host: label }, callbacks, 'secondary', 'allow-always');
  always.title = `Adds ${ask.host} to claudeMemory.sandbox.allowedDomains in your user settings.`;
  const { split, menu } = splitButton(once, [always], undefined, `scopes-${id}-${label.replace(/[^A-Za-z0-9-]/g, '-')}`, bar);
  bar.append(split, cardButton('Deny', 'circle-slash', { type: 'approve', entryId: id, decision: 'deny', host: label }, callbacks, 'secondary', 'deny'), ...(menu ? [menu] : []));
  el.append(bar);
  return el;
}

function networkLine(id: string, ask: ToolNetwork, callbacks: EntryCallbacks): HTMLElement {
  const label = networkLabel(ask);
  const el = element('div', `tool-approval network-${ask.state}`);
  el.dataset.host = label;
  const text =
    ask.state === 'once'
      ? `Allowed ${label} once`
      : ask.state === 'always'
        ? `Always allowed: ${ask.host}`
        : ask.state === 'deny'
          ? `You denied ${label}`
          : `${ask.program ?? 'The command'} tried to reach ${label} (blocked; it ended before you answered)`;
  el.append(icon(ask.state === 'once' || ask.state === 'always' ? 'check' : 'circle-slash'), document.createTextNode(` ${text}`));
  if (ask.state === 'blocked' && ask.added) {
    el.append(element('span', 'network-added', ` · ${ask.host} is now in sandbox.allowedDomains`));
  } else if (ask.state === 'blocked' && ask.offer) {
    el.append(document.createTextNode(' '));
    const link = element('button', 'link', `Allow ${ask.host} for later commands`, {
      type: 'button',
      'data-action': 'allow-host',
      title: `Adds ${ask.host} to claudeMemory.sandbox.allowedDomains in your user settings: sandboxed commands reach it without asking.`,
    });
    link.addEventListener('click', () => {
      link.disabled = true;
      callbacks.card({ type: 'allowHost', entryId: id, host: label });
    });
    el.append(link);
  }
  return el;
}
