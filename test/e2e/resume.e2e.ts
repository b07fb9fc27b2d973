// Resume Session as a person uses it (issues 8 and 13), in the real workbench against the scripted
// Messages API: the routine shows as a chip, not as a 40-line message; Claude reads memory, runs
// the project's tests after Allow on its card, flips only the feature it verified and appends to
// the progress log; the Features view follows.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator } from 'playwright-core';
import type { MockMessagesApi } from '../support/mockMessagesApi';
import { LaunchedWorkbench, UI_TIMEOUT, again, focusView, runCommand, screenshot, untilChat } from './support';
import { chatSuite } from './support/chatSuite';

const FEATURES = [
  { id: 'F001', category: 'functional', description: 'add a todo', steps: ['Run npm test'], passes: false },
  { id: 'F002', category: 'functional', description: 'list todos', steps: ['Run npm test'], passes: false },
];
const PROGRESS = '# Progress\n\n## 2026-11-29\n- Initialized the project memory.\n';

suite('Resume Session runs the routine (e2e)', function () {
  let wb: LaunchedWorkbench;
  let mock: MockMessagesApi;
  let chat: FrameLocator;
  let memory: string;

  const flipped = JSON.stringify(FEATURES.map((f) => (f.id === 'F001' ? { ...f, passes: true } : f)), null, 2) + '\n';
  chatSuite(
    {
      kind: 'resume',
      settings: { 'claudeMemory.createPolicy': 'overwrite' },
      turns: [
        { content: [{ type: 'text', text: 'Reading memory first.' }, { type: 'tool_use', name: 'memory', input: { command: 'view', path: '/memories' } }] },
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'npm test' } }] },
        { content: [{ type: 'tool_use', name: 'memory', input: { command: 'create', path: '/memories/features.json', file_text: flipped } }] },
        {
          content: [
            { type: 'tool_use', name: 'memory', input: { command: 'insert', path: '/memories/progress.md', insert_line: 4, insert_text: '\n## 2026-11-30\n- F001 add a todo: verified with npm test.' } },
          ],
        },
        { content: [{ type: 'text', text: 'F001 passes now; progress is recorded.' }] },
      ],
      memory: { 'features.json': JSON.stringify(FEATURES, null, 2) + '\n', 'progress.md': PROGRESS, 'startup.md': '# Start-up\n\nTest: `npm test`\n' },
    },
    (s) => ({ wb, mock, chat, memory } = s),
  );

  test('the routine is a chip; Claude reads memory, runs the tests after Allow, flips only F001 and appends progress', async function () {
    const page = wb.page;
    await again(() => runCommand(page, 'Claude Memory: Resume Session', UI_TIMEOUT));
    const chip = chat.locator('.prompt-chip').first();
    await chip.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.match((await chip.locator('.prompt-label').textContent()) ?? '', /Resume Session · next: F001/);

    const allow = chat.locator('button', { hasText: 'Allow once' }).first();
    await allow.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await screenshot(page, 'resume-approval-light');
    await allow.click();

    await chat.locator('text=F001 passes now; progress is recorded.').first().waitFor({ state: 'visible', timeout: 30_000 });
    const written = JSON.parse(fs.readFileSync(path.join(memory, 'features.json'), 'utf8')) as typeof FEATURES;
    assert.deepStrictEqual(written.map((f) => [f.id, f.passes]), [['F001', true], ['F002', false]]);
    const progress = fs.readFileSync(path.join(memory, 'progress.md'), 'utf8');
    assert.ok(progress.startsWith(PROGRESS), 'the earlier log is kept as it was');
    assert.match(progress, /F001 add a todo: verified with npm test/);

    // The request the routine went out in: one user message, the routine itself.
    const first = mock.requests[0].body as { messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> };
    assert.strictEqual(first.messages.length, 1, 'Resume starts a fresh conversation');
    assert.match(first.messages[0].content[0].text ?? '', /resuming work on this project/);

    await screenshot(page, 'resume-answer-light');
    // The Features view follows: F001 ticked, F002 next.
    const features = await again(() => focusView(page, 'Features', UI_TIMEOUT));
    await features.locator('.monaco-list-row', { hasText: 'add a todo' }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await features.locator('.monaco-list-row', { hasText: 'list todos' }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await screenshot(page, 'resume-features-light');
  });

  test('Chat History names the session by what it did; rewinding it puts no routine in the composer and keeps the draft; no title or tooltip quotes the routine', async function () {
    const page = wb.page;
    // Chat History calls the chat by what its session did (F001 now passes), with no folder line in a one-folder workspace.
    await again(() => runCommand(page, 'Claude Memory: Chat History', UI_TIMEOUT));
    const history = page.locator('.quick-input-widget');
    const current = history.locator('.quick-input-list .monaco-list-row').first();
    await current.waitFor({ timeout: UI_TIMEOUT });
    const rowText = (await current.textContent()) ?? '';
    assert.match(rowText, /Resume Session · F001 now passes: add a todo/, rowText);
    assert.doesNotMatch(rowText, /next: F001|sample-workspace/, rowText);
    await screenshot(page, 'resume-chat-history-light');
    await page.keyboard.press('Escape');
    await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
    // The change summary names the session by its chip.
    const toggle = chat.locator('.change-summary .cs-toggle');
    await untilChat(chat, toggle, 'the change summary');
    const tooltip = (await toggle.getAttribute('title')) ?? '';
    assert.match(tooltip, /Resume Session · next: F001/);
    assert.doesNotMatch(tooltip, /resuming work|routine/, tooltip);
    // Open Diff of a summary row: the tab title names the chip too.
    await chat.locator('.change-summary .cs-row[data-path="features.json"] .cs-name').click();
    const tab = page.locator('.tabs-container .tab', { hasText: 'features.json' }).first();
    await tab.waitFor({ timeout: 15_000 });
    const tabTitle = (await tab.textContent()) ?? '';
    assert.match(tabTitle, /since "Resume Session · next: F001"/, tabTitle);
    assert.doesNotMatch(tabTitle, /resuming work/, tabTitle);

    // A draft of the user's own, then Rewind to here on the routine's chip.
    const draft = 'Now add the rm command (F003)';
    await chat.locator('#prompt').fill(draft);
    await chat.locator('#transcript').evaluate((el) => (el.scrollTop = 0));
    const rewind = chat.locator('.entry.user.prompt-chip').first().locator('[data-action="rewind"]');
    await rewind.click();
    const pick = page.locator('.quick-input-widget');
    const both = pick.locator('.quick-input-list .monaco-list-row', { hasText: 'Rewind files and conversation' }).first();
    await both.waitFor({ timeout: 20_000 });
    const title = (await pick.locator('.quick-input-title').textContent()) ?? '';
    assert.strictEqual(title, 'Rewind to before "Resume Session · next: F001"?');
    await screenshot(page, 'resume-rewind-preview-light');
    await both.click();
    await untilChat(chat, chat.locator('.rewound-here'), 'the rewound chip\'s note', { timeout: 30_000 });
    // The composer holds the user's draft and nothing else; the note says the routine is not put back.
    assert.strictEqual(await chat.locator('#prompt').inputValue(), draft);
    assert.match((await chat.locator('.composer-note').textContent()) ?? '', /Rewound to before "Resume Session · next: F001"\. Its routine is not put back/);
    await screenshot(page, 'resume-rewound-light');
  });
});
