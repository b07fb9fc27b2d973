// Approval cards that say what they grant (issue 17), in the real workbench against the scripted
// Messages API: a compound command offers one "Always allow" per part; typing while the card
// waits puts a hint on it and Escape denies with the typed text as the reason, which reaches
// Claude; the next card takes the focus and Enter allows it once; the command stays readable in
// High Contrast; Claude Memory: Manage Command Rules lists the workspace's rules with Remove.
import * as assert from 'assert';
import type { FrameLocator } from 'playwright-core';
import type { MockMessagesApi } from '../support/mockMessagesApi';
import { LaunchedWorkbench, UI_TIMEOUT, again, runCommand, screenshot, switchTheme } from './support';
import { chatSuite } from './support/chatSuite';


interface ToolResultBlock {
  type: string;
  is_error?: boolean;
  content?: unknown;
}

suite('command rules and approval cards (e2e)', function () {
  let wb: LaunchedWorkbench;
  let mock: MockMessagesApi;
  let chat: FrameLocator;

  chatSuite(
    {
      kind: 'rules',
      turns: [
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'make all && npm test -- --grep x' } }] },
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'node -e "console.log(6*7)"' } }] },
        { content: [{ type: 'text', text: 'Done.' }] },
      ],
    },
    (s) => ({ wb, mock, chat } = s),
  );

  test('one Always allow per part; Escape denies with the typed reason; Enter allows the focused card once; High Contrast; Manage Command Rules', async function () {
    const { page } = wb;
    await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
    const input = chat.locator('#prompt');
    await input.waitFor({ timeout: 20_000 });
    await input.fill('Build and test.');
    await input.press('Enter');

    const first = chat.locator('.entry.tool:has(.approval-pending)').first();
    await first.waitFor({ timeout: 20_000 });
    const always = await first.locator('[data-action="allow-always"]').allTextContents();
    assert.deepStrictEqual(always.map((t) => t.trim()), ['Always allow "make all" here', 'Always allow "npm test" here']);
    await first.locator('[data-action="manage-rules"]').waitFor();
    await screenshot(page, 'rules-approval-light');

    // Typing while the card waits: a hint on the card; Escape denies with the text as reason.
    await input.fill('use yarn here');
    await first.locator('.approval-hint').waitFor({ timeout: 10_000 });
    await screenshot(page, 'rules-approval-hint-light');
    await input.press('Escape');
    await chat.locator('.approval-deny').first().waitFor({ timeout: 10_000 });
    await again(async () => assert.ok(mock.requests.length >= 2));
    const messages = mock.requests[1].body.messages as Array<{ content: ToolResultBlock[] }>;
    const result = messages[messages.length - 1].content.find((b) => b.type === 'tool_result');
    assert.strictEqual(result?.is_error, true);
    assert.match(String(result?.content), /The user said: use yarn here/);

    // The next card takes the focus; High Contrast keeps the command readable; Enter allows once.
    const second = chat.locator('.entry.tool:has(.approval-pending)').first();
    await second.waitFor({ timeout: 20_000 });
    await again(() => switchTheme(page, 'Dark High Contrast'));
    await page.locator('.monaco-workbench.hc-black').waitFor({ timeout: UI_TIMEOUT });
    await screenshot(page, 'rules-approval-high-contrast');
    // The command on the card and in the card's head (white on white before issue 17).
    for (const selector of ['.approval-command', '.tool-path']) {
      const colors = await second.locator(selector).evaluate((el) => {
        const style = (globalThis as unknown as { getComputedStyle(e: unknown): { color: string; backgroundColor: string } }).getComputedStyle(el);
        return [style.color, style.backgroundColor];
      });
      assert.notStrictEqual(colors[0], colors[1], `${selector}: text ${colors[0]} on ${colors[1]}`);
    }
    // A card ignores keys for its first second (issue 32): the Enter comes once it is armed.
    await second.locator('.approval-pending.approval-armed').waitFor({ timeout: 10_000 });
    await second.locator('.tool-approval').focus();
    await second.locator('.tool-approval').press('Enter');
    await chat.locator('.approval-once').first().waitFor({ timeout: 10_000 });
    await chat.locator('.tool-output', { hasText: '42' }).waitFor({ timeout: 30_000 });

    await runCommand(page, 'Claude Memory: Manage Command Rules');
    await page.locator('.quick-input-widget').getByText('None yet').waitFor({ timeout: 10_000 });
    await screenshot(page, 'rules-manage-high-contrast');
    await page.keyboard.press('Escape');
  });
});
