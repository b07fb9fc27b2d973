// Resume Session as a person uses it (issues 8 and 13), in the real workbench against the scripted
// Messages API: the routine shows as a chip, not as a 40-line message; Claude reads memory, runs
// the project's tests after Allow on its card, flips only the feature it verified and appends to
// the progress log; the Features view follows.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator } from 'playwright-core';
import type { MockMessagesApi } from '../support/mockMessagesApi';
import { LaunchedWorkbench, UI_TIMEOUT, again, focusView, runCommand, screenshot } from './support';
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
});
