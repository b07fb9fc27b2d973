// With the sandbox turned off (issue 32, findings 4, 14, 15): the approval card says before the
// choice that the command runs unsandboxed, with the advice that fits (the setting, never
// "install bubblewrap"), and its head keeps an "unsandboxed" chip; the active editor's file is an
// implicit chip that one click leaves out of the message; a file link in High Contrast reads as a
// link, not as a box; axe-core finds nothing serious or critical in light, dark and High Contrast.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator, Page } from 'playwright-core';
import type { MockMessagesApi } from '../support/mockMessagesApi';
import { LaunchedWorkbench, UI_TIMEOUT, again, focusView, runCommand, screenshot, screenshotsDir, sendFromComposer, setSideBarWidth, treeRow, untilChat } from './support';
import { assertAccessible } from './support/axe';
import { chatSuite } from './support/chatSuite';
import { shootSideBarDarkAndHc } from './support/themes';

const OLD = 'const todos = [];';
const NEW = 'const todos = []; // the list of todos';

suite('unsandboxed commands and the composer\'s chips (e2e)', function () {
  let wb: LaunchedWorkbench;
  let mock: MockMessagesApi;
  let chat: FrameLocator;
  let page: Page;

  chatSuite({ kind: 'unsandboxed', settings: { 'claudeMemory.sandbox': 'off' } }, (s) => {
    ({ wb, mock, chat } = s);
    page = wb.page;
    fs.writeFileSync(path.join(s.workspace, 'src', 'cli.js'), "console.log('(no todos)');\n");
  });

  /** What the last request's last user message said (earlier turns hold the file's text too). */
  const lastUserMessage = (): string => {
    const messages = (mock.requests.at(-1)?.body.messages ?? []) as Array<{ role: string; content: unknown }>;
    return JSON.stringify(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
  };
  const audit = (when: string): Promise<void> => assertAccessible(page, when);

  test('the card says "runs unsandboxed" before the choice, with the setting to turn on, and keeps a chip after the answer', async function () {
    mock.script([
      { content: [{ type: 'text', text: 'Running the CLI first.' }, { type: 'tool_use', name: 'bash', input: { command: 'node src/cli.js list' } }] },
      { content: [{ type: 'tool_use', name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'src/todo.js', old_str: OLD, new_str: NEW } }] },
      { content: [{ type: 'text', text: 'Listed, and documented the list.' }] },
    ]);
    await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
    await setSideBarWidth(page, 300);
    await sendFromComposer(chat, 'List the todos, then document the list');
    const card = chat.locator('.entry.tool', { hasText: 'node src/cli.js list' });
    await untilChat(chat, card.locator('.approval-pending'), 'the approval card');
    const line = card.locator('.approval-unsandboxed');
    assert.strictEqual((await line.textContent())?.replace(/\s+/g, ' ').trim(), 'Runs unsandboxed, with your rights. Turn the sandbox on (claudeMemory.sandbox)');
    assert.strictEqual((await card.locator('.tool-head .chip-unsandboxed').textContent())?.trim(), 'unsandboxed');
    assert.doesNotMatch((await card.textContent()) ?? '', /bubblewrap|install/i, 'no advice to install what the user turned off');
    assert.strictEqual(await card.locator('[data-action="allow-sandboxed"]').count(), 0, 'nothing to allow "sandboxed"');
    await page.screenshot({ path: path.join(screenshotsDir, 'approvals-unsandboxed-300-light.png'), clip: (await page.locator('.part.sidebar').boundingBox())! });
    await audit('an unsandboxed card waiting (light)');
    await shootSideBarDarkAndHc(page, chat, 'approvals-unsandboxed-300', (theme) => audit(`an unsandboxed card waiting (${theme})`));

    // The link opens the setting.
    await card.locator('[data-action="sandbox-setting"]').click();
    const search = page.locator('.settings-editor .settings-header .suggest-input-container .view-lines');
    await search.filter({ hasText: 'claudeMemory.sandbox' }).first().waitFor({ timeout: UI_TIMEOUT });
    await page.locator('.settings-editor .setting-item-title', { hasText: 'Sandbox' }).first().waitFor({ timeout: UI_TIMEOUT });
    await screenshot(page, 'approvals-unsandboxed-setting-light');

    await untilChat(chat, card.locator('.approval-pending.approval-armed'), 'the card armed');
    await card.locator('[data-action="allow-once"]').click();
    await untilChat(chat, card.locator('.approval-once'), 'allowed once');
    const output = card.locator('.tool-output');
    await untilChat(chat, output.filter({ hasText: '(no todos)' }), 'the command\'s output');
    assert.doesNotMatch((await output.textContent()) ?? '', /unsandboxed|bubblewrap/, 'the card said it before the choice: not again in the output');
    assert.strictEqual(await card.locator('.tool-head .chip-unsandboxed').count(), 1, 'the chip stays after the answer');

    // The edit's file link reads as a link in High Contrast, not as a box like the command.
    const edit = chat.locator('.entry.tool', { has: chat.locator('[data-action="open-file"]') });
    await untilChat(chat, chat.locator('.entry.assistant', { hasText: 'documented the list' }), 'the answer over');
    await audit('after the answers (light)');
    await shootSideBarDarkAndHc(page, chat, 'approvals-unsandboxed-answered-300', async (theme) => {
      await audit(`after the answers (${theme})`);
      if (theme !== 'hc') return;
      const style = await edit.locator('[data-action="open-file"]').evaluate((el) => {
        const s = (globalThis as unknown as { getComputedStyle(e: unknown): { borderTopStyle: string; textDecorationLine: string } }).getComputedStyle(el);
        return [s.borderTopStyle, s.textDecorationLine];
      });
      assert.deepStrictEqual(style, ['none', 'underline'], 'the file link: no box, underlined');
      const command = await card.locator('.tool-shell').evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { borderTopStyle: string } }).getComputedStyle(el).borderTopStyle);
      assert.strictEqual(command, 'solid', 'the command keeps its box');
    });
    await page.screenshot({ path: path.join(screenshotsDir, 'approvals-unsandboxed-answered-300-light.png'), clip: (await page.locator('.part.sidebar').boundingBox())! });
  });

  test('the active editor\'s file is an implicit chip: one click leaves it out of the message, another puts it back', async function () {
    mock.script([{ content: [{ type: 'text', text: 'Without the file.' }] }, { content: [{ type: 'text', text: 'With the file.' }] }]);
    const explorer = await again(() => focusView(page, 'Explorer', UI_TIMEOUT));
    await treeRow(explorer, 'src').click();
    await treeRow(explorer, 'todo.js').click();
    await page.locator('.editor-instance .monaco-editor .view-lines', { hasText: /function.addTodo/ }).first().waitFor({ timeout: UI_TIMEOUT });
    await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
    const chip = chat.locator('#attachments .chip.current', { hasText: 'todo.js' });
    await untilChat(chat, chip, 'the current file\'s chip');
    assert.strictEqual((await chip.locator('.chip-kind').textContent())?.trim(), 'current file', 'it says it is implicit');
    assert.strictEqual(await chip.getAttribute('aria-pressed'), 'true');
    await screenshot(page, 'approvals-current-chip-on-light');
    await chip.click();
    await untilChat(chat, chat.locator('#attachments .chip.current.off[aria-pressed="false"]'), 'the chip off');
    await screenshot(page, 'approvals-current-chip-off-light');
    await sendFromComposer(chat, 'Answer without the file');
    await untilChat(chat, chat.locator('.entry.assistant', { hasText: 'Without the file.' }), 'the first answer');
    assert.doesNotMatch(lastUserMessage(), /function addTodo/, 'the file did not go with the message');
    assert.strictEqual(await chat.locator('.entry.user', { hasText: 'Answer without the file' }).locator('.chip').count(), 0);
    await untilChat(chat, chat.locator('#attachments .chip.current.off'), 'still off for the same file');
    await chat.locator('#attachments .chip.current').click();
    await untilChat(chat, chat.locator('#attachments .chip.current[aria-pressed="true"]'), 'the chip on again');
    await sendFromComposer(chat, 'Answer with the file');
    await untilChat(chat, chat.locator('.entry.assistant', { hasText: 'With the file.' }), 'the second answer');
    assert.match(lastUserMessage(), /function addTodo/, 'the file went with the message');
  });
});
