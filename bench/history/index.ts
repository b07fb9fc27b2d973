/**
 * History benchmark: what recording a version of every change costs. The deterministic mixed
 * workload of bench/engine (create, view, str_replace, insert, rename, delete) through the `exec`
 * JSON Lines loop, on the engine as Node processes build it (Node adapter + cross-process store
 * lock, createNodeMemoryEngine), with history off (the baseline), on with the default retention,
 * and on with retention effectively off; interleaved in the same run, median of BENCH_REPS passes,
 * fresh store each (the order rotates each pass). Then the history's size on disk after the
 * workload, for both retentions, next to the size of the memory files themselves; and the same
 * for an edit-heavy workload (10,000 edits to 20 files), where retention has work to do.
 * Env: BENCH_OPS (default 10000), BENCH_REPS (3), BENCH_DIR (where stores live).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_HISTORY_RETENTION, HISTORY_FOLDER, type HistoryRetention, type MemoryToolExecutor } from '../../src/core/memory';
import { createNodeMemoryEngine } from '../../src/platform/node/nodeMemoryEngine';
import { benchBase, freshDir, median, runPass, table } from '../engine/measure';
import type { Target } from '../engine/targets';
import { describeWorkload, generateWorkload } from '../engine/workload';
import { editHeavyWorkload } from './editHeavy';

const UNLIMITED: HistoryRetention = { maxVersionsPerFile: 1e9, maxDays: 1e6, maxBytes: Number.MAX_SAFE_INTEGER };

function nodeTarget(label: string, history: HistoryRetention | false): Target {
  return {
    label,
    async open(dir: string): Promise<MemoryToolExecutor> {
      // Guards off: the workload writes no checklist files, and bench/engine's baseline has none.
      const { fs: store, engine } = createNodeMemoryEngine(path.join(dir, '.claude-memories'), { guards: false, history });
      await store.createDirectory('');
      return engine;
    },
  };
}

interface DiskUse {
  files: number;
  bytes: number;
  /** What the file system allocates (blocks), which small files make larger than `bytes`. */
  allocated: number;
}

function diskUse(root: string, skip?: string): DiskUse {
  const use: DiskUse = { files: 0, bytes: 0, allocated: 0 };
  if (!fs.existsSync(root)) return use;
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (skip !== undefined && (full === skip || full.startsWith(skip + path.sep))) continue;
    if (!entry.isFile()) continue;
    const stat = fs.statSync(full);
    use.files++;
    use.bytes += stat.size;
    use.allocated += stat.blocks * 512;
  }
  return use;
}

const kib = (n: number) => `${(n / 1024).toLocaleString('en-US', { maximumFractionDigits: 0 })} KiB`;

