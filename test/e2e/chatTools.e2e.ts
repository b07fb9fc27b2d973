// The chat's workspace tools as a person uses them (issue 8), in the real workbench against the
// scripted Messages API: a command waits for Allow on its card and its output shows there; an
// edit's card opens VS Code's diff and undoes the edit; with `claudeMemory.edits: ask` the diff
// comes first and Reject reaches Claude as an error; the same conversation in an editor panel;
// Ask About Selection puts the selection in the input.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator } from 'playwright-core';
import type { MockMessagesApi } from '../support/mockMessagesApi';
import {
  LaunchedWorkbench, UI_TIMEOUT, activityBarItem, again, chooseContextMenuItem, focusView, notifications, runCommand, screenshot, screenshotsDir, setSideBarWidth, switchTheme, treeRow, sendFromComposer, until, untilChat, webviewFrame,
} from './support';
import { chatSuite } from './support/chatSuite';
import { shootSideBarDarkAndHc } from './support/themes';

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

  // Each test scripts its own turns (mock.script).
  chatSuite({ kind: 'chattools', settings: { 'claudeMemory.edits': 'ask' } }, (s) => {
    ({ wb, mock, chat } = s);
    todoFile = path.join(s.workspace, 'src', 'todo.js');
  });

  /** The chat's cards as they are now, in dark and High Contrast too (the light shot is the caller's). */
  const shootDarkAndHc = (name: string): Promise<void> => shootSideBarDarkAndHc(wb.page, chat, name);

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
    await shootDarkAndHc('chat-tools-approval');

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
    await shootDarkAndHc('chat-tools-edit-ask');
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
    await shootDarkAndHc('chat-tools-cards');

    await edit.locator('[data-action="open-diff"]').click();
    await page.locator('.tabs-container .tab', { hasText: "src/todo.js: before ↔ after Claude's edit" }).first().waitFor({ timeout: 15_000 });
    // Both sides show the file: the removed line on the left, Claude's on the right.
    const diff = page.locator('.monaco-diff-editor').first();
    await diff.locator('.editor.original .view-line', { hasText: OLD }).first().waitFor({ timeout: 15_000 });
    await diff.locator('.editor.modified .view-line', { hasText: NEW }).first().waitFor({ timeout: 15_000 });
    await screenshot(page, 'chat-tools-diff-light');

    // Undo asks first, in a modal naming the file. With the smoke-test driver on, VS Code's
    // DialogService refuses every dialog, which is a "no": nothing is undone behind the user's
    // back. (The integration test chatCards.test.ts answers the modal both ways.)
    await edit.locator('[data-action="undo"]').click();
    const answered = () => wb.server.extensionHostLog().includes('undo of src/todo.js from its chat card: not confirmed');
    for (let i = 0; i < 150 && !answered(); i++) await page.waitForTimeout(100);
    assert.ok(answered(), `Undo asked first; the log ends: ${wb.server.extensionHostLog().split('\n').slice(-5).join(' / ')}`);
    assert.strictEqual(fs.readFileSync(todoFile, 'utf8').split('\n')[2], NEW, 'no Undo without the user\'s yes');
    assert.strictEqual(await edit.locator('.edit-undone').count(), 0);
    // Put the file back for the next tests.
    fs.writeFileSync(todoFile, fs.readFileSync(todoFile, 'utf8').replace(NEW, OLD));
  });

  test('Reject (here from the diff\'s title bar, where Accept shows too) reaches Claude as an error and writes nothing', async function () {
    mock.script([
      { content: [{ type: 'tool_use', name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'src/todo.js', old_str: OLD, new_str: 'let todos = [];' } }] },
      { content: [{ type: 'text', text: 'Understood, I left todo.js alone.' }] },
    ]);
    // The chat is on screen from the test before: a click in the composer, no palette (VS Code
    // gives the keyboard back to the editor a moment after the palette closes, under the typing).
    await sendFromComposer(chat, 'Make the list a let.');
    const card = chat.locator('.entry.tool:has(.approval-pending [data-action="accept"])');
    await card.waitFor({ timeout: 30_000 });
    // Open Diff from the waiting card: the diff's title bar offers Accept and Reject, the card's answers.
    await card.locator('[data-action="open-diff"]').click();
    const page = wb.page;
    const titleBar = page.locator('.editor-group-container.active .title .editor-actions');
    const accept = titleBar.locator('[aria-label^="Accept Claude\'s Edit"]');
    const reject = titleBar.locator('[aria-label^="Reject Claude\'s Edit"]');
    await until(reject, 'Reject in the diff\'s title bar', async () => (await titleBar.innerHTML().catch(() => '')).slice(0, 2000), { timeout: 15_000 });
    assert.ok(await accept.isVisible(), 'Accept is in the title bar too');
    await screenshot(page, 'chat-tools-ask-diff-accept-reject-light');
    await reject.click();
    await chat.locator('.entry.tool .approval-deny', { hasText: 'Rejected' }).waitFor({ timeout: 10_000 });
    // Answered: the diff closed and its buttons went with it.
    await until(reject, 'the diff closed, its buttons gone', async () => (await page.locator('.tabs-container').innerText()) ?? '', { state: 'detached', timeout: 10_000 });
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

  test('a failing and a passing command side by side: ✗ "exit 1" with the end of the output, and ✓; file cards name the file first at 300 px and open it', async function () {
    const { page } = wb;
    const folder = wb.server.workspaceFolders[0];
    // Tests that fail two of three, as in a real project: node --test prints "# fail 2" last.
    const testFile = path.join(folder, 'test', 'todo.test.js');
    fs.mkdirSync(path.dirname(testFile), { recursive: true });
    fs.writeFileSync(
      testFile,
      "const test = require('node:test');\nconst assert = require('node:assert');\n" +
        "test('add appends a todo', () => assert.ok(true));\n" +
        "test('complete marks a todo done', () => assert.strictEqual(1, 2));\n" +
        "test('remove drops a todo', () => assert.strictEqual('a', 'b'));\n",
    );
    try {
      mock.script([
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'npm test' } }] },
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'ls src' } }] },
        { content: [{ type: 'tool_use', name: 'str_replace_based_edit_tool', input: { command: 'view', path: `${folder}/src/todo.js`, view_range: [1, 3] } }] },
        { content: [{ type: 'text', text: 'Two tests fail; src has todo.js.' }] },
      ]);
      await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
      await sendFromComposer(chat, 'Run the tests, list src, read the top of todo.js.');
      const failing = chat.locator('.entry.tool').filter({ has: chat.locator('.tool-shell', { hasText: /^npm test$/ }) }).last();
      await untilChat(chat, failing.locator('.approval-pending [data-action="allow-once"]'), 'the npm test card asking');
      await failing.locator('[data-action="allow-once"]').click();
      await untilChat(chat, failing.locator('.tool-exit'), 'the failed command\'s exit code in its header', { timeout: 60_000 });
      assert.strictEqual((await failing.locator('.tool-exit').textContent())?.trim(), 'exit 1');
      assert.strictEqual(await failing.locator('.status-error').count(), 1, 'a red ✗, not a ✓');
      assert.strictEqual(await failing.locator('.status-ok').count(), 0);
      assert.match((await failing.getAttribute('aria-label')) ?? '', /failed, exit 1$/);

      const passing = chat.locator('.entry.tool').filter({ has: chat.locator('.tool-shell', { hasText: /^ls src$/ }) }).last();
      // `ls` is read-only and runs without asking; should a rule ask anyway, it is allowed once.
      const passingAsk = passing.locator('[data-action="allow-once"]');
      await untilChat(chat, passing.locator('.status-ok').or(passingAsk).first(), 'the passing command run or asking');
      if (await passingAsk.isVisible()) await passingAsk.click();
      await untilChat(chat, passing.locator('.status-ok'), 'the passing command\'s ✓');
      assert.strictEqual(await passing.locator('.tool-exit').count(), 0, 'exit 0 needs no words');

      // The output box shows its end: the "# fail 2" summary is inside the visible box.
      const box = failing.locator('.tool-output');
      const shown = await box.evaluate((el) => {
        const pre = el.querySelector('.tool-output-text');
        const text = pre?.firstChild;
        const at = text?.textContent?.lastIndexOf('# fail 2') ?? -1;
        if (!text || at < 0) return { found: false, overflows: false, visible: false };
        const range = el.ownerDocument.createRange();
        range.setStart(text, at);
        range.setEnd(text, at + '# fail 2'.length);
        const line = range.getBoundingClientRect();
        const frame = el.getBoundingClientRect();
        return { found: true, overflows: el.scrollHeight > el.clientHeight + 4, visible: line.top >= frame.top - 1 && line.bottom <= frame.bottom + 1 };
      });
      assert.deepStrictEqual(shown, { found: true, overflows: true, visible: true }, 'a long output shows its end, the summary, without scrolling');
      const showAll = failing.locator('[data-action="output-all"]');
      assert.match((await showAll.textContent()) ?? '', /Show all \(\d+ lines\)/);

      const file = chat.locator('.entry.tool:has([data-action="open-file"])').last();
      await untilChat(chat, file.locator('.status-ok'), 'the view card done');
      await chat.locator('.entry.assistant', { hasText: 'Two tests fail' }).waitFor({ timeout: 30_000 });
      assert.strictEqual((await file.locator('.file-name').textContent())?.trim(), 'todo.js:1–3', 'the name first, with the lines read');
      assert.strictEqual((await file.locator('.file-folder').textContent())?.trim(), 'src/');
      assert.ok(!((await file.textContent()) ?? '').includes(folder), 'no absolute path on the card');

      // At 300 px the name stays whole; the folder is what gets cut.
      const sidebar = page.locator('.part.sidebar');
      await setSideBarWidth(page, 300);
      const narrow = (await sidebar.boundingBox())?.width ?? 0;
      const nameCut = await file.locator('.file-name').evaluate((el) => el.scrollWidth > el.clientWidth + 1);
      assert.strictEqual(nameCut, false, `the name is whole in a ${Math.round(narrow)} px side bar`);
      await failing.scrollIntoViewIfNeeded();
      await screenshot(page, 'chat-tools-fail-pass-300-light');
      const bar = (await sidebar.boundingBox())!;
      await page.screenshot({ path: path.join(screenshotsDir, 'chat-tools-cards-300-light-crop.png'), clip: bar });

      // The link opens the file at the lines read (selected): lines 1–3 of todo.js.
      await again(() => runCommand(page, 'View: Close All Editors', UI_TIMEOUT));
      await file.locator('[data-action="open-file"]').click();
      await page.locator('.tabs-container .tab', { hasText: 'todo.js' }).first().waitFor({ timeout: 15_000 });
      const selected = page.locator('.editor-instance .monaco-editor .selected-text').first();
      await until(selected, 'lines 1–3 selected in todo.js', async () => (await page.locator('.editor-instance').first().textContent())?.slice(0, 200) ?? '', { timeout: 15_000 });

      for (const [theme, name, kind] of [['Dark Modern', 'dark', 'vscode-dark'], ['Dark High Contrast', 'hc', 'vscode-high-contrast']] as const) {
        await again(() => switchTheme(page, theme));
        // The webview takes the theme a moment after the workbench.
        await chat.locator(`body.${kind}`).waitFor({ timeout: UI_TIMEOUT });
        await failing.scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(screenshotsDir, `chat-tools-cards-300-${name}-crop.png`), clip: (await sidebar.boundingBox())! });
      }
      await again(() => switchTheme(page, 'Light Modern'));
      await chat.locator('body.vscode-light').waitFor({ timeout: UI_TIMEOUT });

      await showAll.click();
      assert.ok(await box.evaluate((el) => el.classList.contains('tool-output-all') && el.scrollHeight <= el.clientHeight + 1), 'Show all shows all of it');
    } finally {
      fs.rmSync(path.join(folder, 'test'), { recursive: true, force: true });
    }
  });

  test('in the sandbox, git add -A && git commit commits the user\'s files only: git status --porcelain and ls -A show no placeholder entry (issue 32)', async function () {
    const { page } = wb;
    const folder = wb.server.workspaceFolders[0];
    const git = (...args: string[]) => execFileSync('git', args, { cwd: folder, encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    git('config', 'user.name', 'Resume Session');
    git('config', 'user.email', 'resume@example.com');
    git('add', '-A');
    git('commit', '-qm', 'the project');
    try {
      mock.script([
        {
          content: [
            { type: 'text', text: 'F001 passes: recording it and committing.' },
            { type: 'tool_use', name: 'bash', input: { command: 'echo "- F001 done" > notes.md; git status --porcelain --untracked-files=all; echo ---; ls -A; echo ---; git add -A && git commit -qm "Resume: F001" && echo COMMITTED' } },
          ],
        },
        { content: [{ type: 'text', text: 'Committed.' }] },
      ]);
      await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
      await sendFromComposer(chat, 'Record F001 and commit.');
      const card = chat.locator('.entry.tool').filter({ has: chat.locator('.tool-shell', { hasText: /git add -A/ }) }).last();
      await untilChat(chat, card.locator('.approval-pending [data-action="allow-once"]'), 'the commit command asking');
      await card.locator('[data-action="allow-once"]').click();
      await untilChat(chat, card.locator('.status-ok'), 'the commit command\'s ✓', { timeout: 60_000 });
      await chat.locator('.entry.assistant', { hasText: 'Committed.' }).waitFor({ timeout: 30_000 });
      const results = (mock.requests[1].body.messages as Array<{ content: ToolResultBlock[] | string }>).at(-1)?.content as ToolResultBlock[];
      const [status, listing, end] = String(results[0].content).split('---\n');
      // What the command saw is exactly what is on disk: the new file, no phantom .bashrc, .vscode, .husky, ...
      assert.strictEqual(status, '?? notes.md\n');
      assert.deepStrictEqual(listing.trim().split('\n').sort(), fs.readdirSync(folder).sort());
      assert.match(end, /^COMMITTED/);
      assert.strictEqual(git('log', '-1', '--format=%s').trim(), 'Resume: F001');
      assert.strictEqual(git('show', '--name-only', '--format=', 'HEAD').trim(), 'notes.md');
      assert.strictEqual(git('status', '--porcelain'), '');
      await card.locator('[data-action="output-all"]').click().catch(() => undefined);
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, 'chat-sandbox-git-commit-light');
    } finally {
      fs.rmSync(path.join(folder, '.git'), { recursive: true, force: true });
      fs.rmSync(path.join(folder, 'notes.md'), { force: true });
    }
  });
});
