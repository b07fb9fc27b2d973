// Config for `npx vscode-test` (@vscode/test-cli, fetched by npx: not a dependency) on machines
// that can download desktop VS Code. Same passes as test/runners/runInCodeServer.ts, chosen by
// file name: *.untrusted.test.js in Restricted Mode, *.multiroot.test.js in a two-folder
// workspace, every other *.test.js in a trusted single folder. `npm run test:electron`
// (test/runners/runInElectron.ts, @vscode/test-electron) does the same without test-cli.
// Run `npm run build && npm run compile` first.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.dirname(new URL(import.meta.url).pathname);
const fixture = path.join(root, 'test', 'fixtures', 'sample-workspace');
// Tests write into their workspace: give each pass a fresh copy, never the fixture itself.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cwm-vscode-test-'));
const copy = (name) => {
  const to = path.join(scratch, name);
  fs.cpSync(fixture, to, { recursive: true });
  return to;
};
const multiRoot = path.join(scratch, 'multi.code-workspace');
fs.writeFileSync(multiRoot, JSON.stringify({ folders: [{ path: copy('1-sample-workspace') }, { path: copy('2-sample-workspace') }] }));

const common = {
  version: '1.103.2',
  extensionDevelopmentPath: root,
  mocha: { ui: 'tdd', timeout: 30000, color: false },
};

export default [
  {
    ...common,
    label: 'default',
    files: 'out/test/integration/**/+([!.]).test.js', // base names without a second dot
    workspaceFolder: copy('sample-workspace'),
    launchArgs: ['--disable-workspace-trust', '--disable-extensions'],
    env: { CLAUDE_MEMORY_TEST_PASS: 'default' },
  },
  {
    ...common,
    label: 'untrusted',
    files: 'out/test/integration/**/*.untrusted.test.js',
    workspaceFolder: copy('untrusted-sample-workspace'),
    launchArgs: ['--disable-extensions'],
    env: { CLAUDE_MEMORY_TEST_PASS: 'untrusted' },
  },
  {
    ...common,
    label: 'multiroot',
    files: 'out/test/integration/**/*.multiroot.test.js',
    workspaceFolder: multiRoot,
    launchArgs: ['--disable-workspace-trust', '--disable-extensions'],
    env: { CLAUDE_MEMORY_TEST_PASS: 'multiroot' },
  },
];
