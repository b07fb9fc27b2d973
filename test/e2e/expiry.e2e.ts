// Memory expiry as a person sees it: a file unused for 120 days is swept when the workspace
// opens and announced ("1 memory expired (unused for 90 days)") with Restore, which brings it
// back; a file five days from expiry carries the ⚠ badge and its date on hover; Pin from the
// context menu marks a file for good. Files are aged with utimes before the workbench opens.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Context } from 'mocha';
import { Locator } from 'playwright-core';
import {
  UI_TIMEOUT, Workbench, activityBarItem, again, chooseContextMenuItem, disposeCodeServer, focusView, notifications, openWorkbench,
  runCommand, screenshot, startCodeServer, treeRow, until,
} from './support';

const DAY_MS = 24 * 60 * 60 * 1000;

suite('e2e: memory expiry', function () {
  let wb: Workbench;
  let pane: Locator;
  let memories: string;

  function seed(rel: string, content: string, idleDays: number): void {
    const file = path.join(memories, ...rel.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    const then = new Date(Date.now() - idleDays * DAY_MS);
    fs.utimesSync(file, then, then);
  }

  suiteSetup(async function () {
    // The harness delays hovers by a minute (a tooltip left open swallows clicks); this suite hovers on purpose.
    const server = await startCodeServer({ kind: 'expiry', theme: 'dark', settings: { 'workbench.hover.delay': 300 } });
    memories = path.join(server.workspaceFolders[0], '.claude-memories');
    seed('old-idea.md', 'An idea nobody came back to.\n', 120);
    seed('deploy-notes.md', 'Deploy with `make release`.\n', 85);
    seed('conventions.md', 'Tabs, not spaces.\n', 30);
    seed('today.md', 'Written today.\n', 0);
    seed('progress.md', '# Progress\n', 365);
    try {
      wb = await openWorkbench(server);
    } catch (error) {
      await disposeCodeServer(server, true);
      throw error;
    }
    await activityBarItem(wb.page, 'Claude Memory').waitFor({ state: 'visible', timeout: 30_000 });
  });
  suiteTeardown(async function (this: Context) {
    if (!wb) return;
    const failed = this.test?.parent?.tests.some((t) => t.state === 'failed') ?? false;
    await wb.close();
    await disposeCodeServer(wb.server, failed);
  });

  test('the sweep on opening deletes the 120-day-old file and says so; Restore brings it back', async function () {
    this.timeout(120_000);
    pane = await again(() => focusView(wb.page, 'Memory', UI_TIMEOUT));
    // The sweep runs 2 s after opening; its toast hides itself after 15 s, which a loaded machine
    // can take just to show the view. The notification center keeps it until dismissed: once the
    // sweep is done (the file is gone), it is read there.
    const swept = path.join(memories, 'old-idea.md');
    for (let i = 0; i < 600 && fs.existsSync(swept); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(!fs.existsSync(swept), 'no sweep within a minute of opening: the expired file is still on disk');
    const item = '.notifications-toasts .notification-list-item, .notifications-center .notification-list-item';
    await again(() => runCommand(wb.page, 'Notifications: Show Notifications', UI_TIMEOUT));
    const toast = wb.page.locator(item).filter({ hasText: '1 memory expired (unused for 90 days)' }).first();
    await until(toast, 'the expiry notification', async () => `notifications: ${JSON.stringify(await notifications(wb.page))}`, { timeout: UI_TIMEOUT });
    assert.ok(!fs.existsSync(path.join(memories, 'old-idea.md')), 'the expired file is still on disk');
    assert.ok(fs.existsSync(path.join(memories, 'progress.md')), 'a checklist file expired');
    for (const button of ['Restore', 'Show Changes']) await toast.locator('.monaco-button', { hasText: button }).waitFor({ state: 'visible' });
    await screenshot(wb.page, 'expiry-notification-dark');

    await toast.locator('.monaco-button', { hasText: 'Restore' }).click();
    await wb.page.locator(item, { hasText: 'Restored 1 memory.' }).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.strictEqual(fs.readFileSync(path.join(memories, 'old-idea.md'), 'utf8'), 'An idea nobody came back to.\n');
    assert.strictEqual(await wb.page.locator(item, { hasText: 'Not restored' }).count(), 0);
    // Out of the way of the tree for the next tests (the center may have closed by itself).
    if (await wb.page.locator('.notifications-center.visible').isVisible()) await again(() => runCommand(wb.page, 'Notifications: Hide Notifications', UI_TIMEOUT));
  });

  test('a file close to expiry has the ⚠ badge, and its date on hover', async function () {
    this.timeout(60_000);
    pane = await again(() => focusView(wb.page, 'Memory', UI_TIMEOUT));
    const row = treeRow(pane, 'deploy-notes.md');
    await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    // VS Code draws decoration badges as CSS ::after content on the row's label.
    const badgeOf = (name: string) => wb.page.evaluate(`(() => {
      const row = Array.from(document.querySelectorAll('.monaco-list-row')).find((r) => r.querySelector('.label-name')?.textContent.trim() === ${JSON.stringify(name)});
      if (!row) return undefined;
      return Array.from(row.querySelectorAll('*')).map((e) => getComputedStyle(e, '::after').content).filter((c) => c && c !== 'none' && c !== 'normal').join(' ');
    })()`) as Promise<string | undefined>;
    await wb.page.waitForFunction(
      `Array.from(document.querySelectorAll('.monaco-list-row')).some((r) => r.querySelector('.label-name')?.textContent.trim() === 'deploy-notes.md' && Array.from(r.querySelectorAll('*')).some((e) => getComputedStyle(e, '::after').content.includes('⚠')))`,
      undefined,
      { timeout: UI_TIMEOUT },
    );
    assert.ok(!(await badgeOf('conventions.md'))?.includes('⚠'), 'a file 60 days from expiry has the badge');
    assert.ok(!(await badgeOf('progress.md'))?.includes('⚠'), 'a checklist file has the badge');

    // A person's mouse comes from somewhere and rests on the name.
    const box = await row.locator('.label-name').boundingBox();
    assert.ok(box);
    await wb.page.mouse.move(box.x + 5, box.y - 40);
    await wb.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 8 });
    const hover = wb.page.locator('.monaco-hover, .workbench-hover').filter({ hasText: 'unless Claude uses it or you pin it' }).first();
    await hover.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.match(await hover.innerText(), /⚠ Expires on \d{1,2} \w{3} \d{4} unless Claude uses it or you pin it/);
    await screenshot(wb.page, 'expiry-near-badge-tooltip-dark');
    await wb.page.keyboard.press('Escape');
  });

  test('Pin from the context menu marks the file with a pin; its menu then offers Unpin', async function () {
    this.timeout(60_000);
    pane = await again(() => focusView(wb.page, 'Memory', UI_TIMEOUT));
    await wb.page.mouse.move(900, 600);
    await again(() => chooseContextMenuItem(wb.page, treeRow(pane, 'conventions.md'), 'Pin (Never Expires)'));
    const pinned = treeRow(pane, 'conventions.md');
    await wb.page.waitForFunction(
      `Array.from(document.querySelectorAll('.monaco-list-row')).some((r) => r.querySelector('.label-name')?.textContent.trim() === 'conventions.md' && r.querySelector('.codicon-pinned') && r.textContent.includes('pinned ·'))`,
      undefined,
      { timeout: UI_TIMEOUT },
    );
    assert.ok(fs.readFileSync(path.join(memories, '.meta', 'pins.json'), 'utf8').includes('conventions.md'));
    await screenshot(wb.page, 'expiry-pinned-dark');
    await pinned.click({ button: 'right' });
    const menu = wb.page.locator('.context-view .monaco-menu');
    await menu.waitFor({ state: 'visible', timeout: 10_000 });
    const items = (await menu.locator('.action-label').allTextContents()).map((s) => s.trim());
    assert.ok(items.includes('Unpin') && !items.includes('Pin (Never Expires)'), JSON.stringify(items));
    assert.ok(items.includes('Rename…') && items.includes('Delete'), `a pinned file lost its other commands: ${JSON.stringify(items)}`);
    await wb.page.keyboard.press('Escape');
  });
});
