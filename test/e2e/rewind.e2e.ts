// Checkpoints and "Rewind to here" (issue 19) in the real workbench, against the scripted
// Messages API: a session edits a file with the editor tool, creates and deletes files with bash,
// changes an ignored folder and writes memory; Rewind to here shows the preview (a quick pick
// listing every file), then brings the files and memory back byte for byte, while the user's
// unrelated untracked file and the ignored folder stay as they are. Claude is told next time.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator } from 'playwright-core';
import type { MockMessagesApi } from '../support/mockMessagesApi';
import { LaunchedWorkbench, UI_TIMEOUT, again, notifications, runCommand, screenshot, sendFromComposer, untilChat } from './support';
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
  chatSuite({ kind: 'rewind', settings: { 'claudeMemory.commands.allow': ['printf', 'rm', 'echo'] } }, (s) => {
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
    const asking = chat.locator('.entry.tool .approval-pending [data-action="allow-once"]');
    for (let i = 0; i < 6 && !(await answer.isVisible()); i++) {
      await Promise.race([answer.waitFor({ timeout: 60_000 }), asking.first().waitFor({ timeout: 60_000 })]).catch(() => undefined);
      if ((await asking.count()) > 0) await asking.first().click({ timeout: 5_000 }).catch(() => undefined);
    }
    await untilChat(chat, answer, 'the answer', { timeout: 60_000 });
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
    // The first row, Rewind, is the active one.
    await wb.page.keyboard.press('Enter');

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
});
