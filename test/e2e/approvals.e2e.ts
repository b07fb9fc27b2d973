// Approval cards and the keyboard (issue 32, findings 1, 3, 5, 8, 9), in the real workbench
// against the scripted Messages API, with the OS sandbox on:
// - typing into the composer while a card arrives loses no character and runs nothing: the card
//   never takes the focus from the composer, and the Enter meant for the message never allows;
// - a card that takes the focus ignores keys for its first second; a character typed on it goes
//   into the composer; with text there, Enter is Deny with that text, shown on the card;
// - "Always allow" never offers an interpreter alone, and offers what the command runs;
// - a host request of a command that ends before anyone answers is "blocked", never the user's
//   denial, and the card keeps its own approval line;
// - Manage Command Rules removes nothing on the first Enter, lists every source, and undoes a removal;
// - axe-core (WCAG 2.1 A/AA) finds nothing serious or critical with a card waiting and after answers.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator, Page } from 'playwright-core';
import type { MockMessagesApi } from '../support/mockMessagesApi';
import { LaunchedWorkbench, UI_TIMEOUT, again, runCommand, screenshot, screenshotsDir, sendFromComposer, setSideBarWidth, switchTheme, untilChat } from './support';
import { assertAccessible, webviewContentFrame } from './support/axe';
import { chatSuite } from './support/chatSuite';
import { shootSideBarDarkAndHc } from './support/themes';

interface ToolResultBlock {
  type: string;
  is_error?: boolean;
  content?: unknown;
}

/** A little CLI like the review's todo-cli: `add` writes the list to TODO_FILE (default todos.json). */
const CLI = `const fs = require('fs');
const path = require('path');
const file = process.env.TODO_FILE || path.join(__dirname, '..', 'todos.json');
const [command, ...rest] = process.argv.slice(2);
const list = fs.existsSync(file) && fs.statSync(file).size > 0 ? JSON.parse(fs.readFileSync(file, 'utf8')) : [];
if (command === 'add') { list.push(rest.join(' ')); fs.writeFileSync(file, JSON.stringify(list)); }
console.log(list.map((t, i) => (i + 1) + '. ' + t).join('\\n') || '(no todos)');
`;

/** A command that reaches for a host nobody allowed, and ends (curl's own timeout) before anyone answers. */
const NET = `#!/bin/sh
curl -s -m 4 -o /dev/null http://registry.example.invalid/
echo checked
`;

const FOLLOW_UP = 'also, after that, tell me which tests cover complete() and whether remove() has one';

