// Chats survive a window reload (issue 11), in the real workbench against the scripted Messages
// API: a scripted chat reads memory and answers; the page reloads (a new extension host); the
// transcript with its memory cards, the "Read 3 memory files" note and the usage line is back, and
// the next message goes out with the earlier conversation. Chat History (view title bar, palette)
// lists the chats: Enter reopens one in place of the current, the trash button deletes one.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator, Page } from 'playwright-core';
import type { MockMessagesApi } from '../support/mockMessagesApi';
import { LaunchedWorkbench, UI_TIMEOUT, again, runCommand, screenshot, waitForWorkbench, sendFromComposer, webviewFrame } from './support';
import { chatSuite } from './support/chatSuite';

const FIRST = 'Where were we on this project?';
const SECOND = 'What comes next?';
const OTHER = 'A second chat about something else';
const view = (path: string) => ({ type: 'tool_use' as const, name: 'memory', input: { command: 'view', path } });
const quickRow = '.quick-input-widget .quick-input-list .monaco-list-row';

type Sent = { messages: Array<{ role: string; content: Array<{ type: string; text?: string; tool_use_id?: string; id?: string }> }> };

/**
 * The chat the extension's workspace storage names as current (what a reload restores), as
 * text (its head file and its chunks), once both its head and the index that points to it are written.
 */
function storedCurrentChat(userData: string): string | undefined {
  const root = path.join(userData, 'User', 'workspaceStorage');
  if (!fs.existsSync(root)) return undefined;
  for (const ws of fs.readdirSync(root)) {
    const chats = path.join(root, ws, 'claude-workspace-memory.claude-workspace-memory', 'chats');
    const index = path.join(chats, 'index.json');
    if (!fs.existsSync(index)) continue;
    const current = (JSON.parse(fs.readFileSync(index, 'utf8')) as { current?: string }).current;
    const file = current ? path.join(chats, `${current}.json`) : undefined;
    // The head, then its chunks of rows and history (ChatArchive stores a chat in pieces).
    if (file && fs.existsSync(file)) {
      const parts = fs.readdirSync(chats).filter((f) => f.startsWith(`${current}.`) && /\.[rh]\d+(-\d+)?\.json$/.test(f)).sort();
      return [fs.readFileSync(file, 'utf8'), ...parts.map((f) => fs.readFileSync(path.join(chats, f), 'utf8'))].join('\n');
    }
  }
  return undefined;
}


