// "What changed, at a glance" (issue 19) in the real workbench, against the scripted Messages
// API: an answer edits a file with the editor tool, creates one and deletes one with bash, writes
// a memory file and ticks a feature; the summary above the composer says "3 files changed ·
// 2 memory files · 1 feature" with each file's +/− lines. Undo of one file brings its bytes back
// (checked on disk), Keep clears a row, the window reloads and the summary comes back as it was
// (kept and undone remembered), Undo All brings back the rest, files and memory; Claude is told
// with the next message.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator } from 'playwright-core';
import type { MockMessagesApi } from '../support/mockMessagesApi';
import { LaunchedWorkbench, UI_TIMEOUT, again, focusView, runCommand, screenshot, screenshotsDir, sendFromComposer, switchTheme, until, untilAnsweredAllowingOnce, untilChat, waitForWorkbench, webviewFrame } from './support';
import { chatSuite } from './support/chatSuite';

const FEATURES = JSON.stringify([{ id: 'F001', category: 'core', description: 'List todos', steps: ['run npm test'], passes: false }], null, 2) + '\n';

suite('change summary above the composer (e2e)', function () {
  let wb: LaunchedWorkbench;
  let mock: MockMessagesApi;
  let chat: FrameLocator;
  let ws: string;

  chatSuite({ kind: 'summary', settings: { 'claudeMemory.commands.allow': ['printf', 'rm'] }, reloads: true }, (s) => {
    ({ wb, mock, chat } = s);
    ws = s.workspace;
  });

  test('the summary counts files, memory and features; Undo restores a file byte for byte, Keep clears a row, a reload keeps both, Undo All restores the rest', async function () {
    const { page } = wb;
    const memory = path.join(ws, '.claude-memories');
    fs.mkdirSync(memory, { recursive: true });
    fs.writeFileSync(path.join(memory, 'features.json'), FEATURES);
    fs.writeFileSync(path.join(ws, 'src', 'old.js'), '// old helper\r\nmodule.exports = {};\r\n');
    const todoPath = path.join(ws, 'src', 'todo.js');
    const todoBefore = fs.readFileSync(todoPath);
    const firstLine = todoBefore.toString('utf8').split('\n')[0];
    const oldBefore = fs.readFileSync(path.join(ws, 'src', 'old.js'));

    mock.script([
      { content: [{ type: 'tool_use', name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'src/todo.js', old_str: firstLine, new_str: '// the todo list, rewritten\n// by Claude' } }] },
      { content: [{ type: 'tool_use', name: 'bash', input: { command: "printf 'module.exports = 42;\\n' > src/generated.js" } }] },
      { content: [{ type: 'tool_use', name: 'bash', input: { command: 'rm src/old.js' } }] },
      { content: [{ type: 'tool_use', input: { command: 'create', path: '/memories/progress.md', file_text: '- rewrote todo.js, generated.js, removed old.js\n' } }] },
      { content: [{ type: 'tool_use', input: { command: 'str_replace', path: '/memories/features.json', old_str: '"passes": false', new_str: '"passes": true' } }] },
      { content: [{ type: 'text', text: 'F001 works now.' }] },
    ]);
    await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
    await sendFromComposer(chat, 'Make F001 pass.');
    // A command that writes through a redirection asks on its card: allowed once, as a user would.
    const answer = chat.locator('.entry.assistant', { hasText: 'F001 works now.' });
    await untilAnsweredAllowingOnce(chat, answer, 6);

    const summary = chat.locator('.change-summary');
    await untilChat(chat, summary.locator('.cs-title', { hasText: '3 files changed · 2 memory files · 1 feature' }), 'the summary\'s counts', { timeout: 30_000 });
    const row = (p: string) => summary.locator(`.cs-row[data-path="${p}"]`);
    assert.deepStrictEqual(await summary.locator('.cs-row').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-kind')}:${e.getAttribute('data-path')}`)), [
      'file:src/generated.js',
      'file:src/old.js',
      'file:src/todo.js',
      'memory:features.json',
      'memory:progress.md',
    ]);
    assert.strictEqual((await row('src/todo.js').locator('.cs-size').textContent())?.replace(/\s+/g, ''), '+2−1');
    assert.strictEqual((await row('src/generated.js').locator('.cs-size').textContent())?.replace(/\s+/g, ''), '+1−0');
    assert.match((await row('features.json').locator('.cs-note').textContent()) ?? '', /F001 now passes/);
    // Every button has a name.
    for (const name of await summary.locator('button').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))) assert.ok(name.trim() !== '', 'a button without a name');

    // At 300 px, light, dark and High Contrast.
    const sidebar = page.locator('.part.sidebar');
    const box = (await sidebar.boundingBox())!;
    if (Math.abs(box.width - 300) > 4) {
      await page.mouse.move(box.x + box.width, box.y + 200);
      await page.mouse.down();
      await page.mouse.move(box.x + 300, box.y + 200, { steps: 5 });
      await page.mouse.up();
    }
    const nameCut = await row('src/generated.js').locator('.cs-file').evaluate((el) => el.scrollWidth > el.clientWidth + 1);
    assert.strictEqual(nameCut, false, 'the file name is whole at 300 px');
    await screenshot(page, 'change-summary-page-light');
    // The summary and the composer under it, as the README shows them.
    await chat.locator('footer.composer').screenshot({ path: path.join(screenshotsDir, 'change-summary.png') });
    await page.screenshot({ path: path.join(screenshotsDir, 'change-summary-300-light-crop.png'), clip: (await sidebar.boundingBox())! });
    for (const [theme, name, kind] of [['Dark Modern', 'dark', 'vscode-dark'], ['Dark High Contrast', 'hc', 'vscode-high-contrast']] as const) {
      await again(() => switchTheme(page, theme));
      await chat.locator(`body.${kind}`).waitFor({ timeout: UI_TIMEOUT });
      await page.screenshot({ path: path.join(screenshotsDir, `change-summary-300-${name}-crop.png`), clip: (await sidebar.boundingBox())! });
    }
    await again(() => switchTheme(page, 'Light Modern'));
    await chat.locator('body.vscode-light').waitFor({ timeout: UI_TIMEOUT });

    // Undo one file: its bytes come back; the other files stay as the answer left them.
    await row('src/todo.js').locator('[data-action="summary-undo"]').click();
    await untilChat(chat, summary.locator('.cs-title', { hasText: '2 files changed · 2 memory files · 1 feature' }), 'the summary after Undo', { timeout: 30_000 });
    assert.deepStrictEqual(fs.readFileSync(todoPath), todoBefore, 'todo.js byte for byte as before the message');
    // The edit card of todo.js says so too, as after its own Undo (no Undo left on it).
    const todoCard = chat.locator('.entry.tool', { has: chat.locator('.tool-edit') }).filter({ hasText: 'todo.js' }).first();
    await untilChat(chat, todoCard.locator('.edit-undone'), 'the todo.js card marked undone', { timeout: 30_000 });
    assert.strictEqual(await todoCard.locator('[data-action="undo"]').count(), 0, 'the card offers no Undo any more');
    assert.ok(fs.existsSync(path.join(ws, 'src', 'generated.js')));
    // Keep clears a row and changes nothing on disk.
    await row('src/generated.js').locator('[data-action="summary-keep"]').click();
    await untilChat(chat, summary.locator('.cs-title', { hasText: '1 file changed · 2 memory files · 1 feature' }), 'the summary after Keep');
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src', 'generated.js'), 'utf8'), 'module.exports = 42;\n');
    assert.strictEqual((await summary.locator('.cs-reviewed').textContent())?.trim(), '1 kept · 1 undone');
    const rowsBefore = await summary.locator('.cs-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));

    // The window reloads: the summary comes back from the saved chat, Keep and Undo included.
    await page.reload();
    await waitForWorkbench(page);
    await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
    chat = webviewFrame(page);
    const again2 = chat.locator('.change-summary');
    await untilChat(chat, again2.locator('.cs-title', { hasText: '1 file changed · 2 memory files · 1 feature' }), 'the summary after the reload', { timeout: UI_TIMEOUT });
    assert.deepStrictEqual(await again2.locator('.cs-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-path'))), rowsBefore);
    assert.strictEqual((await again2.locator('.cs-reviewed').textContent())?.trim(), '1 kept · 1 undone');
    await untilChat(chat, chat.locator('.entry.tool', { has: chat.locator('.edit-undone') }).filter({ hasText: 'todo.js' }).first(), 'the todo.js card still undone after the reload', { timeout: UI_TIMEOUT });

    // Undo All: the deleted file comes back, the memory file goes, the checklist is as it was.
    await again2.locator('[data-action="cs-undo-all"]').click();
    await untilChat(chat, again2.locator('.cs-title', { hasText: 'All changes reviewed' }), 'the summary after Undo All', { timeout: 30_000 });
    assert.deepStrictEqual(fs.readFileSync(path.join(ws, 'src', 'old.js')), oldBefore, 'old.js back byte for byte');
    assert.ok(!fs.existsSync(path.join(memory, 'progress.md')), 'the memory file Claude created went');
    assert.strictEqual(fs.readFileSync(path.join(memory, 'features.json'), 'utf8'), FEATURES, 'the feature flip is undone');
    assert.strictEqual((await again2.locator('.cs-reviewed').textContent())?.trim(), '1 kept · 4 undone');
    await screenshot(page, 'change-summary-reviewed-light');

    // Claude is told with the next message.
    mock.script([{ content: [{ type: 'text', text: 'Understood.' }] }]);
    await sendFromComposer(chat, 'What now?');
    await untilChat(chat, chat.locator('.entry.assistant', { hasText: 'Understood.' }), 'the next answer', { timeout: 30_000 });
    const last = mock.requests.at(-1)?.body.messages as Array<{ role: string; content: Array<{ type: string; text?: string }> | string }>;
    const sent = JSON.stringify(last.at(-1)?.content);
    assert.match(sent, /the user undid these changes with the chat's change summary/);
    assert.match(sent, /src\/todo\.js: back to its content before the change/);
    assert.match(sent, /src\/old\.js: deleted since, brought back/);
  });

  test('one review state per file: Keep of a memory file reviews its Memory Changes rows, its Undo marks the card; a created file counts alike on card and summary; ignored files are named', async function () {
    const { page } = wb;
    chat = webviewFrame(page);
    const memory = path.join(ws, '.claude-memories');
    fs.writeFileSync(path.join(memory, 'features.json'), FEATURES);
    fs.writeFileSync(path.join(ws, '.gitignore'), 'node_modules/\ntodos.json\n');
    const eight = Array.from({ length: 8 }, (_, i) => `test('rm ${i + 1}', () => {});`).join('\n') + '\n';
    mock.script([
      { content: [{ type: 'tool_use', name: 'str_replace_based_edit_tool', input: { command: 'create', path: 'test/rm.test.js', file_text: eight } }] },
      { content: [{ type: 'tool_use', name: 'bash', input: { command: "printf '[{\"id\":1}]\\n' > todos.json" } }] },
      { content: [{ type: 'tool_use', input: { command: 'create', path: '/memories/progress.md', file_text: '## Session\n- added rm tests\n- todos.json has one todo\n' } }] },
      { content: [{ type: 'tool_use', input: { command: 'str_replace', path: '/memories/features.json', old_str: '"passes": false', new_str: '"passes": true' } }] },
      { content: [{ type: 'text', text: 'rm is tested.' }] },
    ]);
    await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
    await sendFromComposer(chat, 'Test the rm command.');
    const answer = chat.locator('.entry.assistant', { hasText: 'rm is tested.' });
    await untilAnsweredAllowingOnce(chat, answer, 6);
    assert.ok(fs.existsSync(path.join(ws, 'todos.json')), 'the command wrote the ignored file');

    // A created 8-line file is +8 on its card and in the summary.
    const summary = chat.locator('.change-summary');
    const row = (p: string) => summary.locator(`.cs-row[data-path="${p}"]`);
    await untilChat(chat, row('test/rm.test.js'), 'the created file\'s row', { timeout: 30_000 });
    const card = chat.locator('.entry.tool', { hasText: 'rm.test.js' }).first();
    assert.strictEqual((await card.locator('.edit-size').textContent())?.trim(), '+8 −0');
    assert.strictEqual((await row('test/rm.test.js').locator('.cs-size').textContent())?.replace(/\s+/g, ''), '+8−0');
    // What checkpoints do not cover is said under the summary.
    const notCovered = summary.locator('.cs-not-covered');
    await untilChat(chat, notCovered, 'the line about ignored files', { timeout: 30_000 });
    assert.match((await notCovered.textContent()) ?? '', /Not covered by checkpoints \(ignored by \.gitignore\), so Undo and Rewind leave it: todos\.json/);
    const sidebar = page.locator('.part.sidebar');
    await page.screenshot({ path: path.join(screenshotsDir, 'change-summary-not-covered-300-light-crop.png'), clip: (await sidebar.boundingBox())! });
    for (const [theme, name, kind] of [['Dark Modern', 'dark', 'vscode-dark'], ['Dark High Contrast', 'hc', 'vscode-high-contrast']] as const) {
      await again(() => switchTheme(page, theme));
      await chat.locator(`body.${kind}`).waitFor({ timeout: UI_TIMEOUT });
      await page.screenshot({ path: path.join(screenshotsDir, `change-summary-not-covered-300-${name}-crop.png`), clip: (await sidebar.boundingBox())! });
    }
    await again(() => switchTheme(page, 'Light Modern'));
    await chat.locator('body.vscode-light').waitFor({ timeout: UI_TIMEOUT });

    // Keep progress.md here: its row in Memory Changes is reviewed (no ●); features.json's is not yet.
    await row('progress.md').locator('[data-action="summary-keep"]').click();
    await untilChat(chat, summary.locator('.cs-reviewed', { hasText: '1 kept' }), 'the Keep');
    const feed = await again(() => focusView(page, 'Memory Changes', UI_TIMEOUT));
    // A row to review has "●" before its description; a reviewed one has not.
    const reviewedLater = (label: string, unseen: boolean): Promise<void> => {
      const row = feed.locator('.monaco-list-row', { hasText: label }).first();
      const state = row.locator('.label-description', unseen ? { hasText: '●' } : { hasNotText: '●' });
      return until(state, `${label} ${unseen ? 'to review' : 'reviewed'} in Memory Changes`, async () => (await feed.innerText()) ?? '');
    };
    await reviewedLater('progress.md', false);
    await reviewedLater('features.json', true);
    await screenshot(page, 'change-feed-after-summary-keep-light');
    await page.screenshot({ path: path.join(screenshotsDir, 'change-feed-after-summary-keep-300-light-crop.png'), clip: (await sidebar.boundingBox())! });

    // Undo features.json here: its memory card says Undone, and its Memory Changes row is reviewed too.
    await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
    chat = webviewFrame(page);
    await chat.locator('.change-summary .cs-row[data-path="features.json"] [data-action="summary-undo"]').click();
    const featuresCard = chat.locator('.entry.tool', { has: chat.locator('.tool-history') }).filter({ hasText: 'features.json' }).last();
    await untilChat(chat, featuresCard.locator('.edit-undone'), 'the features.json card marked undone', { timeout: 30_000 });
    assert.strictEqual(fs.readFileSync(path.join(memory, 'features.json'), 'utf8'), FEATURES);
    await screenshot(page, 'change-summary-memory-undone-light');
    await again(() => focusView(page, 'Memory Changes', UI_TIMEOUT));
    await reviewedLater('features.json', false);
  });
});
