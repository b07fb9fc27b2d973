// `npm run test:e2e`: mocha over out/test/e2e/**/*.e2e.js (each file starts its own code-server +
// Chromium through test/e2e/support). Ends with a plain "e2e: N passed, N failed" line.
// Args: substrings of file names to run only those. Env: E2E_GREP (mocha grep), E2E_VSIX=1 (package
// the current sources once and run every test against the installed .vsix instead of the
// development folder), E2E_BROWSER_CONSOLE=1 (echo the browser console).
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import Mocha from 'mocha';
import * as path from 'path';
import { openWorkbenches, screenshot } from '../e2e/support';
import { reportOutcomes, summaryLine } from './summary';

const e2eOut = path.resolve(__dirname, '..', 'e2e');

function findE2eFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.e2e.js'))
    .map((f) => path.join(dir, f))
    .sort();
}

async function main(): Promise<number> {
  const started = Date.now();
  const mocha = new Mocha({
    ui: 'tdd',
    color: false,
    timeout: 180_000,
    slow: 30_000,
    reporter: 'spec',
    grep: process.env.E2E_GREP,
    rootHooks: {
      // What the user would have seen when a test failed: one screenshot per open workbench.
      async afterEach(this: Mocha.Context) {
        const test = this.currentTest;
        if (test?.state !== 'failed') return;
        for (const [i, wb] of openWorkbenches().entries()) {
          const file = await screenshot(wb.page, `FAILED-${test.fullTitle()}${i ? `-${i}` : ''}`).catch(() => undefined);
          if (file) console.log(`    screenshot of the failure: ${path.relative(process.cwd(), file)}`);
          // The run folder outside the clone is kept after a failure: the screenshot and the error
          // stay there for whoever reads a CI run after its clone is gone.
          try {
            if (file) fs.copyFileSync(file, path.join(wb.server.dirs.root, path.basename(file)));
            fs.appendFileSync(path.join(wb.server.dirs.root, 'FAILED.txt'), `${test.fullTitle()}\n  ${String(test.err?.message ?? '').split('\n').slice(0, 4).join('\n  ')}\n\n`);
          } catch {
            // a run folder already removed: the screenshot in test-results is enough
          }
        }
      },
    },
  });
  const only = process.argv.slice(2);
  const files = findE2eFiles(e2eOut).filter((f) => only.length === 0 || only.some((o) => f.includes(o)));
  if (files.length === 0) {
    console.error(`e2e: no *.e2e.js files under ${e2eOut} (did tsc run?)`);
    return 1;
  }
  for (const file of files) mocha.addFile(file);
  if (process.env.E2E_VSIX === '1') {
    const root = path.resolve(__dirname, '..', '..', '..');
    const vsix = path.join(root, 'test-results', 'e2e-all.vsix');
    execFileSync(process.execPath, [path.join(root, 'scripts', 'package.js'), '--out', vsix], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    process.env.CLAUDE_MEMORY_E2E_VSIX = vsix; // read by startCodeServer's default
    console.log(`e2e: every test runs against the installed ${path.relative(root, vsix)}`);
  }
  // A hung browser or server must not stall CI: hard stop after 45 minutes overall (each test has its own timeout; a loaded 2-core machine took 20).
  const overall = setTimeout(() => {
    console.error('e2e: overall timeout (45 min) reached; aborting');
    process.exit(1);
  }, Number(process.env.E2E_OVERALL_TIMEOUT_MS ?? 45 * 60_000));
  overall.unref();
  const runner = mocha.run();
  reportOutcomes(runner, 'e2e');
  return new Promise((resolve) => {
    runner.on('end', () => {
      const stats = runner.stats ?? { passes: 0, failures: 0, pending: 0 };
      console.log(`e2e time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      console.log(summaryLine('e2e', { passed: stats.passes, failed: stats.failures, pending: stats.pending }));
      resolve(stats.failures > 0 ? 1 : 0);
    });
  });
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