suite('chat history survives a window reload (e2e)', function () {
  let wb: LaunchedWorkbench;
  let mock: MockMessagesApi;
  let chat: FrameLocator;

  // Each test scripts its own turns (mock.script).
  chatSuite(
    {
      kind: 'chathist',
      reloads: true,
      memory: { 'progress.md': '# Progress\n- F001 done\n', 'startup.md': '# Start-up\nTest: `npm test`\n', 'features.json': '[]\n' },
    },
    (s) => ({ wb, mock, chat } = s),
  );

  const command = (page: Page, title: string) => again(() => runCommand(page, title, UI_TIMEOUT));

  test('after a reload the chat shows the conversation again, and Claude continues it', async function () {
    const { page } = wb;
    mock.script([
      { content: [{ type: 'text', text: 'Reading memory first.' }, view('/memories'), view('/memories/progress.md'), view('/memories/startup.md')] },
      { content: [view('/memories/features.json')] },
      { content: [{ type: 'text', text: 'We were on **F002**: listing todos.' }] },
      { content: [{ type: 'text', text: 'Next is F002, then F003.' }] },
    ]);
    await command(page, 'Claude Memory: Open Chat');
    await sendFromComposer(chat, FIRST);
    await chat.locator('.entry.assistant', { hasText: 'listing todos' }).waitFor({ timeout: 30_000 });
    await chat.locator('.entry.usage').first().waitFor({ timeout: 10_000 });

    const note = chat.locator('.entry.reads');
    assert.strictEqual((await note.locator('.reads-text').textContent())?.trim(), 'Read 3 memory files: progress.md, startup.md, features.json');
    await note.locator('summary').click();
    assert.deepStrictEqual(await note.locator('.reads-list li').allTextContents(), ['/memories/progress.md', '/memories/startup.md', '/memories/features.json']);
    await screenshot(page, 'chat-history-reads-note-light');
    const before = (await chat.locator('.entry').evaluateAll((els) => els.map((e) => `${e.className}|${(e.textContent ?? '').trim()}`))) as string[];

    // The window reloads: a new extension host, the chat view restored from workspace storage.
    await page.reload();
    await waitForWorkbench(page);
    await command(page, 'Claude Memory: Open Chat');
    chat = webviewFrame(page);
    await chat.locator('.entry.assistant', { hasText: 'listing todos' }).waitFor({ timeout: UI_TIMEOUT });
    const after = (await chat.locator('.entry').evaluateAll((els) => els.map((e) => `${e.className}|${(e.textContent ?? '').trim()}`))) as string[];
    assert.deepStrictEqual(after, before, 'the same transcript: messages, memory cards, the note and the usage line');
    assert.strictEqual(await chat.locator('.entry.tool').count(), 4);
    await screenshot(page, 'chat-history-restored-light');

    await sendFromComposer(chat, SECOND);
    await chat.locator('.entry.assistant', { hasText: 'Next is F002' }).waitFor({ timeout: 30_000 });
    const sent = mock.requests.at(-1)?.body as Sent;
    assert.deepStrictEqual(sent.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user'], 'the earlier conversation went with it');
    assert.strictEqual(sent.messages[0].content[0].text, FIRST);
    const calls = sent.messages[1].content.filter((b) => b.type === 'tool_use').map((b) => b.id);
    assert.deepStrictEqual(sent.messages[2].content.map((b) => b.tool_use_id), calls, 'every call has its result');
    assert.strictEqual(sent.messages[6].content.at(-1)?.text, SECOND);
  });

  test('Chat History lists the chats; Enter reopens one, the trash button deletes one', async function () {
    mock.script([{ content: [{ type: 'text', text: 'Hello from the second chat.' }] }]);
    const { page } = wb;
    await command(page, 'Claude Memory: New Chat');
    await chat.locator('#previous #reopen').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await sendFromComposer(chat, OTHER);
    await chat.locator('.entry.assistant', { hasText: 'second chat' }).waitFor({ timeout: 30_000 });

    // The button in the chat view's title bar.
    await page.locator('.pane-header .action-label[aria-label="Chat History"], .title-actions .action-label[aria-label="Chat History"]').first().click();
    const rows = page.locator(quickRow);
    await rows.filter({ hasText: FIRST }).waitFor({ timeout: UI_TIMEOUT });
    assert.strictEqual(await rows.count(), 2);
    assert.match((await rows.filter({ hasText: OTHER }).textContent()) ?? '', /just now · current/);
    await screenshot(page, 'chat-history-quick-pick-light');

    await rows.filter({ hasText: FIRST }).click();
    await chat.locator('.entry.assistant', { hasText: 'Next is F002' }).waitFor({ timeout: UI_TIMEOUT });
    assert.strictEqual(await chat.locator('.entry.user', { hasText: OTHER }).count(), 0, 'the reopened chat replaces the current one');

    await command(page, 'Claude Memory: Chat History');
    const other = rows.filter({ hasText: OTHER });
    await other.waitFor({ timeout: UI_TIMEOUT });
    await other.hover();
    await other.locator('.action-label[aria-label="Delete Chat"]').click();
    await other.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    assert.strictEqual(await rows.count(), 1);
    await page.keyboard.press('Escape');
    // Still the reopened chat on screen.
    await chat.locator('.entry.user', { hasText: FIRST }).waitFor({ timeout: 5_000 });
  });

  test('an answer running when the window reloads comes back stopped: its text kept, its open call answered, and the chat goes on', async function () {
    mock.script([
      { content: [{ type: 'text', text: 'Running the tests first.' }, { type: 'tool_use', name: 'bash', input: { command: 'npm test' } }] },
      { content: [{ type: 'text', text: 'Skipped the tests.' }] },
    ]);
    const { page } = wb;
    await command(page, 'Claude Memory: New Chat');
    await chat.locator('#previous #reopen').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await sendFromComposer(chat, 'Run the tests please');
    await chat.locator('button', { hasText: 'Allow once' }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    // Saved while it waits: the chat file says the answer runs and the card asks.
    const deadline = Date.now() + UI_TIMEOUT;
    for (;;) {
      const saved = storedCurrentChat(wb.server.dirs.userData);
      if (saved?.includes('"running":true') && saved.includes('"state":"pending"') && saved.includes('Run the tests please')) break;
      assert.ok(Date.now() < deadline, 'the running answer was saved');
      await page.waitForTimeout(200);
    }

    await page.reload();
    await waitForWorkbench(page);
    await command(page, 'Claude Memory: Open Chat');
    chat = webviewFrame(page);
    await chat.locator('.entry.notice', { hasText: 'Stopped: the window was reloaded while Claude was answering.' }).waitFor({ timeout: UI_TIMEOUT });
    await chat.locator('.entry.assistant', { hasText: 'Running the tests first.' }).waitFor({ timeout: 5_000 });
    assert.strictEqual(await chat.locator('.entry.tool.tool-error').count(), 1, 'the unanswered call is marked as interrupted');
    assert.strictEqual(await chat.locator('button', { hasText: 'Allow once' }).count(), 0, 'nobody is asked any more');
    await screenshot(page, 'chat-history-interrupted-light');

    await sendFromComposer(chat, 'Skip them, just say hi.');
    await chat.locator('.entry.assistant', { hasText: 'Skipped the tests.' }).waitFor({ timeout: 30_000 });
    const sent = (mock.requests.at(-1)?.body as Sent).messages;
    const call = sent.at(-2)?.content.find((b) => b.type === 'tool_use');
    const answer = sent.at(-1)?.content ?? [];
    assert.ok(call, 'the call is in the history');
    assert.deepStrictEqual(answer.map((b) => b.type), ['tool_result', 'text'], 'its result, then the new message');
    assert.strictEqual(answer[0].tool_use_id, call.id);
    assert.strictEqual(answer[1].text, 'Skip them, just say hi.');
  });
});
