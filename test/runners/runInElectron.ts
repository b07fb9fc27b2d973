// `npm run test:electron`: the same integration tests (same test index, same passes) in desktop
// VS Code through @vscode/test-electron. It downloads VS Code 1.103.2 into .vscode-test/, which
// this project's CI machines cannot (no network but npm); there, use test:integration
// (code-server). With VSCODE_EXECUTABLE_PATH it runs an installed VS Code instead of downloading.
import { runTests } from '@vscode/test-electron';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TestPass, testFilesFor } from '../integration';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const integrationOut = path.resolve(__dirname, '..', 'integration');
const sampleWorkspace = path.join(repoRoot, 'test', 'fixtures', 'sample-workspace');

/** A fresh copy of the sample workspace (or a two-folder .code-workspace) for one pass. */
function workspaceFor(pass: TestPass, scratch: string): string {
  const copy = (name: string) => {
    const to = path.join(scratch, name);
    fs.cpSync(sampleWorkspace, to, { recursive: true });
    return to;
  };
  if (pass !== 'multiroot') return copy('sample-workspace');
  const file = path.join(scratch, 'multi.code-workspace');
  const folders = [copy('1-sample-workspace'), copy('2-sample-workspace')].map((p) => ({ path: p }));
  fs.writeFileSync(file, JSON.stringify({ folders }, null, 2));
  return file;
}

async function main(): Promise<number> {
  const passes: TestPass[] = ['default', 'untrusted', 'multiroot'];
  let failed = false;
  for (const pass of passes) {
    if (testFilesFor(pass, integrationOut).length === 0) continue;
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cwm-electron-'));
    // Restricted-mode pass: no modal trust prompt, the workspace simply stays untrusted.
    fs.mkdirSync(path.join(scratch, 'user-data', 'User'), { recursive: true });
    fs.writeFileSync(path.join(scratch, 'user-data', 'User', 'settings.json'), JSON.stringify({
      'security.workspace.trust.startupPrompt': 'never',
      'workbench.startupEditor': 'none',
      'telemetry.telemetryLevel': 'off',
      'update.mode': 'none',
    }));
    try {
      const code = await runTests({
        version: process.env.VSCODE_VERSION ?? '1.103.2',
        vscodeExecutablePath: process.env.VSCODE_EXECUTABLE_PATH,
        extensionDevelopmentPath: repoRoot,
        extensionTestsPath: path.join(integrationOut, 'index'),
        extensionTestsEnv: { CLAUDE_MEMORY_TEST_PASS: pass, CLAUDE_MEMORY_TEST_GREP: process.env.CLAUDE_MEMORY_TEST_GREP },
        launchArgs: [
          workspaceFor(pass, scratch),
          '--disable-extensions', // other installed extensions stay out of the test host
          '--user-data-dir', path.join(scratch, 'user-data'),
          ...(pass === 'untrusted' ? [] : ['--disable-workspace-trust']),
        ],
      });
      failed ||= code !== 0;
    } catch (error) {
      console.error(`electron pass "${pass}" failed: ${(error as Error).message}`);
      failed = true;
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }
  return failed ? 1 : 0;
}

main().then((code) => process.exit(code));
