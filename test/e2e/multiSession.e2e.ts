// The multi-session pattern as a person uses it: "Initialize Project Memory" from the palette,
// a multi-line goal written in an editor, the Features view with its count, a checkbox ticked.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Locator, Page } from 'playwright-core';
import { LaunchedWorkbench, focusView, launchWorkbench, runCommand, screenshot, viewPane } from './support';

const GOAL_LINES = ['A command-line todo app.', '- add a todo', '- list todos', '- complete a todo'];

interface Feature {
  id: string;
  description: string;
  passes: boolean;
}

function readFeatures(wb: LaunchedWorkbench): Feature[] {
  const file = path.join(wb.server.workspaceFolders[0], '.claude-memories', 'features.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Feature[];
}

/** Until the file exists with content: a writer creates it empty first, then writes. */
async function waitForFile(file: string, what: string): Promise<void> {
  const written = () => fs.existsSync(file) && fs.statSync(file).size > 0;
  for (let i = 0; i < 100 && !written(); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(written(), `${what} was not written`);
}

/**
 * Clicks a button of a notification, as a person would: on its toast, or, once the toast has
 * hidden itself (VS Code 1.103 hides toasts with buttons after a while too), in the
 * notification center opened from the status bar.
 */
async function clickNotificationButton(page: Page, message: RegExp, button: string): Promise<void> {
  // Always from the notification center: a toast hides itself after a while (sooner on a loaded
  // machine), and one that hid under the click took the click with it. The center keeps it.
  const listed = page.locator('.notifications-center .notification-list-item').filter({ hasText: message }).first();
  if (!(await listed.isVisible())) await runCommand(page, 'Notifications: Show Notifications');
  await listed.waitFor({ state: 'visible', timeout: 10_000 });
  await listed.locator('.monaco-button', { hasText: button }).first().click();
}

/** Rows of the tree in `pane` whose label matches (the label element is looked up inside each row). */
function featureRow(page: Page, pane: Locator, label: string | RegExp): Locator {
  const text = typeof label === 'string' ? new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\s*$`) : label;
  return pane.locator('.monaco-list-row').filter({ has: page.locator('.label-name', { hasText: text }) }).first();
}

function checkbox(row: Locator): Locator {
  return row.locator('.custom-view-tree-node-item-checkbox');
}

suite('multi-session: initialize from the palette, Features view, tick a feature', function () {
  let wb: LaunchedWorkbench;
  suiteSetup(async function () {
    wb = await launchWorkbench({ kind: 'ms', theme: 'light' });
  });
  suiteTeardown(async function () {
    await wb?.dispose(this);
  });

  test('Initialize Project Memory with a goal written in an editor creates the memory and shows the checklist', async function () {
    const { page } = wb;
    await runCommand(page, 'Claude Memory: Initialize Project Memory');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await screenshot(page, 'multisession-goal-input');

    // The multi-line path: the input box's "Write in an editor…" button opens a markdown editor.
    await page.locator('.quick-input-widget .action-label[aria-label^="Write in an editor"]').click();
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.waitFor({ state: 'visible', timeout: 10_000 });
    // Click into the text, as a person would: VS Code 1.103 takes keyboard input through the
    // EditContext API, so there is no textarea to focus any more.
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    for (const line of GOAL_LINES) {
      await page.keyboard.type(line);
      await page.keyboard.press('Enter');
      // Markdown keeps list items going on Enter in some setups; start each line clean.
      await page.keyboard.press('Shift+Home');
      await page.keyboard.press('Delete');
    }
    await screenshot(page, 'multisession-goal-editor');
    await clickNotificationButton(page, /Write the project goal in the editor/, 'Done');

    // Then: draft with Claude or not. No API is reachable here, so initialize only.
    const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: 'Initialize only' }).first();
    await row.waitFor({ state: 'visible', timeout: 10_000 });
    await screenshot(page, 'multisession-draft-choice');
    await row.click();

    const memory = path.join(wb.server.workspaceFolders[0], '.claude-memories');
    await waitForFile(path.join(memory, 'progress.md'), 'progress.md');
    for (const name of ['features.json', 'startup.md']) assert.ok(fs.existsSync(path.join(memory, name)), `${name} exists`);
    assert.deepStrictEqual(readFeatures(wb).map((f) => [f.id, f.description, f.passes]), [
      ['F001', 'add a todo', false],
      ['F002', 'list todos', false],
      ['F003', 'complete a todo', false],
    ]);
    assert.match(fs.readFileSync(path.join(memory, 'progress.md'), 'utf8'), /> A command-line todo app\.\n> - add a todo/);
    assert.match(fs.readFileSync(path.join(memory, 'startup.md'), 'utf8'), /`npm test`/);

    // The Features view shows the checklist, its count once (in the header) and what is next;
    // features.json is open in an editor.
    const pane = viewPane(page, 'Features');
    await pane.locator('.pane-header', { hasText: '0 / 3 passing' }).waitFor({ state: 'visible', timeout: 10_000 });
    await featureRow(page, pane, 'Next: F001 · add a todo').waitFor({ state: 'visible', timeout: 10_000 });
    assert.strictEqual(await pane.locator('.pane-body', { hasText: '0 / 3 passing' }).count(), 0, 'the count is not repeated in the tree');
    for (const label of ['add a todo', 'list todos', 'complete a todo']) await featureRow(page, pane, label).waitFor({ state: 'visible', timeout: 10_000 });
    await page.locator('.tabs-container .tab', { hasText: 'features.json' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    await page.locator('.notifications-toasts', { hasText: 'Project memory initialized' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    await screenshot(page, 'multisession-initialized');
  });

  test('ticking a feature checkbox marks it passing in features.json and updates the count', async function () {
    const { page } = wb;
    const pane = await focusView(page, 'Features');
    const row = featureRow(page, pane, 'list todos');
    await row.waitFor({ state: 'visible', timeout: 10_000 });
    assert.strictEqual(await checkbox(row).getAttribute('aria-checked'), 'false');

    await checkbox(row).click();
    // The view header carries the count.
    await pane.locator('.pane-header', { hasText: '1 / 3 passing' }).waitFor({ state: 'visible', timeout: 10_000 });
    assert.deepStrictEqual(readFeatures(wb).map((f) => f.passes), [false, true, false]);
    assert.strictEqual(await checkbox(featureRow(page, pane, 'list todos')).getAttribute('aria-checked'), 'true');

    // Expanding a feature shows its steps.
    await row.locator('.monaco-tl-twistie').click();
    await featureRow(page, pane, /^2\. Use it as a user would to check: list todos$/).waitFor({ state: 'visible', timeout: 10_000 });
    await screenshot(page, 'multisession-ticked');

    // Unticking works the same way.
    await checkbox(featureRow(page, pane, 'list todos')).click();
    await pane.locator('.pane-header', { hasText: '0 / 3 passing' }).waitFor({ state: 'visible', timeout: 10_000 });
    assert.deepStrictEqual(readFeatures(wb).map((f) => f.passes), [false, false, false]);
  });
});
