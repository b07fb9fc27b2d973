/**
 * History benchmark: what recording a version of every change costs. The deterministic mixed
 * workload of bench/engine (create, view, str_replace, insert, rename, delete) through the `exec`
 * JSON Lines loop, on the engine as Node processes build it (Node adapter + cross-process store
 * lock, createNodeMemoryEngine), with history off (the baseline), on with the default retention,
 * and on with retention effectively off; interleaved in the same run, median of BENCH_REPS passes,
 * fresh store each. Then the history's size on disk after the whole workload, for both
 * retentions, next to the size of the memory files themselves.
 * Env: BENCH_OPS (default 10000), BENCH_REPS (3), BENCH_DIR (where stores live).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_HISTORY_RETENTION, HISTORY_FOLDER, type HistoryRetention, type MemoryToolExecutor } from '../../src/core/memory';
import { createNodeMemoryEngine } from '../../src/platform/node/nodeMemoryEngine';
import { benchBase, freshDir, median, runPass, table } from '../engine/measure';
import type { Target } from '../engine/targets';
import { describeWorkload, generateWorkload } from '../engine/workload';

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
    // Interleaved so that machine noise spreads over all targets alike.
    for (const target of targets) {
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

  console.log(`\nhistory: size on disk after the ${opCount.toLocaleString('en-US')} operations (last pass)`);
  const rows = [on, all].map((t) => {
    const s = sizes.get(t)!;
    return [t.label, s.history.files.toLocaleString('en-US'), kib(s.history.bytes), kib(s.history.allocated), `${(s.history.bytes / Math.max(1, s.memory.bytes)).toFixed(1)}x`];
  });
  const memory = sizes.get(off)!.memory;
  rows.unshift(['memory files themselves (baseline)', memory.files.toLocaleString('en-US'), kib(memory.bytes), kib(memory.allocated), '1.0x']);
  console.log(table(['.meta/history', 'files', 'bytes', 'allocated', 'vs memory bytes'], rows));
}
