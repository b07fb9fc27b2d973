// Headless Debian Chromium driven by playwright-core, pointed at a code-server workbench.
import * as path from 'path';
import { BrowserContext, Page, chromium } from 'playwright-core';
import { CodeServer } from './codeServer';
import { chromiumPath } from './paths';

export const chromiumArgs = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * VS Code >= 1.10x honours `payload` (extensionDevelopmentPath / extensionTestsPath) only with
 * developmentOptions.enableSmokeTestDriver, which code-server has no flag for: flip it in the
 * page's configuration element before the workbench reads it. (Rewriting the HTML through
 * page.route breaks the websocket, so this runs as an init script instead.)
 */
// Plain JS string: the project compiles without the DOM lib, and this runs in the page.
const enableSmokeTestDriver = `(() => {
  if (window.top !== window) return;
  const id = 'vscode-workbench-web-configuration';
  const patch = (el) => {
    const raw = el.getAttribute('data-settings');
    if (!raw) return;
    const config = JSON.parse(raw);
    config.developmentOptions = Object.assign({}, config.developmentOptions, { enableSmokeTestDriver: true });
    el.setAttribute('data-settings', JSON.stringify(config));
  };
  const existing = document.getElementById(id);
  if (existing) { patch(existing); return; }
  const observer = new MutationObserver(() => {
    const el = document.getElementById(id);
    if (el) { observer.disconnect(); patch(el); }
  });
  observer.observe(document, { childList: true, subtree: true });
})();`;

export interface BrowserOptions {
  /** Viewport; default 1400x900 so screenshots show the side bar, editor and panel. */
  viewport?: { width: number; height: number };
  /** Receives the browser console (default: only errors, prefixed [browser]). */
  onConsole?: (type: string, text: string) => void;
}

export async function launchBrowser(server: CodeServer, options: BrowserOptions = {}): Promise<BrowserContext> {
  const context = await chromium.launchPersistentContext(path.join(server.dirs.chromiumProfile), {
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
    viewport: options.viewport ?? { width: 1400, height: 900 },
    env: { ...process.env, HOME: server.dirs.home, TMPDIR: server.dirs.tmp },
  });
  await context.addInitScript({ content: enableSmokeTestDriver });
  return context;
}

/** Waits until the workbench has rendered (the activity bar is there) and the layout settled. */
export async function waitForWorkbench(page: Page, timeoutMs = 60_000): Promise<void> {
  await page.waitForSelector('.monaco-workbench', { timeout: timeoutMs });
  await page.waitForSelector('.monaco-workbench .part.activitybar', { state: 'visible', timeout: timeoutMs });
  // Restoring views and extensions happens after the first paint; wait for the statusbar too.
  await page.waitForSelector('.monaco-workbench .part.statusbar', { state: 'visible', timeout: timeoutMs });
  // The colour theme is applied after the first paint; until then the workbench shows as plain "vs".
  await page.waitForSelector('.monaco-workbench[class*="vscode-theme-"]', { timeout: timeoutMs });
}

export interface Workbench {
  context: BrowserContext;
  page: Page;
  server: CodeServer;
  /** Page errors seen so far (uncaught exceptions in the workbench). */
  pageErrors: string[];
  close(): Promise<void>;
}

/** Opens a browser on the server's workbench and waits until it has rendered. */
export async function openWorkbench(server: CodeServer, options: BrowserOptions = {}): Promise<Workbench> {
  const context = await launchBrowser(server, options);
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (msg) => {
    if (options.onConsole) options.onConsole(msg.type(), msg.text());
    else if (process.env.E2E_BROWSER_CONSOLE === '1') console.log(`[browser:${msg.type()}] ${msg.text()}`);
  });
  // The workbench's own elements are what the tests wait for (waitForWorkbench); the "load"
  // event adds nothing and can take longer than Playwright's 30 s default on a loaded machine.
  await page.goto(server.workbenchUrl(), { waitUntil: 'commit', timeout: 120_000 });
  await waitForWorkbench(page);
  return {
    context,
    page,
    server,
    pageErrors,
    close: async () => {
      await context.close().catch(() => undefined);
    },
  };
}
