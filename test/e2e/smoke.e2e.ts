// Smoke: the real workbench loads with our extension, its activity-bar container is visible and
// the package (.vsix) installs and activates like a user would install it.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import {
  LaunchedWorkbench, activityBarItem, chooseContextMenuItem, focusView, launchWorkbench, repoRoot, runningExtensionActivation, screenshot, themeKind,
  themes, treeRow, waitForIdle,
} from './support';

interface Manifest {
  publisher: string;
  displayName: string;
  name: string;
  contributes?: { viewsContainers?: { activitybar?: { id: string; title: string }[] } };
}

const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Manifest;
const containers = manifest.contributes?.viewsContainers?.activitybar ?? [];
const extensionId = `${manifest.publisher}.${manifest.name}`;

/**
 * Once activated, the extension's tree views have data providers: VS Code's placeholder
 * "There is no data provider registered..." must disappear from the side bar.
 */
async function assertViewsProvided(wb: LaunchedWorkbench, label: string): Promise<void> {
  const placeholder = wb.page.locator('.part.sidebar', { hasText: /no data provider registered/i });
  await placeholder.waitFor({ state: 'detached', timeout: 30_000 }).catch(async () => {
    await screenshot(wb.page, `${label}-no-data-provider`);
    throw new Error(`a view of the extension still has no data provider (${label}): activation failed?`);
  });
}

/** VS Code lists the extension as running, with its activation time (printed, not asserted). */
async function assertRunning(wb: LaunchedWorkbench, label: string): Promise<void> {
  const activation = await runningExtensionActivation(wb.page, new RegExp(`${manifest.displayName}|${extensionId}`, 'i'));
  await screenshot(wb.page, `${label}-running-extensions`);
  assert.ok(activation, `${extensionId} is not in "Show Running Extensions" (${label})`);
  console.log(`    ${label}: ${activation}`);
}

/** The extension's activity-bar entries appear only once VS Code has loaded the extension. */
async function assertContainersVisible(wb: LaunchedWorkbench, label: string): Promise<void> {
  assert.ok(containers.length > 0, 'package.json contributes no activity-bar view container');
  for (const container of containers) {
    const item = activityBarItem(wb.page, container.title);
    await item.waitFor({ state: 'visible', timeout: 30_000 }).catch(async (e) => {
      await screenshot(wb.page, `${label}-missing-container`);
      throw new Error(`activity-bar entry "${container.title}" not visible (${label}): ${(e as Error).message}`);
    });
  }
}

suite('smoke: workbench with the extension under development', function () {
  let wb: LaunchedWorkbench;
  suiteSetup(async function () {
    wb = await launchWorkbench({ kind: 'smoke', extension: { kind: 'development' }, theme: 'dark' });
  });
  suiteTeardown(async function () {
    await wb?.dispose(this);
  });

  test('workbench renders the sample workspace in the dark theme', async function () {
    await wb.page.locator('.part.sidebar, .part.editor').first().waitFor({ state: 'visible' });
    assert.strictEqual(await themeKind(wb.page), 'dark');
    const title = await wb.page.title();
    assert.match(title, /sample-workspace/, `window title: ${title}`);
  });

  test('our activity-bar container is visible and opens its views', async function () {
    await assertContainersVisible(wb, 'dev');
    const first = containers[0];
    await activityBarItem(wb.page, first.title).click();
    await assertViewsProvided(wb, 'dev');
    await waitForIdle(wb.page);
    const sidebarTitle = wb.page.locator('.part.sidebar .composite.title h2');
    await sidebarTitle.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match((await sidebarTitle.textContent()) ?? '', new RegExp(first.title, 'i'));
    const file = await screenshot(wb.page, 'smoke-dev-dark');
    assert.ok(fs.statSync(file).size > 10_000, 'screenshot looks empty');
  });

  test('VS Code lists the extension as activated', async function () {
    await assertRunning(wb, 'dev');
  });

  test('the harness drives views and context menus: README opens to the side from the Explorer', async function () {
    const explorer = await focusView(wb.page, 'Explorer');
    await chooseContextMenuItem(wb.page, treeRow(explorer, 'README.md'), 'Open to the Side');
    await wb.page.locator('.tabs-container .tab', { hasText: 'README.md' }).first().waitFor({ state: 'visible', timeout: 10_000 });
  });
});

suite('smoke: the packaged .vsix installs and activates', function () {
  let wb: LaunchedWorkbench;
  let vsix: string;
  suiteSetup(async function () {
    // Package like `npm run package` (production bundles, built in a staging folder) into test-results/.
    vsix = path.join(repoRoot, 'test-results', 'claude-workspace-memory.vsix');
    execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'package.js'), '--out', vsix], {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    console.log(`    vsix size: ${(fs.statSync(vsix).size / 1024).toFixed(1)} KiB`);
    wb = await launchWorkbench({ kind: 'vsix', extension: { kind: 'vsix', vsixPath: vsix }, theme: themes.light });
  });
  suiteTeardown(async function () {
    await wb?.dispose(this);
  });

  test('the installed extension shows its container in the light theme', async function () {
    const installed = fs.readdirSync(wb.server.dirs.extensions);
    const id = `${manifest.publisher}.${manifest.name}`.toLowerCase();
    assert.ok(installed.some((d) => d.toLowerCase().startsWith(id)), `not installed: ${installed.join(', ')}`);
    assert.strictEqual(await themeKind(wb.page), 'light');
    await assertContainersVisible(wb, 'vsix');
    await activityBarItem(wb.page, containers[0].title).click();
    await assertViewsProvided(wb, 'vsix');
    await waitForIdle(wb.page);
    await screenshot(wb.page, 'smoke-vsix-light');
    await assertRunning(wb, 'vsix');
  });
});
