/**
 * The sandbox boundary's own cost per command (sandboxPlan.ts before it, sandboxCheck.ts after
 * it), in the steady state of a project between commands (its folders unchanged for more than two
 * seconds, so the walks reuse their listings and git's answers), on a small project and on a
 * large tree (5,000 folders, 20 nested repositories), against
 * baselines measured in the same run: a bare recursive readdir of the same tree (the floor of any
 * walk) and, where bubblewrap is installed, a whole sandboxed `true` round trip and an
 * unsandboxed one (what a command costs anyway). Figures are printed; nothing is asserted.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resetSandbox, sandboxUnavailableReason } from '../../src/platform/node/commandSandbox';
import { PersistentShell, shellsRoot } from '../../src/platform/node/persistentShell';
import { checkAfterCommand, Quarantine } from '../../src/platform/node/sandboxCheck';
import { planBoundary } from '../../src/platform/node/sandboxPlan';
import { median, table } from '../engine/measure';

const ROUNDS = 15;

function project(root: string, folders: number, repos: number): void {
  const git = (cwd: string) => execFileSync('git', ['init', '-q'], { cwd, stdio: 'ignore' });
  fs.mkdirSync(root, { recursive: true });
  git(root);
  for (let i = 0; i < folders; i++) {
    const dir = path.join(root, 'src', `m${i % 50}`, `f${i}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'index.js'), 'module.exports = 1;\n');
  }
  for (let i = 0; i < repos; i++) {
    const dir = path.join(root, 'vendor', `lib${i}`);
    fs.mkdirSync(dir, { recursive: true });
    git(dir);
  }
}

function walk(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    n++;
    if (e.isDirectory() && e.name !== '.git') n += walk(path.join(dir, e.name));
  }
  return n;
}

function time(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

export async function run(): Promise<void> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sandbox-')));
  try {
    const shellDir = fs.mkdtempSync(path.join(shellsRoot(), 'bench-'));
    fs.mkdirSync(path.join(shellDir, 'tmp'));
    const rows: string[][] = [];
    for (const [name, folders, repos] of [
      ['small project (20 folders, 1 repository)', 20, 0],
      ['large tree (5,000 folders, 21 repositories)', 5_000, 20],
    ] as const) {
      const root = path.join(base, name.split(' ')[0]);
      project(root, folders, repos);
      // A project's folders are older than a moment: ones changed in the last two seconds are read again.
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const input = { workspace: root, access: 'workspace' as const, shellDir, tmpDir: path.join(shellDir, 'tmp'), shellsRoot: shellsRoot(), readOnly: [] };
      const plans: number[] = [];
      const checks: number[] = [];
      const walks: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        walks.push(time(() => walk(root)));
        let boundary!: ReturnType<typeof planBoundary>;
        plans.push(time(() => (boundary = planBoundary(input))));
        checks.push(time(() => checkAfterCommand(boundary.snapshot!, new Quarantine(path.join(base, 'quarantine')))));
      }
      rows.push([name, median(walks).toFixed(1), median(plans).toFixed(1), median(checks).toFixed(1), `${((median(plans) + median(checks)) / median(walks)).toFixed(1)}x`]);
    }
    console.log(`Boundary per command, median of ${ROUNDS} (ms)`);
    console.log(table(['tree', 'bare walk', 'plan (before)', 'check (after)', 'both / walk'], rows));

    if (sandboxUnavailableReason() === undefined) {
      const small = path.join(base, 'small');
      const trip = async (shell: PersistentShell) => {
        const times: number[] = [];
        for (let i = 0; i < ROUNDS; i++) {
          const start = performance.now();
          await shell.run('true', { timeoutMs: 30_000, access: 'workspace', onOutput: () => undefined });
          times.push(performance.now() - start);
        }
        shell.dispose();
        return median(times);
      };
      const bare = await trip(new PersistentShell({ cwd: small }));
      const boxed = await trip(new PersistentShell({ cwd: small, sandbox: { workspace: small, allowedDomains: () => [] } }));
      await resetSandbox();
      console.log(`\nA command round trip (\`true\`, small project), median of ${ROUNDS} (ms)`);
      console.log(table(['shell', 'ms'], [['unsandboxed', bare.toFixed(1)], ['sandboxed (bubblewrap, boundary included)', boxed.toFixed(1)]]));
    } else {
      console.log('\n(no sandbox here: the round trips are not measured)');
    }
    fs.rmSync(shellDir, { recursive: true, force: true });
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}
