// `npm run test:integration`: runs test/integration (mocha inside the real extension host) in
// code-server 4.103.2 (= VS Code 1.103.2) opened by headless Chromium, once per pass:
//   default    trusted single-folder copy of test/fixtures/sample-workspace
//   untrusted  same, workspace trust on (Restricted Mode): only *.untrusted.test.js
//   multiroot  a .code-workspace with two folders: only *.multiroot.test.js
// A pass without test files is skipped. Env: CLAUDE_MEMORY_TEST_PASSES=default,untrusted
// (subset), CLAUDE_MEMORY_TEST_GREP=<mocha grep>, CLAUDE_MEMORY_IT_TIMEOUT_MS (per pass, default
// 20 min: a guard against a hung extension host, not a speed limit; each test has its own mocha
// timeout, and the default pass takes ~4 min on a quiet 2-core machine and over 5 under load), KEEP_TEST_RUNS=1 (keep the run folder (<temp>/cwm-test-runs/<run>/) with logs even on success).
import * as fs from 'fs';
import * as path from 'path';
import { format } from 'util';
import {
  CodeServer, CodeServerOptions, disposeCodeServer, launchBrowser, sampleWorkspace, startCodeServer,
} from '../e2e/support';
import { TestPass, testFilesFor } from '../integration';
import { activationFigures } from './activationLog';
import { Counts, outcomesEnv, parseResultMarker, passStartMarker, summaryLine } from './summary';

const integrationOut = path.resolve(__dirname, '..', 'integration');
const testIndex = path.join(integrationOut, 'index');

const passes: Record<TestPass, CodeServerOptions> = {
  default: { kind: 'it' },
  untrusted: { kind: 'itu', trust: false },
  multiroot: { kind: 'itm', multiRoot: [sampleWorkspace, sampleWorkspace] },
};

interface PassResult {
  pass: TestPass;
  exitCode: number;
  counts?: Counts;
  seconds: number;
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Runs one pass; resolves with the extension host's exit code (0 = all passed). */
async function runPass(pass: TestPass, timeoutMs: number): Promise<PassResult> {
  const started = Date.now();
  const grep = process.env.CLAUDE_MEMORY_TEST_GREP;
  const server = await startCodeServer({
    ...passes[pass],
    extension: { kind: 'development' },
    env: {
      CLAUDE_MEMORY_TEST_PASS: pass,
      ...(grep ? { CLAUDE_MEMORY_TEST_GREP: grep } : {}),
      ...(process.env[outcomesEnv] ? { [outcomesEnv]: process.env[outcomesEnv] } : {}),
    },
  });
  let output = '';
  let exitCode = 1;
  try {
    exitCode = await driveTests(server, timeoutMs, (text) => {
      output += `${text}\n`;
      log(text);
    });
    const figures = activationFigures(server);
    if (figures) log(`activation log (${pass}): ${figures}`);
  } finally {
    await disposeCodeServer(server, exitCode !== 0);
    if (exitCode !== 0) log(`(run folder kept: ${server.dirs.root})`);
  }
  return { pass, exitCode, counts: parseResultMarker(output), seconds: (Date.now() - started) / 1000 };
}

/** Opens the workbench with the test payload and waits for codeAutomationExit. */
async function driveTests(server: CodeServer, timeoutMs: number, print: (text: string) => void): Promise<number> {
  const context = await launchBrowser(server);
  const browserLog = path.join(server.dirs.logs, 'browser.log');
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (msg) => fs.appendFileSync(browserLog, `[${msg.type()}] ${msg.text()}\n`));
    page.on('pageerror', (e) => fs.appendFileSync(browserLog, `[pageerror] ${String(e)}\n`));
    let timer: NodeJS.Timeout | undefined;
    let finish: (code: number) => void = () => undefined;
    const result = new Promise<number>((resolve) => {
      finish = resolve;
      timer = setTimeout(() => {
        print(`integration: TIMEOUT after ${timeoutMs / 1000} s without a result from the extension host`);
        resolve(124);
      }, timeoutMs);
    });
    page.on('crash', () => {
      print('integration: the browser page crashed');
      finish(1);
    });
    await page.exposeFunction('codeAutomationExit', (code: number) => finish(Number(code)));
    // Every workbench log line arrives here (mocha's console output from the extension host
    // too, as printf-style argument lists). All of it goes to logs/automation.log; the terminal
    // gets the lines from the moment the test index starts.
    const automationLog = path.join(server.dirs.logs, 'automation.log');
    let testsStarted = false;
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown) => {
      const text = Array.isArray(args) ? format(...(args as unknown[])) : String(args);
      fs.appendFileSync(automationLog, `[${type}] ${text}\n`);
      if (text.includes(passStartMarker)) testsStarted = true;
      if (testsStarted) print(text);
    });
    // Only the navigation itself is awaited: what matters is the test index's result (bounded by
    // timeoutMs above), not the page's "load" event, which a loaded machine can delay past
    // Playwright's 30 s default.
    await page.goto(server.workbenchUrl(testIndex), { waitUntil: 'commit', timeout: timeoutMs });
    const code = await result;
    clearTimeout(timer);
    if (!testsStarted) {
      // The test index never ran (load error, crash, timeout): show what the workbench said.
      const lines = fs.existsSync(automationLog) ? fs.readFileSync(automationLog, 'utf8').trim().split('\n') : [];
      print(`integration: the test index did not start; last workbench log lines:\n${lines.slice(-40).join('\n')}`);
    }
    return code;
  } finally {
    await context.close().catch(() => undefined);
  }
}

async function main(): Promise<number> {
  const started = Date.now();
  const wanted = (process.env.CLAUDE_MEMORY_TEST_PASSES ?? 'default,untrusted,multiroot')
    .split(',').map((s) => s.trim()).filter(Boolean) as TestPass[];
  const timeoutMs = Number(process.env.CLAUDE_MEMORY_IT_TIMEOUT_MS ?? 20 * 60_000);
  const results: PassResult[] = [];
  for (const pass of wanted) {
    if (!(pass in passes)) throw new Error(`unknown pass "${pass}" (default, untrusted, multiroot)`);
    if (testFilesFor(pass, integrationOut).length === 0) {
      log(`integration pass "${pass}": no test files, skipped`);
      continue;
    }
    log(`\n=== integration pass "${pass}" (code-server + Chromium) ===`);
    results.push(await runPass(pass, timeoutMs));
  }
  const total: Counts = { passed: 0, failed: 0, pending: 0 };
  for (const r of results) {
    const counts = r.counts ?? { passed: 0, failed: 1 };
    if (!r.counts) log(`integration pass "${r.pass}": no result from mocha (exit code ${r.exitCode}); counted as 1 failure`);
    log(`${summaryLine(`integration/${r.pass}`, counts)} (${r.seconds.toFixed(1)} s incl. start and stop)`);
    total.passed += counts.passed;
    total.failed += counts.failed + (r.counts && r.exitCode !== 0 && counts.failed === 0 ? 1 : 0);
    total.pending = (total.pending ?? 0) + (counts.pending ?? 0);
  }
  log(`integration time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  log(summaryLine('integration', total));
  return results.length > 0 && results.every((r) => r.exitCode === 0) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`integration: ${(error as Error).stack ?? error}`);
    process.exit(1);
  },
);
