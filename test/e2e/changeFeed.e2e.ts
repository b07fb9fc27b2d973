// The Memory Changes feed as a person uses it (issues 11 and 12), in the real workbench against
// the scripted Messages API: a chat makes five memory writes; the feed lists them newest first
// with a badge of 5; a card's History link opens that change's diff; each change is undone from
// its row (Undo), newest first, until the store
// holds byte for byte what it held before the chat; Mark All Reviewed clears the badge.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { startMockMessagesApi, type MockMessagesApi } from '../support/mockMessagesApi';
import { LaunchedWorkbench, UI_TIMEOUT, activityBarItem, again, focusView, launchWorkbench, runCommand, sampleWorkspace, screenshot, sendFromComposer, until, webviewFrame } from './support';

const FAKE_KEY = 'sk-ant-e2e-fake-key-000000000000000000';
const PROJECT = '# Project\n\nLogin uses OAuth; tokens live in the keychain.\n';
const CONVENTIONS = '# Conventions\n\n- tabs, not spaces\n';

/** Every file of the store but its private `.meta` folder, with its bytes. */
function storeFiles(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(root, full);
      if (rel === '.meta') continue;
      if (entry.isDirectory()) walk(full);
      else out.set(rel, fs.readFileSync(full).toString('base64'));
    }
  };
  walk(root);
  return out;
}

/** The number on the Claude Memory container's activity bar icon, or 0 when there is none. */
async function badge(page: Page): Promise<number> {
  const item = activityBarItem(page, 'Claude Memory').locator('xpath=..');
  const content = item.locator('.badge .badge-content');
  if (!(await content.isVisible())) return 0;
  return Number((await content.textContent())?.trim() ?? '0');
}

async function waitForBadge(page: Page, expected: number): Promise<void> {
  let seen = -1;
  for (let i = 0; i < 150; i++) {
    seen = await badge(page);
    if (seen === expected) return;
    await page.waitForTimeout(100);
  }
  assert.fail(`badge ${seen}, expected ${expected}`);
}

/** The feed's rows by Claude (newest first), as `label | description`. */
async function rows(pane: Locator): Promise<string[]> {
  const items = pane.locator('.monaco-list-row');
  const out: string[] = [];
  for (let i = 0; i < (await items.count()); i++) {
    const row = items.nth(i);
    out.push(`${(await row.locator('.label-name').textContent())?.trim()} | ${(await row.locator('.label-description').textContent())?.trim()}`);
  }
  return out;
}

