// The chat's workspace tools as a person uses them (issue 8), in the real workbench against the
// scripted Messages API: a command waits for Allow on its card and its output shows there; an
// edit's card opens VS Code's diff and undoes the edit; with `claudeMemory.edits: ask` the diff
// comes first and Reject reaches Claude as an error; the same conversation in an editor panel;
// Ask About Selection puts the selection in the input.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator } from 'playwright-core';
import { startMockMessagesApi, type MockMessagesApi } from '../support/mockMessagesApi';
import {
  LaunchedWorkbench, UI_TIMEOUT, activityBarItem, again, chooseContextMenuItem, focusView, launchWorkbench, notifications, runCommand, screenshot, treeRow,
  sendFromComposer, stopAnswerLeftRunning, until, untilChat, webviewFrame,
} from './support';

const FAKE_KEY = 'sk-ant-e2e-fake-key-000000000000000000';
const OLD = 'const todos = [];';
const NEW = 'const todos = []; // the list of todos';

interface ToolResultBlock {
  type: string;
  tool_use_id?: string;
  is_error?: boolean;
  content?: unknown;
}

suite('chat workspace tools (e2e)', function () {
  let wb: LaunchedWorkbench;
  let mock: MockMessagesApi;
  let chat: FrameLocator;
  let todoFile: string;

  suiteSetup(async function () {
    // Each test scripts its own turns (mock.script), so one that fails cannot shift the next.
    mock = await startMockMessagesApi([]);
    wb = await launchWorkbench({ kind: 'chattools', theme: 'light', settings: { 'claudeMemory.apiBaseUrl': mock.url, 'claudeMemory.edits': 'ask' }, env: { ANTHROPIC_API_KEY: FAKE_KEY } });
    chat = webviewFrame(wb.page);
    todoFile = path.join(wb.server.workspaceFolders[0], 'src', 'todo.js');
  });

  suiteTeardown(async function () {
    await wb?.dispose(this);
    await mock?.close();
  });

  teardown(async function () {
    await stopAnswerLeftRunning(chat);
    mock.script([]);
  });

  test('a command waits for Allow on its card, runs, and shows its output there; an edit\'s card opens the diff and undoes it', async function () {
    mock.script([
      { content: [{ type: 'text', text: 'Let me run the tests first.' }, { type: 'tool_use', name: 'bash', input: { command: 'npm test' } }] },
      { content: [{ type: 'tool_use', name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'src/todo.js', old_str: OLD, new_str: NEW } }] },
      { content: [{ type: 'text', text: 'Tests ran, and I documented the list.' }] },
    ]);
    const { page } = wb;
    await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
    // The user's own message stays visible above the cards.
    await sendFromComposer(chat, 'Run the tests, then document the todo list.');
    const command = chat.locator('.entry.tool:has(.tool-shell)');
    await command.locator('.approval-pending').waitFor({ timeout: 20_000 });
    assert.strictEqual((await command.locator('.approval-command').textContent())?.trim(), 'npm test');
    assert.match((await command.locator('[data-action="allow-always"]').textContent()) ?? '', /Always allow "npm test" here/);
    assert.strictEqual(mock.requests.length, 1, 'Claude waits for the answer');
    await screenshot(page, 'chat-tools-approval-light');

    await command.locator('[data-action="allow-once"]').click();
    await command.locator('.approval-once').waitFor({ timeout: 10_000 });
    // The command really ran: its output is on the card and went back to Claude.
    await command.locator('.tool-output', { hasText: /tests \d+/ }).waitFor({ timeout: 30_000 });
    await command.locator('.status-ok').waitFor({ timeout: 30_000 });

    // edits: ask: the edit's card shows the change first; nothing is written before Accept.
    const asking = chat.locator('.entry.tool:has(.approval-pending [data-action="accept"])');
    await asking.waitFor({ timeout: 30_000 });
    assert.match((await asking.locator('.approval-question').textContent()) ?? '', /Apply this change to src\/todo\.js\? \(\+1 −1 lines\)/);
    assert.strictEqual(fs.readFileSync(todoFile, 'utf8').split('\n')[2], OLD, 'nothing is written before Accept');
    await screenshot(page, 'chat-tools-edit-ask-light');
    await asking.locator('[data-action="accept"]').click();

    const edit = chat.locator('.entry.tool:has(.tool-edit)');
    await edit.waitFor({ timeout: 30_000 });
    await chat.locator('.entry.assistant', { hasText: 'documented the list' }).waitFor({ timeout: 30_000 });
    const results = (mock.requests[1].body.messages as Array<{ content: ToolResultBlock[] | string }>).at(-1)?.content as ToolResultBlock[];
    assert.strictEqual(results[0].is_error, false, 'the command ran');
    assert.match(JSON.stringify(results[0].content), /tests \d+/);
    assert.strictEqual(fs.readFileSync(todoFile, 'utf8').split('\n')[2], NEW, 'the edit is on disk');
    assert.strictEqual((await edit.locator('.edit-size').textContent())?.trim(), '+1 −1');
    await screenshot(page, 'chat-tools-cards-light');

    await edit.locator('[data-action="open-diff"]').click();
    await page.locator('.tabs-container .tab', { hasText: "src/todo.js: before ↔ after Claude's edit" }).first().waitFor({ timeout: 15_000 });
    // Both sides show the file: the removed line on the left, Claude's on the right.
    const diff = page.locator('.monaco-diff-editor').first();
    await diff.locator('.editor.original .view-line', { hasText: OLD }).first().waitFor({ timeout: 15_000 });
    await diff.locator('.editor.modified .view-line', { hasText: NEW }).first().waitFor({ timeout: 15_000 });
    await screenshot(page, 'chat-tools-diff-light');

    await edit.locator('[data-action="undo"]').click();
    await edit.locator('.edit-undone').waitFor({ timeout: 15_000 });
    assert.strictEqual(fs.readFileSync(todoFile, 'utf8').split('\n')[2], OLD, 'Undo restored the file');
  });

  test('Reject on an edit\'s card reaches Claude as an error and writes nothing', async function () {
    mock.script([
      { content: [{ type: 'tool_use', name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'src/todo.js', old_str: OLD, new_str: 'let todos = [];' } }] },
      { content: [{ type: 'text', text: 'Understood, I left todo.js alone.' }] },
    ]);
    // The chat is on screen from the test before: a click in the composer, no palette (VS Code
    // gives the keyboard back to the editor a moment after the palette closes, under the typing).
    await sendFromComposer(chat, 'Make the list a let.');
    const card = chat.locator('.entry.tool:has(.approval-pending [data-action="accept"])');
    await card.waitFor({ timeout: 30_000 });
    await card.locator('[data-action="reject"]').click();
    await chat.locator('.entry.tool .approval-deny', { hasText: 'Rejected' }).waitFor({ timeout: 10_000 });
    await chat.locator('.entry.assistant', { hasText: 'left todo.js alone' }).waitFor({ timeout: 30_000 });
    const results = (mock.requests.at(-1)?.body.messages as Array<{ content: ToolResultBlock[] | string }>).at(-1)?.content as ToolResultBlock[];
    assert.strictEqual(results[0].is_error, true, 'Reject is an error for Claude');
    assert.strictEqual(fs.readFileSync(todoFile, 'utf8').split('\n')[2], OLD);
  });

  test('Open Chat in Editor shows the same conversation; Ask About Selection puts the selection in the input', async function () {
    mock.script([{ content: [{ type: 'text', text: 'Both views show this.' }] }, { content: [{ type: 'text', text: 'That selection adds a todo.' }] }]);
    const { page } = wb;
    await again(() => runCommand(page, 'Claude Memory: Open Chat in Editor', UI_TIMEOUT));
    await page.locator('.tabs-container .tab', { hasText: 'Claude Chat' }).click({ timeout: 15_000 });
    // Two chat pages now: the side bar's and the editor's (the wider one, right of the side bar).
    const frames = page.locator('iframe.webview.ready');
    for (let i = 0; i < 100 && (await frames.count()) < 2; i++) await page.waitForTimeout(100);
    assert.strictEqual(await frames.count(), 2, 'the side bar\'s page and the editor\'s');
    const boxes = await Promise.all([0, 1].map((i) => frames.nth(i).boundingBox()));
    const editorIndex = (boxes[0]?.x ?? 0) > (boxes[1]?.x ?? 0) ? 0 : 1;
    const inEditor = webviewFrame(page, editorIndex);
    const inSideBar = webviewFrame(page, 1 - editorIndex);
    await inEditor.locator('.entry.user', { hasText: 'Run the tests' }).waitFor({ timeout: 20_000 });
    await inEditor.locator('.entry.assistant', { hasText: 'left todo.js alone' }).waitFor({ timeout: 10_000 });
    await screenshot(page, 'chat-tools-in-editor-light');

    // Sent from the editor's page, shown in the side bar's too: one controller, two views.
    await sendFromComposer(inEditor, 'Can both views see this?');
    await inEditor.locator('.entry.assistant', { hasText: 'Both views show this.' }).waitFor({ timeout: 20_000 });
    await inSideBar.locator('.entry.user', { hasText: 'Can both views see this?' }).waitFor({ timeout: 20_000 });
    await inSideBar.locator('.entry.assistant', { hasText: 'Both views show this.' }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'chat-tools-two-views-light');

    // A selection in todo.js (opened from the Explorer), then the editor's context menu entry.
    await again(() => runCommand(page, 'View: Close All Editors', UI_TIMEOUT));
    const explorer = await again(() => focusView(page, 'Explorer', UI_TIMEOUT));
    await treeRow(explorer, 'src').click();
    await treeRow(explorer, 'todo.js').click();
    const editor = page.locator('.editor-instance .monaco-editor .view-lines', { hasText: /function.addTodo/ }).first();
    await editor.waitFor({ timeout: 15_000 });
    const word = editor.locator('.view-line span', { hasText: 'addTodo' }).first();
    await word.click({ clickCount: 3 });
    await chooseContextMenuItem(page, word, 'Ask About Selection');
    const chip = chat.locator('#attachments .chip:not(.current)', { hasText: 'todo.js:5' });
    await chip.waitFor({ timeout: 15_000 });
    await sendFromComposer(chat, 'What does this do?');
    await chat.locator('.entry.assistant', { hasText: 'That selection adds a todo.' }).waitFor({ timeout: 20_000 });
    const sent = JSON.stringify(mock.requests.at(-1)?.body.messages);
    assert.match(sent, /function addTodo\(title\)/, 'the selection went with the message');
  });
  test('a card that waits while the chat is out of sight: a badge on the chat in the activity bar, and a notification whose Open Chat shows the card', async function () {
    mock.script([
      // Long enough for the side bar to switch to the Explorer before the question comes.
      { content: [{ type: 'tool_use', name: 'bash', input: { command: 'npm test' } }], faults: [{ type: 'delay', ms: 8_000 }] },
      { content: [{ type: 'text', text: 'Skipped the tests, as you said.' }] },
    ]);
    const { page } = wb;
    await sendFromComposer(chat, 'Run the tests when you can.');
    await again(() => runCommand(page, 'View: Show Explorer', UI_TIMEOUT));
    const toast = page.locator('.notifications-toasts .notification-list-item', { hasText: 'Claude is waiting for your permission to run "npm test".' });
    await until(toast, 'the notification of the waiting card', async () => JSON.stringify(await notifications(page)), { timeout: 40_000 });
    const badge = activityBarItem(page, 'Claude Chat').locator('xpath=..').locator('.badge .badge-content');
    await badge.waitFor({ timeout: UI_TIMEOUT });
    assert.strictEqual((await badge.textContent())?.trim(), '1');
    await screenshot(page, 'chat-tools-waiting-out-of-sight-light');

    await toast.locator('.monaco-button', { hasText: 'Open Chat' }).click();
    const card = chat.locator('.entry.tool:has(.approval-pending)');
    await untilChat(chat, card, 'the waiting card, after Open Chat');
    await card.locator('[data-action="deny"]').click();
    await untilChat(chat, chat.locator('.entry.assistant', { hasText: 'Skipped the tests, as you said.' }), 'the answer after Deny');
    await badge.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
  });
});