suite('approval cards and the keyboard (e2e)', function () {
  let wb: LaunchedWorkbench;
  let mock: MockMessagesApi;
  let chat: FrameLocator;
  let workspace: string;
  let page: Page;

  chatSuite({ kind: 'approvals' }, (s) => {
    ({ wb, mock, chat, workspace } = s);
    page = wb.page;
    fs.writeFileSync(path.join(workspace, 'src', 'cli.js'), CLI);
    fs.writeFileSync(path.join(workspace, 'net.sh'), NET, { mode: 0o755 });
  });

  const todoFile = (): string => path.join(workspace, 'todos.json');
  const toolResult = (request: number): ToolResultBlock | undefined => {
    const messages = mock.requests[request]?.body.messages as Array<{ content: ToolResultBlock[] | string }> | undefined;
    const last = messages?.[messages.length - 1]?.content;
    return Array.isArray(last) ? last.find((b) => b.type === 'tool_result') : undefined;
  };
  const audit = (when: string): Promise<void> => assertAccessible(page, when);
  /** The side bar in light, dark and High Contrast; `audited`: axe-core's audit in each of them too. */
  const sideBarShot = async (name: string, audited?: string): Promise<void> => {
    await page.screenshot({ path: path.join(screenshotsDir, `${name}-light.png`), clip: (await page.locator('.part.sidebar').boundingBox())! });
    await shootSideBarDarkAndHc(page, chat, name, audited ? (theme) => audit(`${audited} (${theme})`) : undefined);
  };

  test('typing into the composer while a card arrives loses no character, keeps the focus and runs nothing', async function () {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    mock.script([
      {
        content: [{ type: 'text', text: 'Running the CLI to check the output.' }, { type: 'tool_use', name: 'bash', input: { command: 'node src/cli.js add "from the review"' } }],
        faults: [{ type: 'gate', open: gate }],
      },
      { content: [{ type: 'text', text: 'OK, I leave the list alone.' }] },
      { content: [{ type: 'text', text: 'Noted.' }] },
    ]);
    await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
    await setSideBarWidth(page, 300);
    await sendFromComposer(chat, 'Check the CLI');
    const input = chat.locator('#prompt');
    // A follow-up typed while Claude works; the card arrives in the middle of it.
    await input.click();
    const cut = 27;
    await page.keyboard.type(FOLLOW_UP.slice(0, cut));
    // Every move of the focus from here on (a character typed on a card would bring it back).
    const frame = await webviewContentFrame(page);
    await frame.evaluate(`window.focusMoves = []; document.addEventListener('focusin', (e) => window.focusMoves.push(e.target.id || e.target.className))`);
    open();
    const card = chat.locator('.entry.tool', { hasText: 'from the review' });
    await untilChat(chat, card.locator('.approval-pending'), 'the card arriving while the user types');
    await page.keyboard.type(FOLLOW_UP.slice(cut));
    assert.strictEqual(await input.inputValue(), FOLLOW_UP, 'every character is in the composer');
    assert.strictEqual(await input.evaluate((el) => el.ownerDocument.activeElement === el), true, 'the composer keeps the focus');
    assert.deepStrictEqual(await frame.evaluate('window.focusMoves'), [], 'the focus never moved to the card');
    await screenshot(page, 'approvals-arrives-while-typing-light');
    await page.keyboard.press('Enter');
    // The text went where the user's Enter sends it: the queue (the card's first second) or, once
    // the card said so, as the reason of a denial. Either way all of it, and nothing was allowed.
    const queued = chat.locator('.queued-message', { hasText: FOLLOW_UP });
    const denied = card.locator('.approval-deny');
    await untilChat(chat, queued.or(denied), 'the message queued or the card denied with it');
    assert.strictEqual(await input.inputValue(), '');
    if (await denied.isVisible()) {
      assert.strictEqual((await denied.textContent())?.trim(), `Denied: ${FOLLOW_UP}`);
    } else {
      assert.strictEqual((await queued.locator('.user-text').textContent())?.trim(), FOLLOW_UP);
      await untilChat(chat, card.locator('.approval-pending'), 'the card still waiting');
      await card.locator('[data-action="deny"]').click();
      // The queued message goes out once the answer is over; the next test starts after it.
      await untilChat(chat, chat.locator('.entry.assistant', { hasText: 'Noted.' }), 'the queued message answered');
    }
    assert.strictEqual(await card.locator('.approval-once, .approval-always').count(), 0, 'nothing was allowed');
    await untilChat(chat, chat.locator('.entry.assistant', { hasText: 'I leave the list alone' }), 'Claude told of the denial');
    assert.strictEqual(toolResult(1)?.is_error, true);
    assert.match(String(toolResult(1)?.content), /the user declined to run this command; nothing was run/);
    assert.strictEqual(fs.existsSync(todoFile()), false, 'the command never ran: no todos.json');
  });

  test('a focused card ignores keys for its first second, then Enter allows once; typed words go into the composer; Enter with them denies, shown on the card', async function () {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    mock.script([
      { content: [{ type: 'tool_use', name: 'bash', input: { command: 'node src/cli.js add "from the card"' } }], faults: [{ type: 'gate', open: gate }] },
      { content: [{ type: 'tool_use', name: 'bash', input: { command: 'f=$(mktemp) && TODO_FILE=$f node src/cli.js add milk && TODO_FILE=$f node src/cli.js add eggs' } }] },
      { content: [{ type: 'text', text: 'Understood.' }] },
    ]);
    await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
    await sendFromComposer(chat, 'Add a todo, then try a throwaway list');
    // The composer is not in use (empty, and the focus elsewhere): the card takes the focus. A key
    // already on its way when it appears does not answer it: one is pressed the moment it is drawn.
    await chat.locator('.entry.user').last().locator('.user-text').click();
    const frame = await webviewContentFrame(page);
    // In the page (the test's tsconfig has no DOM types): the moment the card takes the focus, an Enter on it.
    const probe = frame.evaluate(`new Promise((resolve) => {
      document.addEventListener('focusin', function onFocus(event) {
        const card = event.target;
        if (!card.matches || !card.matches('.tool-approval.approval-pending')) return;
        document.removeEventListener('focusin', onFocus);
        const armed = card.classList.contains('approval-armed');
        card.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
        resolve({ armed, stillWaiting: ![...card.querySelectorAll('button')].some((b) => b.disabled) });
      });
    })`) as Promise<{ armed: boolean; stillWaiting: boolean }>;
    open();
    assert.deepStrictEqual(await probe, { armed: false, stillWaiting: true }, 'an Enter in the card\'s first moment is ignored');
    const first = chat.locator('.entry.tool', { hasText: 'from the card' });
    await untilChat(chat, first.locator('.approval-pending.approval-armed'), 'the card armed after a second');
    await untilChat(chat, first.locator('.approval-pending:focus'), 'the card with the focus');
    // The scopes are one split button; Claude is never offered `node` alone.
    const always = (await first.locator('[data-action="allow-always"]').allTextContents()).map((t) => t.trim());
    assert.deepStrictEqual(always, ['Always allow "node src/cli.js" here']);
    assert.strictEqual(await first.locator('[data-action^="allow"]:visible').count(), 1, 'one visible Allow; the scopes wait behind ▾');
    await screenshot(page, 'approvals-card-focused-light');
    await page.keyboard.press('Enter');
    await untilChat(chat, first.locator('.approval-once'), 'allowed once by Enter on the armed card');
    await untilChat(chat, first.locator('.tool-output', { hasText: 'from the card' }), 'the command\'s output');
    assert.deepStrictEqual(JSON.parse(fs.readFileSync(todoFile(), 'utf8')), ['from the card'], 'the command really ran, once');
    await audit('after an answer');

    // The throwaway-list command: offers what it runs (not only "mktemp"), and says what still asks.
    const second = chat.locator('.entry.tool', { hasText: 'mktemp' });
    await untilChat(chat, second.locator('.approval-pending.approval-armed'), 'the second card armed');
    await second.locator('[data-action="more-scopes"]').click();
    const menu = second.locator('.scope-menu');
    await untilChat(chat, menu, 'the scopes menu');
    assert.deepStrictEqual((await menu.locator('.scope-item').allTextContents()).map((t) => t.trim()), [
      'Always allow "mktemp" here',
      'Always allow "node src/cli.js" here',
      'Always allow all 2 here',
      'Allow sandboxed commands in this chat',
    ]);
    assert.strictEqual((await menu.locator('.scope-note').textContent())?.trim(), 'Still asks next time: `f=$(mktemp)`, `TODO_FILE=$f node src/cli.js ad…` and 1 more (sets variables).');
    await audit('with a card waiting and its scopes open (light)');
    await sideBarShot('approvals-scopes-menu-300', 'with a card waiting');
    // Escape closes the menu only: the card still waits.
    await menu.locator('.scope-item').first().focus();
    await page.keyboard.press('Escape');
    await untilChat(chat, menu, 'the menu closed', { state: 'hidden' });
    assert.strictEqual(await second.locator('.approval-pending').count(), 1, 'Escape in the menu denied nothing');

    // Words typed on the focused card go into the composer, every one of them.
    const reason = "don't touch my list, use a temp file and delete it after";
    await second.locator('.approval-question').click();
    await untilChat(chat, second.locator('.approval-pending:focus'), 'the card focused by a click');
    await page.keyboard.type(reason);
    const input = chat.locator('#prompt');
    assert.strictEqual(await input.inputValue(), reason, 'no character typed on the card is lost');
    await untilChat(chat, second.locator('.approval-hint', { hasText: 'Enter (or Escape) in the box below denies it' }), 'the hint: Enter denies with the text');
    await sideBarShot('approvals-deny-hint-300');
    // The theme switches took the keyboard to the palette: back to the composer, caret kept.
    await input.focus();
    await page.keyboard.press('Enter');
    const denied = second.locator('.approval-deny');
    await untilChat(chat, denied, 'the card denied with the reason');
    assert.strictEqual((await denied.textContent())?.trim(), `Denied: ${reason}`);
    await again(async () => assert.ok(mock.requests.length >= 3));
    assert.match(String(toolResult(2)?.content), new RegExp(`The user said: ${reason.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    assert.strictEqual(await chat.locator('.queued-message').count(), 0, 'the reason was not queued as a message');
    await untilChat(chat, chat.locator('.entry.assistant', { hasText: 'Understood.' }), 'Claude answered the denial');
    await audit('after a denial with a reason (light)');
    await sideBarShot('approvals-denied-reason-300', 'after a denial with a reason');
  });

  test('a host request of a command that ends before anyone answers is blocked, not the user\'s denial; the card keeps its own approval line', async function () {
    mock.script([
      { content: [{ type: 'tool_use', name: 'bash', input: { command: './net.sh' } }] },
      { content: [{ type: 'tool_use', name: 'bash', input: { command: './net.sh' } }] },
      { content: [{ type: 'text', text: 'The check needs the network.' }] },
    ]);
    await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
    await sendFromComposer(chat, 'Run the network check twice');
    const card = chat.locator('.entry.tool', { hasText: './net.sh' }).first();
    await untilChat(chat, card.locator('.approval-pending.approval-armed'), 'the command card armed');
    await card.locator('[data-action="more-scopes"]').click();
    await card.locator('.scope-item[data-action="allow-always"]', { hasText: '"./net.sh"' }).click();
    await untilChat(chat, card.locator('.approval-always', { hasText: 'Always allowed here: ./net.sh' }), 'the command always allowed');
    // The host question shows on the card while the command waits on it...
    await untilChat(chat, card.locator('.approval-network.approval-pending', { hasText: 'registry.example.invalid:80' }), 'the host question');
    await screenshot(page, 'approvals-host-question-light');
    // ...and nobody answers before curl gives up.
    const blocked = card.locator('.network-blocked');
    await untilChat(chat, blocked, 'the host request blocked when the command ended');
    assert.strictEqual(
      (await blocked.textContent())?.replace(/\s+/g, ' ').trim().replace(/ Allow registry\.example\.invalid for later commands$/, ''),
      'net.sh tried to reach registry.example.invalid:80 (blocked; it ended before you answered)',
    );
    assert.strictEqual((await card.locator('.approval-always').textContent())?.trim(), 'Always allowed here: ./net.sh', 'the command\'s own line stays');
    assert.strictEqual(await card.locator('.network-deny').count(), 0);
    assert.doesNotMatch((await card.textContent()) ?? '', /Denied/, 'nothing on the card says the user denied anything');
    await untilChat(chat, card.locator('.tool-output', { hasText: 'checked' }), 'the command ended by itself');
    // The second run: the rule lets it run; its host is blocked again, and the offer is not repeated.
    const again2 = chat.locator('.entry.tool', { hasText: './net.sh' }).nth(1);
    await untilChat(chat, again2.locator('.network-blocked'), 'the second run\'s host request blocked');
    assert.strictEqual(await again2.locator('[data-action="allow-host"]').count(), 0, 'the offer comes once per host');
    await untilChat(chat, chat.locator('.entry.assistant', { hasText: 'The check needs the network.' }), 'the answer over');
    await sideBarShot('approvals-host-blocked-300');
    // The offer adds the host to the user's own settings.
    await card.locator('[data-action="allow-host"]').click();
    await untilChat(chat, card.locator('.network-added', { hasText: 'registry.example.invalid is now in sandbox.allowedDomains' }), 'the host added');
    const settings = path.join(wb.server.dirs.userData, 'User', 'settings.json');
    await again(async () => assert.match(fs.readFileSync(settings, 'utf8'), /"claudeMemory\.sandbox\.allowedDomains":\s*\[\s*"registry\.example\.invalid"\s*\]/));
    await audit('after a blocked host request');
  });

  test('Manage Command Rules: the first Enter removes nothing; every source is listed; a removal has Undo', async function () {
    const widget = page.locator('.quick-input-widget');
    const rows = widget.locator('.monaco-list-row');
    const row = (label: string) => rows.filter({ hasText: label });
    const open = async () => {
      await again(() => runCommand(page, 'Claude Memory: Manage Command Rules', UI_TIMEOUT));
      await widget.locator('.quick-input-title', { hasText: 'Claude Memory: Command Rules' }).waitFor({ timeout: UI_TIMEOUT });
    };
    await open();
    for (const source of ['This workspace', 'User settings: allow', 'User settings: deny', 'This chat', 'Built in', 'User settings: hosts']) {
      assert.ok((await widget.textContent())?.includes(source), `the list names its source: ${source}`);
    }
    await row('./net.sh').waitFor({ timeout: 10_000 });
    await row('registry.example.invalid').waitFor({ timeout: 10_000 });
    await screenshot(page, 'approvals-manage-rules-light');
    // Enter on a rule: what can be done with it, with Back first; nothing is removed.
    await page.keyboard.type('net.sh');
    await widget.locator('.monaco-list-row.focused', { hasText: './net.sh' }).waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await widget.locator('.quick-input-title', { hasText: 'Command Rules: ./net.sh' }).waitFor({ timeout: 10_000 });
    await widget.locator('.monaco-list-row.focused', { hasText: 'Back to the rules' }).waitFor({ timeout: 10_000 });
    await screenshot(page, 'approvals-manage-rules-enter-light');
    await page.keyboard.press('Enter');
    await row('./net.sh').waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden', timeout: 10_000 });
    await open();
    await row('./net.sh').waitFor({ timeout: 10_000 });

    // The trash button removes it, and Undo puts it back.
    await row('./net.sh').hover();
    await row('./net.sh').locator('.action-label.codicon-trash').click();
    await row('./net.sh').waitFor({ state: 'detached', timeout: 10_000 });
    const toast = page.locator('.notifications-toasts .notification-list-item', { hasText: 'Removed "./net.sh"' });
    await toast.waitFor({ timeout: 10_000 });
    await screenshot(page, 'approvals-manage-rules-removed-light');
    await toast.locator('.monaco-button', { hasText: 'Undo' }).click();
    await page.locator('.notifications-toasts .notification-list-item', { hasText: '"./net.sh" is back' }).waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');
    await open();
    await row('./net.sh').waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');
    // The list in the dark and High Contrast themes.
    for (const [theme, suffix] of [['Dark Modern', 'dark'], ['Dark High Contrast', 'hc'], ['Light Modern', '']] as const) {
      await again(() => switchTheme(page, theme));
      if (suffix === '') break;
      await open();
      await row('./net.sh').waitFor({ timeout: 10_000 });
      await screenshot(page, `approvals-manage-rules-${suffix}`);
      await page.keyboard.press('Escape');
    }
  });
});
