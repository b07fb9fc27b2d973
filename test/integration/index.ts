// Test index for the extension host (used by test/runners/runInCodeServer.ts and by
// @vscode/test-electron alike): mocha tdd over out/test/integration/**/*.test.js.
//
// Passes, chosen by CLAUDE_MEMORY_TEST_PASS (set on code-server, inherited by the extension host):
//   default    every *.test.js except the two kinds below (workspace trusted, one folder)
//   untrusted  only *.untrusted.test.js (workspace trust on: Restricted Mode)
//   multiroot  only *.multiroot.test.js (a .code-workspace with two folders)
// CLAUDE_MEMORY_TEST_GREP narrows to tests whose full title matches (mocha grep).
import * as fs from 'fs';
import Mocha from 'mocha';
import * as path from 'path';
import { passStartMarker, reportOutcomes, resultMarker } from '../runners/summary';

export type TestPass = 'default' | 'untrusted' | 'multiroot';

export function passOf(file: string): TestPass {
  if (file.endsWith('.untrusted.test.js')) return 'untrusted';
  if (file.endsWith('.multiroot.test.js')) return 'multiroot';
  return 'default';
}

/** Compiled test files of one pass, sorted so runs are reproducible. */
export function testFilesFor(pass: TestPass, root = __dirname): string[] {
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.test.js') && passOf(f) === pass)
    .map((f) => path.join(root, f))
    .sort();
}

export async function run(): Promise<void> {
  const pass = (process.env.CLAUDE_MEMORY_TEST_PASS ?? 'default') as TestPass;
  const mocha = new Mocha({
    ui: 'tdd',
    color: false, // the output goes through codeAutomationLog / a log file, not a terminal
    timeout: 30_000,
    reporter: 'spec',
    grep: process.env.CLAUDE_MEMORY_TEST_GREP || undefined,
  });
  const files = testFilesFor(pass);
  if (files.length === 0) throw new Error(`no ${pass} integration tests under ${__dirname}`);
  for (const file of files) mocha.addFile(file);
  console.log(`${passStartMarker}"${pass}": ${files.length} file(s)`);

  await new Promise<void>((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        const stats = runner.stats ?? { passes: 0, failures, pending: 0 };
        // Parsed by the code-server runner to print the "N passed, N failed" summary.
        console.log(`${resultMarker}${JSON.stringify({ passed: stats.passes, failed: stats.failures, pending: stats.pending })}`);
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
        else resolve();
      });
      reportOutcomes(runner, `integration/${pass}`);
    } catch (error) {
      reject(error);
    }
  });
}
