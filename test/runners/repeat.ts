// `npm run test:repeat -- [N] [--suites integration,e2e] [--hog]`: runs the real-VS Code suites N
// times (default 3) and reports, per test, how often it failed across the runs and the first
// error seen — the way to tell a flaky test from a broken one. `--hog` keeps one busy process per
// core running beside the suites (a loaded CI machine). Not part of `npm test`. Each run's full
// output is kept under test-results/repeat/.
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { outcomesEnv, parseOutcomes, type TestOutcome } from './summary';

const root = path.resolve(__dirname, '..', '..', '..');
const scripts: Record<string, string> = { integration: 'test:integration', e2e: 'test:e2e' };

interface Options {
  runs: number;
  suites: string[];
  hog: boolean;
}

export function parseArgs(argv: string[]): Options {
  const options: Options = { runs: 3, suites: ['integration', 'e2e'], hog: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--hog') options.hog = true;
    else if (arg === '--suites') options.suites = (argv[++i] ?? '').split(',').filter(Boolean);
    else if (/^\d+$/.test(arg)) options.runs = Number(arg);
    else throw new Error(`test:repeat: unknown argument "${arg}" (usage: [N] [--suites integration,e2e] [--hog])`);
  }
  for (const s of options.suites) if (!(s in scripts)) throw new Error(`test:repeat: unknown suite "${s}" (integration, e2e)`);
  if (options.runs < 1) throw new Error('test:repeat: N must be at least 1');
  return options;
}

/** Per test: runs seen, failures, first error. Sorted: most failures first. */
export function tally(runs: TestOutcome[][]): { key: string; seen: number; failed: number; error?: string }[] {
  const rows = new Map<string, { key: string; seen: number; failed: number; error?: string }>();
  for (const outcomes of runs) {
    for (const o of outcomes) {
      const key = `${o.suite} › ${o.title}`;
      const row = rows.get(key) ?? { key, seen: 0, failed: 0 };
      row.seen++;
      if (o.state === 'failed') {
        row.failed++;
        row.error ??= o.error;
      }
      rows.set(key, row);
    }
  }
  return [...rows.values()].sort((a, b) => b.failed - a.failed || a.key.localeCompare(b.key));
}

function runSuite(script: string, logFile: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
      cwd: root,
      env: { ...process.env, [outcomesEnv]: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const out = fs.createWriteStream(logFile);
    const take = (d: Buffer) => {
      output += d;
      out.write(d);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code) => {
      out.end();
      resolve({ code: code ?? 1, output });
    });
  });
}

/** One busy-looping child per core, for `--hog`. */
function startHogs(): ChildProcess[] {
  const hogs: ChildProcess[] = [];
  for (let i = 0; i < os.cpus().length; i++) {
    hogs.push(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  }
  return hogs;
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const dir = path.join(root, 'test-results', 'repeat');
  fs.mkdirSync(dir, { recursive: true });
  const hogs = options.hog ? startHogs() : [];
  const kill = () => hogs.forEach((h) => h.kill('SIGKILL'));
  process.on('exit', kill);
  const all: TestOutcome[][] = [];
  const exits: string[] = [];
  try {
    for (let run = 1; run <= options.runs; run++) {
      const outcomes: TestOutcome[] = [];
      for (const suite of options.suites) {
        const logFile = path.join(dir, `run${run}-${suite}.log`);
        const started = Date.now();
        const { code, output } = await runSuite(scripts[suite], logFile);
        const found = parseOutcomes(output);
        outcomes.push(...found);
        const failed = found.filter((o) => o.state === 'failed').length;
        const line = `run ${run}/${options.runs} ${suite}: exit ${code}, ${found.length - failed} passed, ${failed} failed (${((Date.now() - started) / 1000).toFixed(0)} s)${options.hog ? ' [hog]' : ''}`;
        exits.push(line);
        console.log(line);
        if (code !== 0 && failed === 0) console.log(`  no failed test reported: see ${path.relative(root, logFile)}`);
      }
      all.push(outcomes);
    }
  } finally {
    kill();
  }
  const rows = tally(all);
  const flaky = rows.filter((r) => r.failed > 0);
  console.log(`\n### test:repeat: ${options.runs} run(s) of ${options.suites.join(' + ')}${options.hog ? ' beside a CPU hog' : ''}`);
  for (const line of exits) console.log(line);
  console.log(flaky.length === 0 ? `every one of ${rows.length} tests passed in every run` : `${flaky.length} of ${rows.length} tests failed at least once:`);
  for (const r of flaky) console.log(`  ${r.failed}/${r.seen}  ${r.key}\n        first error: ${r.error ?? '(none given)'}`);
  return flaky.length === 0 && exits.every((l) => / exit 0,/.test(l)) ? 0 : 1;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(2);
    },
  );
}
