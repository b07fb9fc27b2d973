/**
 * What the cross-process store lock costs: the mixed workload with and without it (same run,
 * interleaved), the bare acquire+release of the lock file against the no-op lock, and two engines
 * on one store taking turns.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MemoryEngine } from '../../src/core/memory';
import { NO_STORE_LOCK, type StoreLock } from '../../src/core/memory/storeLock';
import { NodeMemoryFileSystem } from '../../src/platform/node/nodeFileSystem';
import { NodeStoreLock } from '../../src/platform/node/nodeStoreLock';
import { freshDir, median, runPass, table } from './measure';
import { oursTarget, type Target } from './targets';

/** The engine + Node adapter with the store lock, as createNodeMemoryEngine builds it (guards off, like the baseline). */
const lockedTarget: Target = {
  label: 'ours + store lock',
  async open(dir) {
    const root = path.join(dir, '.claude-memories');
    const store = new NodeMemoryFileSystem(root);
    await store.createDirectory('');
    return new MemoryEngine(store, { storeLock: new NodeStoreLock(root) });
  },
};

/** Milliseconds per acquire+release pair, sequentially. */
async function msPerPair(lock: StoreLock, n: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i++) await (await lock.acquire()).release();
  return (performance.now() - start) / n;
}

export async function measureLockCost(jsonl: string, opCount: number, reps: number): Promise<void> {
  const unlocked = oursTarget('ours, no lock (baseline)');
  const targets = [unlocked, lockedTarget];
  const ms = new Map<Target, number[]>(targets.map((t) => [t, []]));
  let errors = 0;
  for (let rep = 0; rep < reps; rep++) {
    for (const target of targets) {
      const dir = freshDir('lock');
      try {
        const pass = await runPass(target, jsonl, dir);
        ms.get(target)!.push(pass.ms);
        if (target === lockedTarget) errors = pass.errors;
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  const opsPerSec = (t: Target) => opCount / (median(ms.get(t)!) / 1000);
  console.log(`\nengine: the cross-process store lock, same ${opCount.toLocaleString('en-US')}-operation mix, median of ${reps} passes`);
  console.log(table(['target', 'ops/s', 'median ms'], targets.map((t) => [t.label, Math.round(opsPerSec(t)).toLocaleString('en-US'), median(ms.get(t)!).toFixed(0)])));
  console.log(`  with lock / without = ${(opsPerSec(lockedTarget) / opsPerSec(unlocked)).toFixed(2)}x  (errors with lock: ${errors})`);

  const PAIRS = 2000;
  const dir = freshDir('lockpairs');
  try {
    const root = path.join(dir, '.claude-memories');
    fs.mkdirSync(root);
    const lock = new NodeStoreLock(root);
    await msPerPair(lock, 100); // warm-up: .meta made, code paths compiled
    const file: number[] = [];
    const none: number[] = [];
    for (let rep = 0; rep < reps; rep++) {
      file.push(await msPerPair(lock, PAIRS));
      none.push(await msPerPair(NO_STORE_LOCK, PAIRS));
    }
    console.log(
      table(
        ['lock', 'acquire+release µs', 'pairs/s'],
        [
          ['no-op lock (baseline)', (median(none) * 1000).toFixed(2), Math.round(1000 / median(none)).toLocaleString('en-US')],
          ['NodeStoreLock (.meta/lock)', (median(file) * 1000).toFixed(1), Math.round(1000 / median(file)).toLocaleString('en-US')],
        ],
      ),
    );

    // 1000 inserts into one file: by one engine (baseline), then by two engines (as two processes
    // would) taking turns through the lock, 500 each.
    const make = () => new MemoryEngine(new NodeMemoryFileSystem(root), { storeLock: new NodeStoreLock(root) });
    const insert = (engine: MemoryEngine, tag: string) => engine.execute({ command: 'insert', path: '/memories/log.md', insert_line: 0, insert_text: tag });
    const rows: string[][] = [];
    for (const engines of [[make()], [make(), make()]]) {
      fs.writeFileSync(path.join(root, 'log.md'), '');
      const each = 1000 / engines.length;
      const start = performance.now();
      await Promise.all(
        engines.map(async (engine, k) => {
          for (let i = 0; i < each; i++) await insert(engine, `${k}-${i}`);
        }),
      );
      const elapsed = performance.now() - start;
      const landed = fs.readFileSync(path.join(root, 'log.md'), 'utf8').split('\n').filter(Boolean).length;
      rows.push([engines.length === 1 ? 'one engine (baseline)' : 'two engines taking turns', elapsed.toFixed(0), Math.round(1000 / (elapsed / 1000)).toLocaleString('en-US'), `${landed} / 1000`]);
    }
    console.log(table(['1000 inserts into one file', 'ms', 'ops/s', 'lines landed'], rows));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