export async function run(): Promise<void> {
  const opCount = Number(process.env.BENCH_OPS ?? 10_000);
  const reps = Number(process.env.BENCH_REPS ?? 3);
  const ops = generateWorkload(opCount);
  const jsonl = ops.map((op) => JSON.stringify(op)).join('\n') + '\n';
  const writes = ops.filter((op) => op.command !== 'view').length;
  console.log(`\nhistory: ${opCount.toLocaleString('en-US')} mixed memory operations (${writes.toLocaleString('en-US')} writes) through the exec loop, Node adapter + store lock, median of ${reps} passes, stores in ${benchBase()}`);
  console.log(`  mix: ${describeWorkload(ops)}`);

  const off = nodeTarget('history off (baseline)', false);
  const on = nodeTarget(`history on, default retention (${DEFAULT_HISTORY_RETENTION.maxVersionsPerFile}/file, ${DEFAULT_HISTORY_RETENTION.maxDays} d, ${DEFAULT_HISTORY_RETENTION.maxBytes / 1024 / 1024} MiB)`, DEFAULT_HISTORY_RETENTION);
  const all = nodeTarget('history on, retention off (unlimited)', UNLIMITED);
  const targets = [off, on, all];
  const ms = new Map<Target, number[]>(targets.map((t) => [t, []]));
  const errors = new Map<Target, number>();
  const sizes = new Map<Target, { history: DiskUse; memory: DiskUse }>();
  for (let rep = 0; rep < reps; rep++) {
    // Interleaved so that machine noise spreads over all targets alike; rotated so that none
    // always runs right after another's clean-up.
    for (const target of [...targets.slice(rep % targets.length), ...targets.slice(0, rep % targets.length)]) {
      const dir = freshDir('history');
      try {
        const pass = await runPass(target, jsonl, dir);
        ms.get(target)!.push(pass.ms);
        errors.set(target, pass.errors);
        const root = path.join(dir, '.claude-memories');
        sizes.set(target, { history: diskUse(path.join(root, HISTORY_FOLDER)), memory: diskUse(root, path.join(root, '.meta')) });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  }

  const opsPerSec = (t: Target) => opCount / (median(ms.get(t)!) / 1000);
  console.log(
    table(
      ['engine', 'ops/s', 'median ms', 'errors', 'vs off'],
      targets.map((t) => [t.label, Math.round(opsPerSec(t)).toLocaleString('en-US'), median(ms.get(t)!).toFixed(0), errors.get(t) ?? 0, `${(opsPerSec(t) / opsPerSec(off)).toFixed(2)}x`]),
    ),
  );
  console.log(`  history on / off = ${(opsPerSec(on) / opsPerSec(off)).toFixed(2)}x (default retention), ${(opsPerSec(all) / opsPerSec(off)).toFixed(2)}x (retention off)`);

  printSizes(`the ${opCount.toLocaleString('en-US')} mixed operations (last pass)`, sizes, off, [on, all]);

  // Retention at work: one pass each, timed as well.
  const edits = editHeavyWorkload(opCount);
  const editJsonl = edits.map((op) => JSON.stringify(op)).join('\n') + '\n';
  const editSizes = new Map<Target, { history: DiskUse; memory: DiskUse }>();
  const editMs = new Map<Target, number>();
  for (const target of targets) {
    const dir = freshDir('history-edits');
    try {
      const pass = await runPass(target, editJsonl, dir);
      if (pass.errors > 0) throw new Error(`edit-heavy workload: ${pass.errors} errors, e.g. ${pass.sampleErrors[0]}`);
      editMs.set(target, pass.ms);
      const root = path.join(dir, '.claude-memories');
      editSizes.set(target, { history: diskUse(path.join(root, HISTORY_FOLDER)), memory: diskUse(root, path.join(root, '.meta')) });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(`\nhistory: ${opCount.toLocaleString('en-US')} edits to 20 files (${describeWorkload(edits)}), one pass each`);
  console.log(
    table(
      ['engine', 'ops/s', 'ms', 'vs off'],
      targets.map((t) => [t.label, Math.round(opCount / (editMs.get(t)! / 1000)).toLocaleString('en-US'), editMs.get(t)!.toFixed(0), `${(editMs.get(off)! / editMs.get(t)!).toFixed(2)}x`]),
    ),
  );
  printSizes('the edit-heavy workload', editSizes, off, [on, all]);
}

function printSizes(what: string, sizes: Map<Target, { history: DiskUse; memory: DiskUse }>, off: Target, withHistory: Target[]): void {
  console.log(`\nhistory: size on disk after ${what}`);
  const memory = sizes.get(off)!.memory;
  const rows = [['memory files themselves (baseline)', memory.files.toLocaleString('en-US'), kib(memory.bytes), kib(memory.allocated), '1.0x']];
  for (const t of withHistory) {
    const s = sizes.get(t)!.history;
    rows.push([t.label, s.files.toLocaleString('en-US'), kib(s.bytes), kib(s.allocated), `${(s.bytes / Math.max(1, memory.bytes)).toFixed(1)}x`]);
  }
  console.log(table(['.meta/history', 'files', 'bytes', 'allocated', 'vs memory bytes'], rows));
}
