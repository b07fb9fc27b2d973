/**
 * E2E harness: a real VS Code (code-server 4.103.2 = VS Code 1.103.2) driven by headless Chromium.
 *
 * Typical test (mocha, files test/e2e/**\/*.e2e.ts, run by `npm run test:e2e`):
 *
 *   import { launchWorkbench, runCommand, focusView, treeRow, webviewFrame, screenshot } from './support';
 *   suite('memory tree', function () {
 *     let wb: Workbench;
 *     suiteSetup(async () => { wb = await launchWorkbench({ kind: 'tree', env: { MY_VAR: '1' } }); });
 *     suiteTeardown(async function () { await wb?.dispose(this); });
 *     test('shows files', async () => {
 *       const pane = await focusView(wb.page, 'Memory');            // header name of the view
 *       await treeRow(pane, 'notes.md').waitFor();
 *       await screenshot(wb.page, 'tree-files');                     // -> test-results/screenshots/
 *     });
 *   });
 *
 * Starting
 * - launchWorkbench(options) = startCodeServer(options) + openWorkbench(server). Returns
 *   { page, context, server, pageErrors, dispose(mochaContext?) }; dispose stops the browser and the
 *   whole code-server process group and deletes the run folder unless the current test failed.
 * - startCodeServer(options): options are all optional:
 *     kind        short name of the run folder under <temp>/cwm-test-runs/ (HOME, TMPDIR, user data, logs, ws)
 *     workspace   folder copied fresh as the workspace (default test/fixtures/sample-workspace),
 *                 null = empty window; server.workspaceFolders[0] is the copy (write files there)
 *     multiRoot   [folderA, folderB]: copies opened as one .code-workspace
 *     env         extra env for code-server; it reaches the extension host (mock API URL, ...)
 *     extension   {kind:'development'} (default: the repo, via the payload URL),
 *                 {kind:'vsix', vsixPath} (installed with --install-extension), {kind:'none'}.
 *                 When CLAUDE_MEMORY_E2E_VSIX is set the default is that vsix.
 *     trust       false = workspace trust on, workspace opens in Restricted Mode (default true)
 *     settings    extra user settings (merged over quiet defaults)
 *     theme       'light' | 'dark' (Default Light/Dark Modern) | any theme label
 *   server.stop() kills the process group; server.extensionHostLog() returns the exthost logs.
 * - openWorkbench(server) opens Chromium on server.workbenchUrl() and waits for the workbench.
 *
 * Acting (all take the playwright Page)
 * - runCommand(page, 'Exact Palette Title')   F1, type, click the row whose label is exactly that
 * - focusView(page, 'View Name')              "Open View" quick access; returns the view's pane
 * - viewPane(page, 'View Name')               the pane locator (header + body) without focusing
 * - activityBarItem(page, 'Container Title')  activity-bar entry of a view container
 * - treeRow(scopeOrPane, 'label' | /re/)      tree rows by label; treeLabels(pane) lists them
 * - webviewFrame(page, nth?)                  FrameLocator inside iframe.webview → iframe#active-frame
 * - notifications(page)                       texts of visible notification toasts
 * - openContextMenu(page, locator)            right-click; returns the menu's labels (menu stays open)
 * - chooseContextMenuItem(page, locator, 'Rename…')  right-click and pick an entry reliably
 * - screenshot(page, 'name')                  PNG into test-results/screenshots/name.png (look at it!)
 * - switchTheme(page, themes.light)           via "Preferences: Color Theme"; themeKind(page) reads it
 * - waitForIdle(page)                         until no progress bar runs (bounded, never throws)
 * - runningExtensionActivation(page, name)    "Activation: 195ms" from Developer: Show Running Extensions
 * - again(action), UI_TIMEOUT                 one retry of a UI action that can miss on a busy workbench;
 *                                             a generous wait for rows listed under load
 * - until(locator, 'what', seen), untilChat(chat, locator, 'what')
 *                                             wait for a state; on timeout say what was there instead
 *                                             (chatSeen: last entries, composer, focus, Stop/working)
 *
 * When a test fails, the runner saves a screenshot of every open workbench as
 * test-results/screenshots/FAILED-<test title>.png.
 *
 * Notes: tree and webview providers run only once their view is shown (focus it first). Keep
 * every wait bounded (the helpers time out after 10 s) and never assert on timings.
 */
import type { Context } from 'mocha';
import { CodeServerOptions, disposeCodeServer, startCodeServer } from './codeServer';
import { BrowserOptions, Workbench, openWorkbench } from './browser';

export * from './codeServer';
export * from './retry';
export * from './browser';
export * from './workbench';
export * from './until';
export { repoRoot, sampleWorkspace, screenshotsDir, testRunsRoot } from './paths';

export interface LaunchedWorkbench extends Workbench {
  /** Closes the browser, stops code-server; keeps the run folder if the current test failed. */
  dispose(mochaContext?: Context): Promise<void>;
}

const open = new Set<LaunchedWorkbench>();

/** Workbenches launched and not yet disposed (the e2e runner screenshots them when a test fails). */
export function openWorkbenches(): LaunchedWorkbench[] {
  return [...open];
}

export async function launchWorkbench(
  options: CodeServerOptions = {},
  browser: BrowserOptions = {},
): Promise<LaunchedWorkbench> {
  const server = await startCodeServer(options);
  let wb: Workbench;
  try {
    wb = await openWorkbench(server, browser);
  } catch (error) {
    await disposeCodeServer(server, true);
    throw new Error(`${(error as Error).message}\n(run folder kept: ${server.dirs.root})`);
  }
  const launched: LaunchedWorkbench = {
    ...wb,
    async dispose(mochaContext?: Context) {
      open.delete(launched);
      const failed = mochaContext ? suiteFailed(mochaContext) : false;
      await wb.close();
      await disposeCodeServer(server, failed);
      if (failed) console.log(`  (run folder kept for inspection: ${server.dirs.root})`);
    },
  };
  open.add(launched);
  return launched;
}

/** True when any test of the current suite (or the current test) has failed. */
function suiteFailed(ctx: Context): boolean {
  if (ctx.currentTest?.state === 'failed') return true;
  const suite = ctx.test?.parent ?? ctx.currentTest?.parent;
  return suite ? suite.tests.some((t) => t.state === 'failed') : false;
}
