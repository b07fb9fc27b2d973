/**
 * Checkpoint benchmark: what a checkpoint of a 10,000-file repository costs after the first
 * (the goal: well under a second), beside `git stash create` on the same tree — git's own way
 * of writing a snapshot commit of a work tree without touching it, measured in the same run as
 * the baseline. Each round changes BENCH_CHANGED files (default 20), then takes a checkpoint
 * (our separate repository: size probe, `add -A`, ignored/gitlink pruning, write-tree,
 * commit-tree, ref) and runs `git stash create` in the user's repository (which must also
 * refresh its index and hash the changes). Medians of BENCH_REPS rounds (default 7), alternating
 * which goes first. Also: the first checkpoint (hashes every file), a preview and a rewind.
 * Env: BENCH_FILES (10000), BENCH_CHANGED (20), BENCH_REPS (7), BENCH_DIR.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openCheckpoints } from '../../src/platform/node/checkpointRepository';
import { freshDir, median, table } from '../engine/measure';

const env = { PATH: process.env.PATH ?? '', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', ...args], { cwd, env, encoding: 'utf8' });

async function timed<T>(task: () => T | Promise<T>): Promise<number> {
  const start = performance.now();
  await task();
  return performance.now() - start;
}

export async function run(): Promise<void> {
  const files = Number(process.env.BENCH_FILES ?? 10_000);
  const changed = Number(process.env.BENCH_CHANGED ?? 20);
  const reps = Number(process.env.BENCH_REPS ?? 7);
  const root = freshDir('checkpoint');
  try {
    const folder = path.join(root, 'repo');
    for (let i = 0; i < files; i++) {
      const dir = path.join(folder, 'src', `d${Math.floor(i / 100)}`);
      if (i % 100 === 0) fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `f${i}.js`), `// file ${i}\nexport const v${i} = ${i};\n`.repeat(8));
    }
    fs.writeFileSync(path.join(folder, '.gitignore'), 'node_modules/\n');
    git(folder, 'init', '-q');
    git(folder, 'add', '-A');
    git(folder, 'commit', '-q', '-m', 'base');
    const store = await openCheckpoints(folder, { memoryFolder: '.claude-memories', home: path.join(root, 'state') });
    const first = await timed(() => store.create({ kind: 'chat', prompt: 'first' }));

    const ours: number[] = [];
    const stash: number[] = [];
    for (let r = 0; r < reps; r++) {
      for (let c = 0; c < changed; c++) {
        const i = (r * 37 + c * 101) % files;
        fs.appendFileSync(path.join(folder, 'src', `d${Math.floor(i / 100)}`, `f${i}.js`), `// round ${r}\n`);
      }
      const measureOurs = async () => ours.push(await timed(() => store.create({ kind: 'chat', prompt: `round ${r}` })));
      const measureStash = async () => stash.push(await timed(() => git(folder, 'stash', 'create')));
      if (r % 2 === 0) {
        await measureOurs();
        await measureStash();
      } else {
        await measureStash();
        await measureOurs();
      }
    }
    const list = await store.list();
    const preview = await timed(() => store.preview(list[0].id));
    const rewind = await timed(() => store.rewind(list[0].id));

    const ms = (n: number) => `${n.toFixed(0)} ms`;
    console.log(`A ${files.toLocaleString('en-US')}-file git repository, ${changed} files changed between checkpoints, median of ${reps} rounds:`);
    console.log(
      table(
        ['operation', 'median', 'min', 'max'],
        [
          ['checkpoint (after the first)', ms(median(ours)), ms(Math.min(...ours)), ms(Math.max(...ours))],
          ['git stash create (baseline)', ms(median(stash)), ms(Math.min(...stash)), ms(Math.max(...stash))],
        ],
      ),
    );
    console.log(`  ratio checkpoint / git stash create: ${(median(ours) / median(stash)).toFixed(2)}×`);
    console.log(`  first checkpoint (hashes every file): ${ms(first)}; preview of a rewind to it: ${ms(preview)}; the rewind (${reps * changed} changes back): ${ms(rewind)}`);
    console.log(`  goal: a checkpoint after the first well under a second: ${median(ours) < 1000 ? 'met' : 'NOT met'} (${ms(median(ours))})`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
