// The Memory view as a person sees it in the real workbench: the welcome content while the store
// is empty, files appearing as they are written on disk, the context menu, light and dark themes.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Locator } from 'playwright-core';
import {
  LaunchedWorkbench, UI_TIMEOUT, again, activityBarItem, focusView, launchWorkbench, runCommand, screenshot, switchTheme, themeKind,
} from './support';


/** The picker label of the light theme (its settings id is "Default Light Modern"). */
const LIGHT_THEME_LABEL = 'Light Modern';

/** A row of the tree in `pane` by its exact label (the inner locator must be page-relative for `has`). */
function treeRow(pane: Locator, label: string): Locator {
  const exact = new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  return pane.locator('.monaco-list-row').filter({ has: pane.page().locator('.label-name', { hasText: exact }) });
}

/** Writes a file into the workspace's memory folder the way another program (git, an editor) would. */
function writeMemory(wb: LaunchedWorkbench, rel: string, content: string): void {
  const file = path.join(wb.server.workspaceFolders[0], '.claude-memories', ...rel.split('/'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

suite('e2e: Memory tree', function () {
  let wb: LaunchedWorkbench;
  let pane: Locator;

  suiteSetup(async function () {
    wb = await launchWorkbench({ kind: 'tree', theme: 'dark' });
    // Our views exist in the workbench only once the extension's contributions are loaded.
    await activityBarItem(wb.page, 'Claude Memory').waitFor({ state: 'visible', timeout: 30_000 });
  });
  suiteTeardown(async function () {
    await wb?.dispose(this);
  });

  test('an empty store shows the welcome content with one primary action, the chat and the missing key as links', async function () {
    pane = await again(() => focusView(wb.page, 'Memory', UI_TIMEOUT));
    const welcome = pane.locator('.welcome-view-content');
    await welcome.waitFor({ state: 'visible', timeout: 20_000 });
    await welcome.locator('.monaco-button', { hasText: 'Initialize Project Memory' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    // No API key in this workbench: the welcome says so, as a link next to the chat's.
    for (const label of ['open the chat', 'set one']) {
      await welcome.locator('a', { hasText: label }).first().waitFor({ state: 'visible', timeout: 10_000 });
    }
    assert.deepStrictEqual(
      (await welcome.locator('.monaco-button').allTextContents()).map((t) => t.trim()),
      ['Initialize Project Memory'],
      'one button, not five',
    );
    await screenshot(wb.page, 'tree-welcome-dark');
  });

  test('files written on disk appear, folders first, with size and age', async function () {
    writeMemory(wb, 'progress.md', '# Progress\n\n- [x] set up the tree view\n');
    writeMemory(wb, 'notes/decisions.md', 'Use workspace.fs everywhere.\n');
    writeMemory(wb, '.~tmp-123', 'hidden temp file');
    await treeRow(pane, 'progress.md').waitFor({ state: 'visible', timeout: 20_000 });
    await treeRow(pane, 'sample-workspace').waitFor({ state: 'visible' });
    const labels = (await pane.locator('.monaco-list-row .label-name').allTextContents()).map((s) => s.trim());
    assert.deepStrictEqual(labels, ['sample-workspace', 'notes', 'progress.md']);
    const description = (await treeRow(pane, 'progress.md').locator('.label-description').textContent())?.trim();
    assert.match(description ?? '', /^\d+B · just now$/);
    await screenshot(wb.page, 'tree-files-dark');
  });

  test('expanding a folder shows its file; a later write shows up without a manual refresh', async function () {
    this.timeout(120_000);
    await treeRow(pane, 'notes').click();
    await treeRow(pane, 'decisions.md').waitFor({ state: 'visible', timeout: 10_000 });
    writeMemory(wb, 'notes/later.md', 'written after the tree was open\n');
    // Usually the file watcher shows it within a second. In code-server 1.103 a disk write into a
    // folder created after start-up is sometimes never reported (an open issue): the tree's own
    // re-read while visible (every minute) is the promise a user gets either way.
    await treeRow(pane, 'later.md').waitFor({ state: 'visible', timeout: 75_000 });
  });

  test('the context menu of a file offers the tree\'s file commands', async function () {
    await treeRow(pane, 'progress.md').click({ button: 'right' });
    const menu = wb.page.locator('.context-view .monaco-menu');
    await menu.waitFor({ state: 'visible', timeout: 10_000 });
    const items = (await menu.locator('.action-label').allTextContents()).map((s) => s.trim()).filter(Boolean);
    for (const expected of ['Open Memory File', 'Reveal in Explorer View', 'Copy Memory Path', 'Rename…', 'Delete']) {
      assert.ok(items.includes(expected), `context menu lacks "${expected}": ${JSON.stringify(items)}`);
    }
    await screenshot(wb.page, 'tree-context-menu-dark');
    await wb.page.keyboard.press('Escape');
  });

  test('clicking a file opens it in an editor', async function () {
    await treeRow(pane, 'progress.md').click();
    await wb.page.locator('.tabs-container .tab', { hasText: 'progress.md' }).first().waitFor({ state: 'visible', timeout: 10_000 });
  });

  test('New Memory File from the palette: the typed name is created, opened and listed', async function () {
    await again(() => runCommand(wb.page, 'Claude Memory: New Memory File…', UI_TIMEOUT));
    await wb.page.locator('.quick-input-widget .quick-input-title', { hasText: 'New Memory File' }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    const box = wb.page.locator('.quick-input-widget .quick-input-box input');
    await box.fill('ideas/todo.md');
    await box.press('Enter');
    await wb.page.locator('.tabs-container .tab', { hasText: 'todo.md' }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.ok(fs.existsSync(path.join(wb.server.workspaceFolders[0], '.claude-memories', 'ideas', 'todo.md')));
    await treeRow(pane, 'ideas').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  });

  // Delete's modal confirmation cannot be driven here: with the smoke-test driver on, VS Code's
  // DialogService refuses every dialog. The integration tests cover delete with scripted answers.
  test('Rename… from the context menu: the box holds the old name; the new one replaces it in the tree', async function () {
    // A tree refresh (the watcher, the minute's re-read) closes an open context menu; a person
    // opens it again, and so does the test, once.
    await again(async () => {
      await wb.page.keyboard.press('Escape');
      await treeRow(pane, 'progress.md').click({ button: 'right' });
      // The menu ignores a click that lands right after it opened; choosing with the keyboard is reliable.
      await wb.page.locator('.context-view .monaco-menu .action-label', { hasText: /^Rename…$/ }).hover({ timeout: 10_000 });
      await wb.page.keyboard.press('Enter');
      await wb.page.locator('.quick-input-widget .quick-input-title', { hasText: 'Rename /memories/progress.md' }).waitFor({ state: 'visible', timeout: 15_000 });
    }).catch(async (e) => {
      await screenshot(wb.page, 'tree-rename-missing');
      throw e;
    });
    const box = wb.page.locator('.quick-input-widget .quick-input-box input');
    assert.strictEqual(await box.inputValue(), 'progress.md');
    await box.fill('../escape.md');
    // The validation message shows and Enter does nothing while it is there.
    await wb.page.locator('.quick-input-widget .quick-input-message', { hasText: /not a valid name|cannot contain/ }).waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await screenshot(wb.page, 'tree-rename-invalid-dark');
    await box.fill('progress-log.md');
    await box.press('Enter');
    await treeRow(pane, 'progress-log.md').waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await treeRow(pane, 'progress.md').waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    const store = path.join(wb.server.workspaceFolders[0], '.claude-memories');
    assert.ok(fs.existsSync(path.join(store, 'progress-log.md')));
    assert.ok(!fs.existsSync(path.join(store, 'progress.md')));
  });

  test('the view reads well in the light theme', async function () {
    await switchTheme(wb.page, LIGHT_THEME_LABEL);
    // The workbench applies the theme's class a moment after the picker closes.
    await wb.page.waitForFunction("document.querySelector('.monaco-workbench')?.classList.contains('vs') === true", undefined, { timeout: 10_000 }).catch(() => undefined);
    assert.strictEqual(await themeKind(wb.page), 'light');
    await treeRow(pane, 'decisions.md').waitFor({ state: 'visible' });
    await screenshot(wb.page, 'tree-files-light');
  });
});
