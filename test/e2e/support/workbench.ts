// Acting on the workbench like a person: command palette, views, tree rows, webviews, screenshots.
import * as fs from 'fs';
import * as path from 'path';
import { FrameLocator, Locator, Page } from 'playwright-core';
import { screenshotsDir } from './paths';

const quickInput = '.quick-input-widget';
const quickInputBox = `${quickInput} .quick-input-box input`;
const quickInputRow = `${quickInput} .quick-input-list .monaco-list-row`;

/** Matches the whole text, so "Open Chat" does not pick "Open Chat History". */
function exactly(text: string): RegExp {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

/** Opens quick input with F1 and types `value` (">Title" for commands, "view Name" for views). */
async function openQuickInput(page: Page, value: string): Promise<void> {
  const box = page.locator(quickInputBox);
  // Another picker may be open (it would take our text as its filter): close it first.
  if (await box.isVisible()) {
    await page.keyboard.press('Escape');
    await box.waitFor({ state: 'hidden', timeout: 5_000 });
  }
  // F1 works even with focus inside a webview: VS Code forwards its key events to the workbench.
  await page.keyboard.press('F1');
  await box.waitFor({ state: 'visible', timeout: 10_000 });
  await box.fill(value);
}

/** Picks the quick-input row whose label is exactly `label` and accepts it. */
async function pickRow(page: Page, label: string, timeoutMs: number): Promise<void> {
  const row = page.locator(quickInputRow).filter({
    has: page.locator('.label-name', { hasText: exactly(label) }),
  }).first();
  try {
    await row.waitFor({ state: 'visible', timeout: timeoutMs });
  } catch {
    const seen = await page.locator(`${quickInputRow} .label-name`).allTextContents();
    await page.keyboard.press('Escape');
    throw new Error(`no quick-input entry "${label}"; visible: ${JSON.stringify(seen.slice(0, 15))}`);
  }
  await row.click();
}

/** Runs a command by its palette title, e.g. runCommand(page, 'Claude Memory: Refresh'). */
export async function runCommand(page: Page, title: string, timeoutMs = 10_000): Promise<void> {
  await openQuickInput(page, `>${title}`);
  await pickRow(page, title, timeoutMs);
}

/**
 * Opens (and focuses) a view by its name in "View: Open View" (the name in its header) and
 * returns its pane. Some panes show another title in the header (the Explorer shows the folder
 * name): then the pane that got the focus is returned, located by that header title.
 */
export async function focusView(page: Page, viewName: string, timeoutMs = 10_000): Promise<Locator> {
  await openQuickInput(page, `view ${viewName}`);
  await pickRow(page, viewName, timeoutMs);
  const named = viewPane(page, viewName);
  const focused = page.locator('.part .pane:focus-within').first();
  await named.or(focused).first().waitFor({ state: 'visible', timeout: timeoutMs });
  if (await named.isVisible()) return named;
  const title = (await focused.locator('.pane-header h3.title').first().textContent())?.trim();
  return title ? viewPane(page, title) : focused;
}

/** The pane (header + body) of a side-bar or panel view, by its header name. */
export function viewPane(page: Page, viewName: string): Locator {
  return page.locator('.pane').filter({
    has: page.locator('.pane-header h3.title', { hasText: exactly(viewName) }),
  }).first();
}

/** Activity-bar entry of a view container, by its title (aria-label starts with it). */
export function activityBarItem(page: Page, containerTitle: string): Locator {
  return page.locator(`.part.activitybar .action-item a.action-label[aria-label^="${containerTitle.replace(/"/g, '\\"')}"]`).first();
}

/** Tree rows (a TreeView's items) inside a scope (default: the whole page), by their label. */
export function treeRow(scope: Page | Locator, label: string | RegExp): Locator {
  const text = typeof label === 'string' ? exactly(label) : label;
  // The `has` locator is matched inside each row, so it must start from the page, not the scope.
  const page = 'page' in scope ? scope.page() : scope;
  return scope.locator('.monaco-list-row').filter({
    has: page.locator('.label-name', { hasText: text }),
  });
}

/** Labels of all rendered rows of the tree in `pane` (only rows scrolled into view exist in the DOM). */
export async function treeLabels(pane: Locator): Promise<string[]> {
  return (await pane.locator('.monaco-list-row .label-name').allTextContents()).map((s) => s.trim());
}

/**
 * Content frame of a webview: VS Code nests it as iframe.webview → iframe#active-frame.
 * `nth` picks among several visible webviews (in DOM order).
 */
export function webviewFrame(page: Page, nth = 0): FrameLocator {
  return page.frameLocator('iframe.webview.ready').nth(nth).frameLocator('iframe#active-frame');
}

/** Texts of the visible notification toasts. */
export async function notifications(page: Page): Promise<string[]> {
  return (await page.locator('.notifications-toasts .notification-list-item-message').allTextContents()).map((s) => s.trim());
}

/** Saves a PNG of the whole window into test-results/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(screenshotsDir, { recursive: true });
  const file = path.join(screenshotsDir, `${name.replace(/[^\w.-]+/g, '_')}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Switches the colour theme through "Preferences: Color Theme", like a user would. */
export async function switchTheme(page: Page, themeLabel: string): Promise<void> {
  await runCommand(page, 'Preferences: Color Theme');
  await page.locator(quickInputBox).fill(themeLabel);
  await pickRow(page, themeLabel, 10_000);
  await page.locator(quickInput).waitFor({ state: 'hidden', timeout: 10_000 });
}

/** Whether the workbench currently shows a light or dark theme (from the body class). */
export async function themeKind(page: Page): Promise<'light' | 'dark' | 'high-contrast'> {
  const cls = (await page.locator('.monaco-workbench').first().getAttribute('class')) ?? '';
  if (/\bhc-/.test(cls)) return 'high-contrast';
  return /\bvs-dark\b/.test(cls) ? 'dark' : 'light';
}

/**
 * Activation figure VS Code shows for an extension in "Developer: Show Running Extensions",
 * e.g. "Activation: 195ms" (undefined when the extension is not running). Leaves that editor open.
 */
export async function runningExtensionActivation(page: Page, extensionName: string | RegExp): Promise<string | undefined> {
  await runCommand(page, 'Developer: Show Running Extensions');
  const rows = page.locator('.runtime-extensions-editor .monaco-list-row');
  await rows.first().waitFor({ state: 'visible', timeout: 15_000 });
  const row = rows.filter({ hasText: extensionName }).first();
  if ((await row.count()) === 0) return undefined;
  const match = /(Startup )?Activation: [\d.]+\s*m?s/i.exec(await row.innerText());
  return match?.[0];
}

/** Waits (bounded, never throws) until no view or editor shows a running progress bar. */
export async function waitForIdle(page: Page, timeoutMs = 10_000): Promise<void> {
  // A string: the project compiles without the DOM lib; this runs in the page.
  await page.waitForFunction(
    `!Array.from(document.querySelectorAll('.monaco-progress-container.active')).some((el) => el.offsetParent !== null)`,
    undefined,
    { timeout: timeoutMs },
  ).catch(() => undefined);
}

/** The open context menu (right-click menu). */
function contextMenuLocator(page: Page): Locator {
  return page.locator('.context-view .monaco-menu').first();
}

/** Right-clicks `target` and returns the labels of the context menu (the menu stays open). */
export async function openContextMenu(page: Page, target: Locator): Promise<string[]> {
  await target.click({ button: 'right' });
  const menu = contextMenuLocator(page);
  await menu.waitFor({ state: 'visible', timeout: 10_000 });
  return (await menu.locator('.action-item .action-label').allTextContents()).map((s) => s.trim()).filter(Boolean);
}

/**
 * Right-clicks `target` and chooses `item` (exact label, e.g. 'Rename…'). VS Code menus ignore a
 * click that lands right after they open, so this hovers until the entry is marked focused and
 * accepts it with Enter, the way a keyboard user would.
 */
export async function chooseContextMenuItem(page: Page, target: Locator, item: string): Promise<void> {
  const labels = await openContextMenu(page, target);
  const menu = contextMenuLocator(page);
  const entry = menu.locator('.action-item').filter({ has: page.locator('.action-label', { hasText: exactly(item) }) }).first();
  if ((await entry.count()) === 0) {
    await page.keyboard.press('Escape');
    throw new Error(`context menu has no "${item}"; it has: ${JSON.stringify(labels)}`);
  }
  for (let attempt = 0; attempt < 30; attempt++) {
    await entry.hover();
    if (/\bfocused\b/.test((await entry.getAttribute('class')) ?? '')) break;
    await page.waitForTimeout(100);
  }
  await page.keyboard.press('Enter');
  await menu.waitFor({ state: 'hidden', timeout: 10_000 });
}

/** Drags the side bar's sash until the side bar is `width` px wide, as a person would (no-op when it is). */
export async function setSideBarWidth(page: Page, width: number): Promise<void> {
  const sidebar = page.locator('.part.sidebar');
  const box = await sidebar.boundingBox();
  if (!box || Math.abs(box.width - width) <= 4) return;
  await page.mouse.move(box.x + box.width, box.y + 200);
  await page.mouse.down();
  await page.mouse.move(box.x + width, box.y + 200, { steps: 5 });
  await page.mouse.up();
}
