// A long session keeps its state through compaction (issue 23), in the real workbench against the
// scripted Messages API: past the save threshold the chat shows the save request as a chip,
// Claude's entry lands in progress.md, the API compacts, and the chat says "Context compacted —
// … → … tokens; progress and checklist reloaded from memory"; the request that resumes carries
// the compaction block and the reloaded progress tail.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator } from 'playwright-core';
import type { MockMessagesApi } from '../support/mockMessagesApi';
import { LaunchedWorkbench, UI_TIMEOUT, again, runCommand, screenshot, screenshotsDir, sendFromComposer } from './support';
import { chatSuite } from './support/chatSuite';

const FEATURES = [
  { id: 'F001', category: 'functional', description: 'add a todo', steps: ['Run npm test'], passes: true },
  { id: 'F002', category: 'functional', description: 'list todos', steps: ['Run npm test'], passes: false },
];
const PROGRESS = '# Progress\n\n## 2026-11-29\n- F001 add a todo: verified with npm test.\n';

suite('compaction keeps the session state (e2e)', function () {
  let wb: LaunchedWorkbench;
  let mock: MockMessagesApi;
  let chat: FrameLocator;
  let memory: string;

  chatSuite(
    {
      kind: 'compaction',
      settings: {
        // The smallest trigger the API takes, and a save threshold every prompt passes, so the
        // short scripted session shows the save request before the compaction.
        'claudeMemory.compactionTrigger': 50000,
        'claudeMemory.compactionSavePercent': 1,
      },
      turns: [
        { content: [{ type: 'text', text: 'Looking at the log.' }, { type: 'tool_use', name: 'memory', input: { command: 'view', path: '/memories/progress.md' } }] },
        // The answer to the save request.
        { content: [{ type: 'tool_use', name: 'memory', input: { command: 'insert', path: '/memories/progress.md', insert_line: 4, insert_text: '- F002 list todos: half done, next: sort by date.' } }] },
        // The API compacts (a pause that holds only the block).
        { content: [{ type: 'compaction', content: 'Summary: the user asked to finish F002 (list todos); sorting by date is next; npm test verifies.' }] },
        { content: [{ type: 'text', text: 'Back on F002: sorting by date next.' }] },
      ],
      memory: { 'features.json': JSON.stringify(FEATURES, null, 2) + '\n', 'progress.md': PROGRESS },
    },
    (s) => ({ wb, mock, chat, memory } = s),
  );

  test('the save request is a chip, the entry lands, and the chat says the context was compacted and reloaded', async function () {
    const page = wb.page;
    await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
    await sendFromComposer(chat, 'Keep going on F002.');

    await chat.locator('text=Back on F002: sorting by date next.').first().waitFor({ state: 'visible', timeout: 30_000 });
    const chip = chat.locator('.prompt-chip', { hasText: 'Save state to memory' }).first();
    await chip.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    const line = chat.locator('.entry.notice', { hasText: 'Context compacted' }).first();
    await line.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.match((await line.textContent()) ?? '', /^Context compacted — \d+(k)? → \d+ tokens; progress and checklist reloaded from memory$/);

    assert.match(fs.readFileSync(path.join(memory, 'progress.md'), 'utf8'), /F002 list todos: half done/);
    // The request after the pause: the compaction block, then the reloaded state.
    const last = mock.requests[mock.requests.length - 1].body as { messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> };
    const [pause, resume] = last.messages.slice(-2);
    assert.strictEqual(pause.content[0].type, 'compaction');
    assert.match(resume.content[0].text ?? '', /F002 list todos: half done/);
    assert.match(resume.content[0].text ?? '', /1 \/ 2 features passing\. Next failing: F002/);
    // The usage line's hover says what went to compaction.
    const usage = chat.locator('.entry.usage').last();
    assert.match((await usage.getAttribute('title')) ?? '', /Of which compaction/);

    await line.scrollIntoViewIfNeeded();
    await screenshot(page, 'compaction-reloaded-light');
    fs.mkdirSync(screenshotsDir, { recursive: true });
    await page.locator('.part.sidebar').screenshot({ path: path.join(screenshotsDir, 'compaction-reloaded-chat-light.png') });
  });
});
