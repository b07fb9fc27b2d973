// Memory history as a person sees it: Show History's list of versions, the diff editor with
// "Restore This Version" in its title bar, and Recently Deleted at the end of the Memory tree.
// The versions come from `claude-memory exec` (another process, author `exec`) and a hand edit
// on disk (noticed by the extension as the user's version).
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { Locator } from 'playwright-core';
import { LaunchedWorkbench, UI_TIMEOUT, again, activityBarItem, chooseContextMenuItem, focusView, launchWorkbench, repoRoot, screenshot, treeRow } from './support';

/** Runs memory tool calls through the bundled CLI, as a script or CI job would. */
function exec(workspace: string, ...inputs: object[]): void {
  const out = execFileSync(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), 'exec', '--workspace', workspace], {
    input: inputs.map((i) => JSON.stringify(i)).join('\n') + '\n',
    encoding: 'utf8',
  });
  for (const line of out.trim().split('\n')) assert.strictEqual((JSON.parse(line) as { is_error: boolean }).is_error, false, line);
}

suite('e2e: Memory history', function () {
  let wb: LaunchedWorkbench;
  let pane: Locator;
  let workspace: string;

  suiteSetup(async function () {
    wb = await launchWorkbench({ kind: 'history', theme: 'dark' });
    workspace = wb.server.workspaceFolders[0];
    await activityBarItem(wb.page, 'Claude Memory').waitFor({ state: 'visible', timeout: 30_000 });
    exec(
      workspace,
      { command: 'create', path: '/memories/notes.md', file_text: '# Notes\n\n- the API lives in src/api\n' },
      { command: 'str_replace', path: '/memories/notes.md', old_str: 'src/api', new_str: 'src/server/api' },
      { command: 'create', path: '/memories/drafts/idea.md', file_text: 'An idea worth keeping.\n' },
      { command: 'create', path: '/memories/scratch.md', file_text: 'temporary\n' },
    );
    pane = await again(() => focusView(wb.page, 'Memory', UI_TIMEOUT));
    await treeRow(pane, 'notes.md').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  });
  suiteTeardown(async function () {
    await wb?.dispose(this);
  });

  test('Show History lists the versions newest first with who and when', async function () {
    this.timeout(120_000);
    // A hand edit on disk: the extension records it as the user's version.
    fs.appendFileSync(path.join(workspace, '.claude-memories', 'notes.md'), '- tests: npm test\n');
    const list = wb.page.locator('.quick-input-widget .quick-input-list');
    await again(async () => {
      await wb.page.keyboard.press('Escape');
      await chooseContextMenuItem(wb.page, treeRow(pane, 'notes.md'), 'Show History');
      await wb.page.locator('.quick-input-widget .quick-input-title', { hasText: 'History of /memories/notes.md' }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      // Until the watcher's notice is recorded the list has two rows; reopen once it has three.
      await list.locator('.monaco-list-row', { hasText: 'You edited' }).waitFor({ state: 'visible', timeout: 15_000 });
    });
    // Each row: the label (with its description) on the first line, the detail on the second.
    const labels = (await list.locator('.monaco-list-row .quick-input-list-row:first-child .label-name').allTextContents()).map((s) => s.trim());
    // The CLI's writes are `exec`'s (named "Claude" while the CLI still records the engine's default author).
    assert.strictEqual(labels.length, 3, JSON.stringify(labels));
    assert.strictEqual(labels[0], 'You edited');
    assert.match(labels[1], /^(claude-memory exec|Claude) edited$/);
    assert.match(labels[2], /^(claude-memory exec|Claude) created$/);
    await screenshot(wb.page, 'history-quick-pick-dark');

    // The second row: Claude's exec edit against the file as it is now.
    await wb.page.keyboard.press('ArrowDown');
    await wb.page.keyboard.press('Enter');
    await wb.page.locator('.tabs-container .tab', { hasText: /notes\.md \(v2 ↔ current\)/ }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    const restore = wb.page.locator('.editor-actions .action-label[aria-label^="Restore This Version"]');
    await restore.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    // Both sides rendered: the later hand edit shows as added on the right.
    await wb.page.locator('.editor .modified .view-line', { hasText: 'tests: npm test' }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await screenshot(wb.page, 'history-diff-restore-dark');
  });

  test('a deleted file appears under Recently Deleted with an inline Restore', async function () {
    this.timeout(120_000);
    exec(workspace, { command: 'delete', path: '/memories/drafts' });
    const group = treeRow(pane, 'Recently Deleted');
    await group.waitFor({ state: 'visible', timeout: 75_000 });
    // The last row of the store's root.
    const labels = (await pane.locator('.monaco-list-row .label-name').allTextContents()).map((s) => s.trim());
    assert.strictEqual(labels.at(-1), 'Recently Deleted', JSON.stringify(labels));
    await group.click();
    const row = treeRow(pane, 'drafts/idea.md');
    await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.match((await row.locator('.label-description').textContent()) ?? '', /^(claude-memory exec|Claude) · just now$/);
    await row.hover();
    await row.locator('.action-label[aria-label="Restore Deleted File"]').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await screenshot(wb.page, 'history-recently-deleted-dark');

    await row.locator('.action-label[aria-label="Restore Deleted File"]').click();
    await treeRow(pane, 'drafts').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.strictEqual(fs.readFileSync(path.join(workspace, '.claude-memories', 'drafts', 'idea.md'), 'utf8'), 'An idea worth keeping.\n');
  });
});