suite('Memory Changes feed (e2e)', function () {
  let wb: LaunchedWorkbench;
  let mock: MockMessagesApi;
  let chat: FrameLocator;
  let memory: string;
  let seeded: string | undefined;

  suiteSetup(async function () {
    const memoryCall = (input: object) => ({ content: [{ type: 'tool_use' as const, name: 'memory', input }] });
    mock = await startMockMessagesApi([
      memoryCall({ command: 'create', path: '/memories/notes.md', file_text: '# Notes\n\n- login flow\n' }),
      memoryCall({ command: 'str_replace', path: '/memories/notes.md', old_str: '- login flow', new_str: '- login flow: OAuth' }),
      memoryCall({ command: 'insert', path: '/memories/notes.md', insert_line: 3, insert_text: '- tokens: keychain' }),
      memoryCall({ command: 'rename', old_path: '/memories/notes.md', new_path: '/memories/login.md' }),
      memoryCall({ command: 'delete', path: '/memories/project.md' }),
      { content: [{ type: 'text', text: 'Notes on login are in login.md now.' }] },
    ]);
    // The memory the user had before the chat is in the workspace when the window opens. (History
    // takes it down as the user's first versions when a checkpoint notices it; the feed does not
    // list those baselines.)
    seeded = fs.mkdtempSync(path.join(os.tmpdir(), 'cwm-feed-'));
    const workspace = path.join(seeded, path.basename(sampleWorkspace));
    fs.cpSync(sampleWorkspace, workspace, { recursive: true });
    fs.mkdirSync(path.join(workspace, '.claude-memories'), { recursive: true });
    fs.writeFileSync(path.join(workspace, '.claude-memories', 'project.md'), PROJECT);
    fs.writeFileSync(path.join(workspace, '.claude-memories', 'conventions.md'), CONVENTIONS);
    wb = await launchWorkbench({ kind: 'changefeed', theme: 'light', workspace, settings: { 'claudeMemory.apiBaseUrl': mock.url }, env: { ANTHROPIC_API_KEY: FAKE_KEY } });
    memory = path.join(wb.server.workspaceFolders[0], '.claude-memories');
    chat = webviewFrame(wb.page);
  });

  suiteTeardown(async function () {
    await wb?.dispose(this);
    await mock?.close();
    if (seeded) fs.rmSync(seeded, { recursive: true, force: true });
  });

  test('five chat writes show as five rows and a badge of 5; each is undone from its row until the store is as before; Mark All Reviewed clears the badge', async function () {
    const page = wb.page;
    const before = storeFiles(memory);

    await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
    await sendFromComposer(chat, 'Write down what you learned about login.');
    await chat.locator('.entry.assistant', { hasText: 'Notes on login are in login.md now.' }).waitFor({ timeout: 60_000 });
    assert.ok(!fs.existsSync(path.join(memory, 'project.md')), 'the chat deleted project.md');

    const feed = await again(() => focusView(page, 'Memory Changes', UI_TIMEOUT));
    await feed.locator('.monaco-list-row').nth(4).waitFor({ timeout: UI_TIMEOUT });
    const listed = await rows(feed);
    assert.deepEqual(
      listed.map((r) => r.split(' | ')[0]),
      ['project.md', 'notes.md → login.md', 'notes.md', 'notes.md', 'notes.md'],
      'newest first, one row per change',
    );
    assert.ok(listed.every((r) => /\| ● (just now|\d+ min ago) · Claude/.test(r)), `unseen rows by Claude, the time first: ${JSON.stringify(listed)}`);
    await waitForBadge(page, 5);
    await screenshot(page, 'change-feed-badge-light');

    // The rename's card links to its version: the feed reveals it and opens its diff.
    const renameCard = chat.locator('.entry.tool', { hasText: 'login.md' }).filter({ has: chat.locator('[data-action="show-change"]') }).first();
    await again(() => runCommand(page, 'Claude Memory: Open Chat', UI_TIMEOUT));
    await renameCard.locator('[data-action="show-change"]').click();
    await page.locator('.tabs-container .tab', { hasText: 'notes.md → login.md: moved by Claude' }).first().waitFor({ timeout: UI_TIMEOUT });
    const diff = page.locator('.monaco-diff-editor').first();
    await diff.locator('.editor.modified .view-line', { hasText: 'tokens: keychain' }).first().waitFor({ timeout: 15_000 });
    await waitForBadge(page, 4);
    // The str_replace's diff: the line before ↔ after.
    await again(() => focusView(page, 'Memory Changes', UI_TIMEOUT));
    await feed.locator('.monaco-list-row').nth(3).click();
    // The rename's diff was open in the same (preview) tab: wait for this change's own title
    // before reading the sides, or the rename's would be read.
    await page.locator('.tabs-container .tab.active', { hasText: /^\s*notes\.md: / }).first().waitFor({ timeout: 15_000 });
    const edit = page.locator('.monaco-diff-editor').first();
    await edit.locator('.editor.original .view-lines', { hasNotText: 'OAuth' }).first().waitFor({ timeout: 15_000 });
    await edit.locator('.editor.original .view-line', { hasText: '- login flow' }).first().waitFor({ timeout: 15_000 });
    await edit.locator('.editor.modified .view-line', { hasText: '- login flow: OAuth' }).first().waitFor({ timeout: 15_000 });
    assert.ok(!(await edit.locator('.editor.original .view-lines').first().textContent())?.includes('OAuth'), 'the left side is the version before the edit');
    await waitForBadge(page, 3);
    await screenshot(page, 'change-feed-diff-light');
    await again(() => runCommand(page, 'View: Close All Editors', UI_TIMEOUT));

    // Undo from the rows, newest first. Each undo adds a row of yours at the top; Claude's rows
    // keep their order, so the i-th of them is the i-th newest change.
    const claudeRows = feed.locator('.monaco-list-row', { hasText: 'Claude' });
    for (let i = 0; i < 5; i++) {
      const total = await feed.locator('.monaco-list-row').count();
      const row = claudeRows.nth(i);
      await row.hover();
      await row.locator('.action-label[aria-label^="Undo Change"]').click();
      // Newer changes to the file are undone already, so no work would go and Undo asks nothing
      // (the modal for that case cannot be driven here: with the smoke-test driver on, VS Code's
      // DialogService refuses every dialog; the unit tests cover when it asks).
      const undone = feed.locator('.monaco-list-row').nth(total);
      await until(undone, `the row of the undo of Claude's change ${i + 1} (of ${total} rows)`, async () => {
        const notes = await page.locator('.notifications-toasts .notification-list-item-message').allTextContents().catch(() => []);
        return [...(await rows(feed)), `notifications: ${JSON.stringify(notes)}`, `log: ${wb.server.extensionHostLog().split('\n').filter((l) => l.includes('[changes]')).slice(-3).join(' / ')}`].join('\n');
      }, { timeout: UI_TIMEOUT });
      assert.match(await rows(feed).then((r) => r[0]), /\| just now · You$/, 'the undo is a new row of yours, on top');
    }
    await screenshot(page, 'change-feed-undone-light');
    const after = storeFiles(memory);
    assert.deepEqual([...after.keys()].sort(), [...before.keys()].sort(), 'the same files as before the chat');
    for (const [rel, bytes] of before) assert.strictEqual(after.get(rel), bytes, `${rel} holds exactly its bytes from before the chat`);

    // Three of Claude's changes were never opened: still to review, until Mark All Reviewed.
    await waitForBadge(page, 3);
    await feed.hover();
    await feed.locator('.pane-header .action-label[aria-label="Mark All Reviewed"]').click();
    await waitForBadge(page, 0);
    // No row is marked unseen any more (the tree redraws just after the badge).
    await feed.locator('.monaco-list-row', { hasText: '●' }).first().waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    assert.ok((await rows(feed)).every((r) => !r.includes('●')));
    await screenshot(page, 'change-feed-reviewed-light');
  });
});
