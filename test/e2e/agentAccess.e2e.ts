// Other agents on the workspace memory, as a person sees it in VS Code: the extension's MCP
// server definition in "MCP: List Servers", started from there. (The workspace_memory tool needs a chat agent to call
// it; the integration tests invoke it through vscode.lm.invokeTool and check the tree.)
import { LaunchedWorkbench, focusView, launchWorkbench, runCommand, screenshot } from './support';

suite('agents: the MCP server definition in VS Code', function () {
  let wb: LaunchedWorkbench;
  suiteSetup(async function () {
    wb = await launchWorkbench({ kind: 'agents', theme: 'dark' });
  });
  suiteTeardown(async function () {
    await wb?.dispose(this);
  });

  test('MCP: List Servers lists the workspace memory server of the extension, and it starts with its one tool', async function () {
    // Once the extension runs (here: its Memory view is shown), its provider offers the server.
    await focusView(wb.page, 'Memory');
    await runCommand(wb.page, 'MCP: List Servers', 30_000);
    const row = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: 'Workspace Memory' }).first();
    await row.waitFor({ state: 'visible', timeout: 30_000 }).catch(async (e) => {
      await screenshot(wb.page, 'agents-mcp-servers-missing');
      throw e;
    });
    await screenshot(wb.page, 'agents-mcp-servers-dark');

    // Start it from there, as a user does: VS Code runs the bundled CLI on its own Node.
    await row.click();
    const start = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: /^\s*Start Server/ }).first();
    await start.waitFor({ state: 'visible', timeout: 10_000 });
    await start.click();
    // VS Code shows the server's log in the Output panel: it connects and finds the one tool
    // (the editor renders spaces as no-break spaces, hence \s).
    const log = wb.page.locator('.part.panel', { hasText: /Connection\sstate:\sRunning/ }).filter({ hasText: /Discovered\s1\stools?/ }).first();
    await log.waitFor({ state: 'visible', timeout: 30_000 }).catch(async (e) => {
      await screenshot(wb.page, 'agents-mcp-server-not-running');
      throw e;
    });
    await screenshot(wb.page, 'agents-mcp-server-running-dark');
    await wb.page.keyboard.press('Escape');
  });
});
