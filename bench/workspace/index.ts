/**
 * Workspace tools benchmark:
 * 1. Text editor operations per second (view, str_replace, insert, create on a 200-line source
 *    file) through TextEditorTool over the Node adapter, against bare `fs` doing the same work
 *    (read, replace the string, write) without any checks: the price of path rules, per-component
 *    link checks, the unique-match search and numbered output.
 * 2. A bash round trip (`true`) in the persistent shell against spawning a fresh `bash -c true`.
 * Figures and ratios are printed; nothing is asserted.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TextEditorTool } from '../../src/core/workspace/editor';
import { NodeMemoryFileSystem } from '../../src/platform/node/nodeFileSystem';
import { PersistentShell } from '../../src/platform/node/persistentShell';
import { median, table } from '../engine/measure';

const OPS = 2_000;
const ROUNDS = 3;
const SHELL_TRIPS = 300;

const source = Array.from({ length: 200 }, (_, i) => `export const value${i} = ${i}; // line ${i + 1}`).join('\n') + '\n';

/** The same cycle of 4 operations each way: view, str_replace there and back, insert, create. */
async function editorOps(dir: string): Promise<number> {
  const tool = new TextEditorTool({
    fs: new NodeMemoryFileSystem(dir, { ownerOnly: false }),
    folder: { name: 'bench', root: dir, memoryFolder: '.claude-memories' },
    writePolicy: () => ({ mode: 'apply' }),
  });
  const context = { toolUseId: 'b', onOutput: () => undefined };
  const start = performance.now();
  for (let i = 0; i < OPS; i += 4) {
    const flip = (i / 4) % 2 === 0;
    await tool.execute({ command: 'view', path: 'src/mod.ts', view_range: [90, 110] }, context);
    await tool.execute({ command: 'str_replace', path: 'src/mod.ts', old_str: flip ? 'value100 = 100' : 'value100 = 101', new_str: flip ? 'value100 = 101' : 'value100 = 100' }, context);
    await tool.execute({ command: 'insert', path: 'src/log.txt', insert_line: 0, new_str: `entry ${i}` }, context);
    await tool.execute({ command: 'create', path: `src/new/f${i}.ts`, file_text: 'export {};\n' }, context);
  }
  return performance.now() - start;
}

async function bareFsOps(dir: string): Promise<number> {
  const file = path.join(dir, 'src', 'mod.ts');
  const log = path.join(dir, 'src', 'log.txt');
  const start = performance.now();
  for (let i = 0; i < OPS; i += 4) {
    const flip = (i / 4) % 2 === 0;
    const lines = (await fs.promises.readFile(file, 'utf8')).split('\n').slice(89, 110);
    void lines.map((l, n) => `${String(90 + n).padStart(6)}\t${l}`).join('\n');
    const text = await fs.promises.readFile(file, 'utf8');
    await fs.promises.writeFile(file, text.replace(flip ? 'value100 = 100' : 'value100 = 101', flip ? 'value100 = 101' : 'value100 = 100'));
    const logText = await fs.promises.readFile(log, 'utf8');
    await fs.promises.writeFile(log, `entry ${i}\n${logText}`);
    await fs.promises.mkdir(path.join(dir, 'src', 'new'), { recursive: true });
    await fs.promises.writeFile(path.join(dir, 'src', 'new', `f${i}.ts`), 'export {};\n', { flag: 'wx' });
  }
  return performance.now() - start;
}

function fixture(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'cm-bench-ws-')));
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src', 'mod.ts'), source);
  fs.writeFileSync(path.join(dir, 'src', 'log.txt'), '');
  return dir;
}

async function shellTrips(): Promise<{ persistent: number; fresh: number }> {
  const dir = fixture();
  const shell = new PersistentShell({ cwd: dir });
  const options = { timeoutMs: 10_000, onOutput: () => undefined };
  await shell.run('true', options); // start-up is not a round trip
  let start = performance.now();
  for (let i = 0; i < SHELL_TRIPS; i++) await shell.run('true', options);
  const persistent = (performance.now() - start) / SHELL_TRIPS;
  shell.dispose();
  start = performance.now();
  for (let i = 0; i < SHELL_TRIPS; i++) spawnSync('/bin/bash', ['--noprofile', '--norc', '-c', 'true'], { cwd: dir });
  const fresh = (performance.now() - start) / SHELL_TRIPS;
  fs.rmSync(dir, { recursive: true, force: true });
  return { persistent, fresh };
}

export async function run(): Promise<void> {
  const ours: number[] = [];
  const bare: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const [times, op] of [[ours, editorOps], [bare, bareFsOps]] as const) {
      const dir = fixture();
      times.push(await op(dir));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const perSecond = (ms: number) => Math.round((OPS / ms) * 1000);
  const oursMs = median(ours);
  const bareMs = median(bare);
  console.log(`Text editor: ${OPS} operations (view range, str_replace, insert, create), median of ${ROUNDS} rounds`);
  console.log(
    table(
      ['target', 'ms', 'ops/s', 'vs bare fs'],
      [
        ['TextEditorTool (Node adapter)', oursMs.toFixed(0), perSecond(oursMs), `${(oursMs / bareMs).toFixed(2)}x the time`],
        ['bare fs (no checks)', bareMs.toFixed(0), perSecond(bareMs), '1.00x (baseline)'],
      ],
    ),
  );
  const trips = await shellTrips();
  console.log(`\nBash round trip of \`true\`, mean of ${SHELL_TRIPS}`);
  console.log(
    table(
      ['target', 'ms per command', 'vs fresh shell'],
      [
        ['persistent shell (PersistentShell.run)', trips.persistent.toFixed(2), `${(trips.fresh / trips.persistent).toFixed(1)}x faster`],
        ['fresh bash -c true (spawnSync)', trips.fresh.toFixed(2), '1.0x (baseline)'],
      ],
    ),
  );
}
