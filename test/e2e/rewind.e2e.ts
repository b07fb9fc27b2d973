// Checkpoints and "Rewind to here" (issues 19 and 32) in the real workbench, against the scripted
// Messages API: a session edits a file with the editor tool, creates and deletes files with bash,
// changes an ignored folder and writes memory; Rewind to here shows the preview (a quick pick
// listing every file, Cancel first so Enter keeps everything), then brings the files and memory
// back byte for byte, while the user's unrelated untracked file and the ignored folder stay as
// they are. Claude is told next time. A session that commits: the preview names the commit, the
// rewind can move the branch back (the reflog keeps the commit), and Undo Rewind moves it forward.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator } from 'playwright-core';
import type { MockMessagesApi } from '../support/mockMessagesApi';
import { LaunchedWorkbench, UI_TIMEOUT, again, notifications, runCommand, screenshot, screenshotsDir, sendFromComposer, switchTheme, untilAnsweredAllowingOnce, untilChat } from './support';
import { chatSuite } from './support/chatSuite';


/** Every file below `dir` with its bytes (links as their target), the memory folder left out. */
function treeOf(dir: string, skip = '.claude-memories'): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const name of fs.readdirSync(path.join(dir, rel)).sort()) {
      const r = rel === '' ? name : `${rel}/${name}`;
      if (r === skip) continue;
      const st = fs.lstatSync(path.join(dir, r));
      if (st.isSymbolicLink()) out[r] = `-> ${fs.readlinkSync(path.join(dir, r))}`;
      else if (st.isDirectory()) walk(r);
      else out[r] = fs.readFileSync(path.join(dir, r)).toString('base64');
    }
  };
  walk('');
  return out;
}

