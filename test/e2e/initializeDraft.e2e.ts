// Initialize with Claude drafting the feature list (issue 19: "a transcript that tells the truth"),
// in the real workbench against the scripted Messages API: the chat stays in front when the draft
// is over (no jump to the Features view, features.json not forced open, no toast repeating the
// chat), and Claude's last message carries "Review features.json" and "Resume Session" as real
// buttons. Review opens the checklist beside the chat; the buttons come back after a reload of
// the window; Resume Session starts the resume conversation for that folder.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator } from 'playwright-core';
import type { MockMessagesApi } from '../support/mockMessagesApi';
import { chatSuite } from './support/chatSuite';
import {
  LaunchedWorkbench, UI_TIMEOUT, activityBarItem, again, notifications, runCommand, screenshot, untilChat, viewPane, waitForWorkbench, webviewFrame,
} from './support';

const DRAFTED = [
  { id: 'F001', category: 'functional', description: 'add a todo', steps: ['run todo add milk', 'see it listed'], passes: false },
  { id: 'F002', category: 'functional', description: 'list todos', steps: ['run todo list'], passes: false },
];
const LAST_WORDS = 'I drafted 2 features. Start with F001: add a todo.';

suite('Initialize with a Claude draft keeps the chat in front (e2e)', function () {
  let wb: LaunchedWorkbench;
  let mock: MockMessagesApi;
  let chat: FrameLocator;
  let memory: string;

  chatSuite(
    {
      kind: 'initdraft',
      reloads: true,
      turns: [
        { content: [{ type: 'tool_use', name: 'memory', input: { command: 'str_replace', path: '/memories/features.json', old_str: '[]', new_str: JSON.stringify(DRAFTED, null, 2) } }] },
        { content: [{ type: 'text', text: LAST_WORDS }] },
      ],
    },
    (s) => ({ wb, mock, chat, memory } = s),
  );

  test('the draft ends with the chat visible and both buttons on Claude\'s last message; Review opens features.json; after a reload Resume Session starts the resume conversation', async function () {
    const page = wb.page;
    await again(() => runCommand(page, 'Claude Memory: Initialize Project Memory', UI_TIMEOUT));
    const goal = page.locator('.quick-input-widget .quick-input-box input');
    await goal.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await goal.fill('A command-line todo app: add and list todos.');
    await page.keyboard.press('Enter');
    const draftRow = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: 'let Claude draft the feature list' }).first();
    await draftRow.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await draftRow.click();

    // The draft runs in the chat and ends there.
    const answer = chat.locator('.entry.assistant', { hasText: LAST_WORDS }).last();
    await untilChat(chat, answer, 'Claude\'s last message of the draft', { timeout: 60_000 });
    const review = answer.getByRole('button', { name: 'Review features.json' });
    const resume = answer.getByRole('button', { name: 'Resume Session' });
    await untilChat(chat, resume, 'the Resume Session button on the last message');
    await untilChat(chat, review, 'the Review features.json button on the last message');
    assert.deepStrictEqual(
      (JSON.parse(fs.readFileSync(path.join(memory, 'features.json'), 'utf8')) as typeof DRAFTED).map((f) => f.id),
      ['F001', 'F002'],
      'the draft reached features.json',
    );
    assert.strictEqual(await answer.getByRole('group', { name: 'Next steps' }).count(), 1, 'one group of next steps, with an accessible name');
    assert.strictEqual(await chat.locator('.follow-ups').count(), 1, 'the buttons are on the last message only');

    // The chat stays in front: its container is the one shown, the Features view did not take the side bar.
    assert.ok(await chat.locator('#prompt').isVisible(), 'the chat view is visible');
    assert.match((await activityBarItem(page, 'Claude Chat').locator('xpath=..').getAttribute('class')) ?? '', /\bchecked\b/, 'the Claude Chat container is the one shown');
    assert.strictEqual(await viewPane(page, 'Features').isVisible(), false, 'the Features view did not take the side bar');
    assert.strictEqual(await page.locator('.tabs-container .tab', { hasText: 'features.json' }).count(), 0, 'features.json was not forced open');
    assert.ok(!(await notifications(page)).some((n) => /Project memory initialized/.test(n)), 'no toast repeating the chat');

    // Keyboard reachable: the buttons take focus as buttons do.
    await review.focus();
    assert.strictEqual(await review.evaluate((el) => el.matches(':focus') && el.tagName), 'BUTTON');
    await page.keyboard.press('Tab');
    assert.strictEqual(await resume.evaluate((el) => el.matches(':focus')), true, 'Tab goes on to Resume Session');
    await screenshot(page, 'initialize-draft-followups-light');

    // Review features.json: the checklist opens in an editor; the chat stays visible beside it.
    await review.click();
    await page.locator('.tabs-container .tab.active', { hasText: 'features.json' }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.ok(await chat.locator('#prompt').isVisible(), 'the chat is still visible');
    assert.strictEqual(await viewPane(page, 'Features').isVisible(), false, 'the Features view still did not take the side bar');
    await screenshot(page, 'initialize-draft-review-light');

    // The buttons are part of the saved conversation: a reload of the window brings them back.
    await page.reload();
    await waitForWorkbench(page);
    await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
    chat = webviewFrame(page);
    const reloaded = chat.locator('.entry.assistant', { hasText: LAST_WORDS }).last();
    const resumeAgain = reloaded.getByRole('button', { name: 'Resume Session' });
    await untilChat(chat, resumeAgain, 'the Resume Session button after the reload', { timeout: UI_TIMEOUT });
    assert.strictEqual(await reloaded.getByRole('button', { name: 'Review features.json' }).count(), 1);

    // Resume Session: a fresh conversation with the routine for the folder's next feature.
    mock.script([{ content: [{ type: 'text', text: 'Resuming: F001 is next.' }] }, { content: [{ type: 'text', text: 'Progress noted.' }] }]);
    await resumeAgain.click();
    const chip = chat.locator('.prompt-chip', { hasText: 'Resume Session · next: F001' }).first();
    await untilChat(chat, chip, 'the Resume Session chip', { timeout: UI_TIMEOUT });
    await untilChat(chat, chat.locator('.entry.assistant', { hasText: 'Resuming: F001 is next.' }).first(), 'the resume answer', { timeout: UI_TIMEOUT });
    // The routine went out as the first message of a fresh conversation.
    const firstTexts = mock.requests.map((r) => {
      const messages = (r.body as { messages: Array<{ content: Array<{ type: string; text?: string }> | string }> }).messages;
      const content = messages[0].content;
      return { count: messages.length, text: typeof content === 'string' ? content : (content[0]?.text ?? '') };
    });
    assert.ok(firstTexts.some((m) => m.count === 1 && /resuming work on this project/.test(m.text)), 'Resume started a fresh conversation with its routine');
    // Its reminder to append to progress.md is answered too: nothing left running.
    await untilChat(chat, chat.locator('.entry.assistant', { hasText: 'Progress noted.' }).first(), 'the answer to the reminder', { timeout: UI_TIMEOUT });
    await screenshot(page, 'initialize-draft-resumed-light');
  });
});
