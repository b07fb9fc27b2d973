/**
 * Benchmark runner (`npm run bench`, after build + tsc): runs every benchmark module.
 *
 * Contract for a benchmark module: a folder `bench/<name>/` with an `index.ts` that exports
 * `run(): Promise<void>`, which prints its own figures (and goal verdicts) to stdout and throws
 * only when it could not measure. Modules run one after another, in folder-name order, so they
 * never compete for the CPU. `node out/bench/run.js engine agent` runs only the named ones.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

interface BenchModule {
  run(): Promise<void>;
}

async function main(only: string[]): Promise<number> {
  // This file runs compiled, from out/bench/: the modules sit beside it as <name>/index.js.
  const names = fs
    .readdirSync(__dirname, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(__dirname, e.name, 'index.js')))
    .map((e) => e.name)
    .sort();
  const unknown = only.filter((n) => !names.includes(n));
  if (unknown.length > 0) {
    console.error(`bench: no benchmark named ${unknown.join(', ')} (have: ${names.join(', ')})`);
    return 2;
  }
  let failed = 0;
  for (const name of only.length > 0 ? only : names) {
    const started = Date.now();
    console.log(`\n=== bench/${name} ===`);
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require(path.join(__dirname, name, 'index.js')) as Partial<BenchModule>;
      if (typeof mod.run !== 'function') throw new Error('its index does not export run()');
      await mod.run();
      console.log(`=== bench/${name}: done in ${((Date.now() - started) / 1000).toFixed(1)} s ===`);
    } catch (e) {
      failed++;
      console.error(`=== bench/${name} FAILED: ${e instanceof Error ? e.message : String(e)} ===`);
    }
  }
  return failed > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then((code) => (process.exitCode = code));