suite('checkpoints and rewind (e2e)', function () {
  let wb: LaunchedWorkbench;
  let mock: MockMessagesApi;
  let chat: FrameLocator;
  let ws: string;

  // The commands of these tests run without a question on their card.
  chatSuite({ kind: 'rewind', settings: { 'claudeMemory.commands.allow': ['printf', 'rm', 'echo', 'git commit'] } }, (s) => {
    ({ wb, mock, chat } = s);
    ws = s.workspace;
  });

  test('Rewind to here restores editor, bash and memory changes byte for byte; the untracked file and the ignored folder stay', async function () {
    // The user's project: an ignored folder, an untracked file of theirs, a file with CRLF endings.
    fs.writeFileSync(path.join(ws, '.gitignore'), 'node_modules/\n');
    fs.mkdirSync(path.join(ws, 'node_modules', 'dep'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
    fs.writeFileSync(path.join(ws, 'my-notes.txt'), 'my own notes, not Claude\'s\n');
    fs.writeFileSync(path.join(ws, 'src', 'legacy.js'), '// legacy\r\nmodule.exports = {};\r\n');
    const todo = fs.readFileSync(path.join(ws, 'src', 'todo.js'), 'utf8');
    const firstLine = todo.split('\n')[0];
    const before = treeOf(ws);

    mock.script([
      { content: [{ type: 'tool_use', name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'src/todo.js', old_str: firstLine, new_str: '// rewritten by Claude' } }] },
      { content: [{ type: 'tool_use', name: 'bash', input: { command: 'printf generated > src/generated.js' } }] },
      { content: [{ type: 'tool_use', name: 'bash', input: { command: 'rm src/legacy.js' } }] },
      { content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo changed > node_modules/dep/index.js' } }] },
      { content: [{ type: 'tool_use', input: { command: 'create', path: '/memories/progress.md', file_text: '- rewrote todo.js, removed legacy.js\n' } }] },
      { content: [{ type: 'text', text: 'All tidied up.' }] },
    ]);
    await again(() => runCommand(wb.page, 'Claude Memory: Open Chat', UI_TIMEOUT));
    await sendFromComposer(chat, 'Tidy up the project.');
    // A command that writes through a redirection asks on its card: allowed once, as a user would.
    const answer = chat.locator('.entry.assistant', { hasText: 'All tidied up.' });
    await untilAnsweredAllowingOnce(chat, answer, 6);
    assert.ok(fs.existsSync(path.join(ws, 'src', 'generated.js')), 'bash created a file');
    assert.ok(!fs.existsSync(path.join(ws, 'src', 'legacy.js')), 'bash deleted a file');
    assert.match(fs.readFileSync(path.join(ws, 'src', 'todo.js'), 'utf8'), /rewritten by Claude/);
    assert.ok(fs.existsSync(path.join(ws, '.claude-memories', 'progress.md')));
    const ignoredAfter = fs.readFileSync(path.join(ws, 'node_modules', 'dep', 'index.js'), 'utf8');
    assert.strictEqual(ignoredAfter, 'changed\n');

    // Rewind to here: the preview lists every file and the memory file first.
    const message = chat.locator('.entry.user', { hasText: 'Tidy up the project.' });
    const rewind = message.locator('[data-action="rewind"]');
    await untilChat(chat, rewind, 'the message\'s Rewind to here');
    await screenshot(wb.page, 'rewind-button-light');
    await rewind.click();
    const pick = wb.page.locator('.quick-input-widget');
    await pick
      .locator('.quick-input-list .monaco-list-row', { hasText: 'generated.js' })
      .waitFor({ timeout: 20_000 })
      .catch(async (e: Error) => {
        throw new Error(`${e.message}\nnotifications: ${JSON.stringify(await notifications(wb.page))}\nlog: ${wb.server.extensionHostLog().split('\n').filter((l) => l.includes('rewind')).join(' / ')}`);
      });
    const rows = await pick.locator('.quick-input-list .monaco-list-row').allTextContents();
    const seen = rows.join(' | ');
    for (const expected of ['Rewind', 'src/todo.js', 'src/generated.js', 'src/legacy.js', '/memories/progress.md']) assert.ok(seen.includes(expected), `${expected} in the preview: ${seen}`);
    assert.ok(!seen.includes('node_modules') && !seen.includes('my-notes.txt'), `ignored and unchanged files are not in the preview: ${seen}`);
    await screenshot(wb.page, 'rewind-preview-light');
    // The first row is Cancel: Enter there keeps everything (nothing destructive is one key away).
    const active = pick.locator('.quick-input-list .monaco-list-row.focused');
    assert.match((await active.textContent()) ?? '', /Cancel/, 'Cancel is the row Enter picks');
    await wb.page.keyboard.press('Enter');
    await pick.waitFor({ state: 'hidden', timeout: 10_000 });
    assert.ok(fs.existsSync(path.join(ws, 'src', 'generated.js')), 'Enter on the preview rewound nothing');
    assert.strictEqual(await chat.locator('.rewound-here').count(), 0);
    await rewind.click();
    await pick.locator('.quick-input-list .monaco-list-row', { hasText: 'Rewind files and conversation' }).first().click();

    await untilChat(chat, chat.locator('.rewound-here'), 'the rewound message\'s note', { timeout: 30_000 });
    await screenshot(wb.page, 'rewind-done-light');
    // Byte for byte as before the message, apart from the ignored folder, which stays as the session left it.
    const now = treeOf(ws);
    assert.deepStrictEqual({ ...now, 'node_modules/dep/index.js': '' }, { ...before, 'node_modules/dep/index.js': '' });
    assert.strictEqual(fs.readFileSync(path.join(ws, 'node_modules', 'dep', 'index.js'), 'utf8'), ignoredAfter);
    assert.ok(!fs.existsSync(path.join(ws, '.claude-memories', 'progress.md')), 'the memory file went');
    // The answer's rows are folded, not gone; the message went back to the composer.
    assert.strictEqual(await chat.locator('.entry.assistant', { hasText: 'All tidied up.' }).isVisible(), false);
    assert.strictEqual(await chat.locator('#prompt').inputValue(), 'Tidy up the project.');
    await chat.locator('.rewound-toggle').click();
    await untilChat(chat, chat.locator('.entry.assistant.rewound', { hasText: 'All tidied up.' }), 'the rewound answer, shown again');
    await screenshot(wb.page, 'rewind-shown-light');

    // Claude is told with the next message.
    mock.script([{ content: [{ type: 'text', text: 'Understood.' }] }]);
    await chat.locator('#prompt').fill('');
    await sendFromComposer(chat, 'Try again, but keep legacy.js.');
    await untilChat(chat, chat.locator('.entry.assistant', { hasText: 'Understood.' }), 'the next answer', { timeout: 30_000 });
    const last = mock.requests.at(-1)?.body.messages as Array<{ role: string; content: Array<{ type: string; text?: string }> | string }>;
    const sent = JSON.stringify(last.at(-1)?.content);
    assert.match(sent, /the user rewound the workspace and memory to how they were before their message \\"Tidy up the project\.\\"/);
  });
  test('a rewind past Claude\'s commit names it; moving the branch back keeps the commit in the reflog; Undo Rewind moves it forward again', async function () {
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=You', '-c', 'user.email=you@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd: ws, encoding: 'utf8' }).trim();
    if (!fs.existsSync(path.join(ws, '.git'))) git('init', '-q');
    // The identity Claude's `git commit` uses (the sandbox has no user config).
    git('config', 'user.name', 'Claude');
    git('config', 'user.email', 'claude@example.com');
    fs.writeFileSync(path.join(ws, '.gitignore'), 'node_modules/\n.claude-memories/\n');
    git('add', '-A');
    git('commit', '-qm', 'todo-cli: add, list, done');
    const first = git('rev-parse', 'HEAD');
    const todo = fs.readFileSync(path.join(ws, 'src', 'todo.js'), 'utf8');
    const firstLine = todo.split('\n')[0];
    mock.script([
      { content: [{ type: 'tool_use', name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'src/todo.js', old_str: firstLine, new_str: `${firstLine}\nfunction remove(todos, id) {\n  return todos.filter((t) => t.id !== id);\n}` } }] },
      { content: [{ type: 'tool_use', name: 'bash', input: { command: 'git commit -qam "Add remove()"' } }] },
      { content: [{ type: 'text', text: 'Added remove() and committed it.' }] },
    ]);
    await chat.locator('#prompt').fill('');
    await sendFromComposer(chat, 'Add a remove() function');
    const answer = chat.locator('.entry.assistant', { hasText: 'Added remove() and committed it.' });
    await untilAnsweredAllowingOnce(chat, answer, 4);
    const second = git('rev-parse', 'HEAD');
    assert.notStrictEqual(second, first, `Claude's command committed: ${git('log', '--oneline')}`);
    const short = git('rev-parse', '--short', 'HEAD');

    // The preview names the commit and offers to move main back; Cancel is still first.
    const message = chat.locator('.entry.user', { hasText: 'Add a remove() function' });
    await message.locator('[data-action="rewind"]').click();
    const pick = wb.page.locator('.quick-input-widget');
    // Its own row under the commits' separator (the first choice's detail names it too).
    const commitRow = pick.locator('.quick-input-list .monaco-list-row', { hasText: `${short} Add remove()` }).last();
    await commitRow.waitFor({ timeout: 20_000 });
    const rows = (await pick.locator('.quick-input-list .monaco-list-row').allTextContents()).join(' | ');
    assert.match(rows, /1 commit since, on main/, rows);
    assert.match(rows, new RegExp(`1 commit since stays on main: ${short} Add remove\\(\\)`), rows);
    const moveRow = pick.locator('.quick-input-list .monaco-list-row', { hasText: 'move main back' });
    assert.match((await moveRow.textContent()) ?? '', /1 commit leaves it.*the reflog keeps the commit/);
    assert.match((await pick.locator('.quick-input-list .monaco-list-row.focused').textContent()) ?? '', /Cancel/);
    const sidebar = wb.page.locator('.part.sidebar');
    await screenshot(wb.page, 'rewind-commit-preview-light');
    await moveRow.click();

    // The branch is back on the first commit, the work tree is clean, the reflog keeps the commit.
    const here = message.locator('.rewound-here');
    await untilChat(chat, here, 'the rewound message\'s note', { timeout: 30_000 });
    assert.match((await here.textContent()) ?? '', new RegExp(`Branch main moved back: 1 commit left it \\(kept in the reflog\\): ${short} Add remove\\(\\)`));
    assert.strictEqual(git('rev-parse', 'HEAD'), first);
    assert.strictEqual(git('symbolic-ref', 'HEAD'), 'refs/heads/main');
    assert.strictEqual(git('status', '--porcelain'), '', 'nothing shows as an uncommitted change');
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src', 'todo.js'), 'utf8'), todo);
    const reflog = git('reflog', 'show', '--format=%H %gs', 'main');
    assert.match(reflog, new RegExp(`^${second} commit: Add remove\\(\\)$`, 'm'), reflog);
    assert.match(reflog, /^[0-9a-f]+ claude-memory: rewind to checkpoint \d+$/m, reflog);
    await screenshot(wb.page, 'rewind-commit-done-light');
    await wb.page.screenshot({ path: path.join(screenshotsDir, 'rewind-commit-done-300-light-crop.png'), clip: (await sidebar.boundingBox())! });
    for (const [theme, name, kind] of [['Dark Modern', 'dark', 'vscode-dark'], ['Dark High Contrast', 'hc', 'vscode-high-contrast']] as const) {
      await again(() => switchTheme(wb.page, theme));
      await chat.locator(`body.${kind}`).waitFor({ timeout: UI_TIMEOUT });
      await wb.page.screenshot({ path: path.join(screenshotsDir, `rewind-commit-done-300-${name}-crop.png`), clip: (await sidebar.boundingBox())! });
    }
    await again(() => switchTheme(wb.page, 'Light Modern'));
    await chat.locator('body.vscode-light').waitFor({ timeout: UI_TIMEOUT });

    // Undo Rewind: asked the same way (Cancel first), then main moves forward to the commit again.
    await here.locator('[data-action="undo-rewind"]').click();
    const undoRow = pick.locator('.quick-input-list .monaco-list-row', { hasText: 'Undo Rewind' });
    await undoRow.waitFor({ timeout: 20_000 });
    assert.match((await pick.locator('.quick-input-list .monaco-list-row.focused').textContent()) ?? '', /Cancel/);
    await screenshot(wb.page, 'rewind-undo-preview-light');
    await undoRow.click();
    await untilChat(chat, message.locator('[data-action="rewind"]'), 'Rewind to here again on the message', { timeout: 30_000 });
    assert.strictEqual(git('rev-parse', 'HEAD'), second, 'main is on Claude\'s commit again');
    assert.strictEqual(git('status', '--porcelain'), '');
    assert.match(fs.readFileSync(path.join(ws, 'src', 'todo.js'), 'utf8'), /function remove\(todos, id\)/);
    assert.ok(await answer.isVisible(), 'the answer shows again');
    assert.strictEqual(await chat.locator('#prompt').inputValue(), '', 'the message the rewind put back in the composer went again');
  });
});
