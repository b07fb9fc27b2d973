/**
 * Engine benchmark: a deterministic mixed workload of 10,000 memory operations sent as JSON Lines
 * through the `exec` loop, against our engine as `claude-memory exec` builds it (store lock and
 * history on; guards off, as the others have none), the SDK's BetaLocalFilesystemMemoryTool and bare
 * fs calls, interleaved in the same run (median of BENCH_REPS passes, fresh store each pass);
 * then one real `claude-memory exec` process, the cost of the cross-process store lock (with vs
 * without, bare acquire+release, two engines taking turns), and `view /memories` on a 10,000-file store.
 * Env: BENCH_OPS (default 10000), BENCH_REPS (3), BENCH_DIR (where stores live; OS temp folder).
 */
import * as fs from 'node:fs';
import { measureBigView, BIG_FILES_PER_FOLDER, BIG_FOLDERS } from './bigStore';
import { benchBase, freshDir, median, runPass, table, type PassResult } from './measure';
import { measureLockCost } from './lockCost';
import { measureProcessRun } from './processRun';
import { bareTarget, nodeEngineTarget, sdkTarget, type Target } from './targets';
import { describeWorkload, generateWorkload } from './workload';

// Issue 20: the engine as processes build it (store lock and history on) at twice the SDK tool's
// throughput and half of bare fs.
const GOAL_VS_SDK = 2.0;
const GOAL_VS_BARE = 0.5;

export async function run(): Promise<void> {
  const opCount = Number(process.env.BENCH_OPS ?? 10_000);
  const reps = Number(process.env.BENCH_REPS ?? 3);
  const ops = generateWorkload(opCount);
  const jsonl = ops.map((op) => JSON.stringify(op)).join('\n') + '\n';

  console.log(`\nengine: ${opCount.toLocaleString('en-US')} mixed memory operations as JSON Lines, median of ${reps} passes, stores in ${benchBase()}`);
  console.log(`  mix: ${describeWorkload(ops)}`);

  const ours = nodeEngineTarget('ours (engine + Node adapter + store lock + history)');
  const targets: Target[] = [ours, sdkTarget, bareTarget];
  const passes = new Map<Target, PassResult[]>(targets.map((t) => [t, []]));
  for (let rep = 0; rep < reps; rep++) {
    // Interleaved so that machine noise spreads over all targets alike.
    for (const target of targets) {
      const dir = freshDir('mix');
      try {
        passes.get(target)!.push(await runPass(target, jsonl, dir));
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  }

  const opsPerSec = (t: Target) => opCount / (median(passes.get(t)!.map((p) => p.ms)) / 1000);
  const rows = targets.map((t) => {
    const ps = passes.get(t)!;
    return [t.label, Math.round(opsPerSec(t)).toLocaleString('en-US'), median(ps.map((p) => p.ms)).toFixed(0), ps[0].errors, Math.round(ps[0].outputChars / 1024).toLocaleString('en-US')];
  });
  console.log(table(['target', 'ops/s', 'median ms', 'errors', 'output KiB'], rows));
  for (const t of targets) {
    const sample = passes.get(t)![0].sampleErrors;
    if (sample.length > 0) console.log(`  ${t.label}: first errors: ${sample.join(' | ')}`);
  }

  const vsSdk = opsPerSec(ours) / opsPerSec(sdkTarget);
  const vsBare = opsPerSec(ours) / opsPerSec(bareTarget);
  console.log(`  ours/SDK  = ${vsSdk.toFixed(2)}x  (goal >= ${GOAL_VS_SDK}x: ${vsSdk >= GOAL_VS_SDK ? 'met' : 'MISSED'})`);
  console.log(`  ours/bare = ${vsBare.toFixed(2)}x  (goal >= ${GOAL_VS_BARE}x: ${vsBare >= GOAL_VS_BARE ? 'met' : 'MISSED'})`);

  const proc = await measureProcessRun(jsonl);
  if (proc === undefined) {
    console.log('  real process: dist/cli.js missing (run `npm run build`), skipped');
  } else {
    console.log(
      `  real process: node dist/cli.js exec, ${proc.lines.toLocaleString('en-US')} result lines (${proc.errors} errors), exit ${proc.exitCode}, ` +
        `${proc.ms.toFixed(0)} ms incl. startup = ${Math.round(opCount / (proc.ms / 1000)).toLocaleString('en-US')} ops/s`,
    );
  }

  await measureLockCost(jsonl, opCount, reps);

  const big = await measureBigView(reps);
  console.log(`\nengine: view /memories on a ${(BIG_FOLDERS * BIG_FILES_PER_FOLDER).toLocaleString('en-US')}-file store (${BIG_FOLDERS} folders x ${BIG_FILES_PER_FOLDER}), median of ${reps}`);
  console.log(
    table(
      ['target', 'median ms', 'output chars', 'is_error'],
      big.results.map((r) => [r.label, r.medianMs.toFixed(1), r.outputChars.toLocaleString('en-US'), String(r.isError)]),
    ),
  );
  const oursBig = big.results[0];
  // The JSON-encoded size is a little above the text length (escaped tabs and newlines).
  const bounded = oursBig.outputChars <= big.limit * 1.25;
  console.log(`  ours bounded by the ${big.limit.toLocaleString('en-US')}-character view limit: ${bounded ? 'yes' : 'NO'}`);
}

if (require.main === module) {
  run().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
}
