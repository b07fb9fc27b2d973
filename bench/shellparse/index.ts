/**
 * Command-rules benchmark: the cost of judging a command with tree-sitter-bash (web-tree-sitter)
 * — the one-time lazy load of the WebAssembly, then judgeCommand per command — against bash's
 * own parser on the same commands in the same run (`bash -n -c CMD`, spawned: what asking the
 * real shell would cost). Figures and ratios are printed; nothing is asserted.
 *
 * Then long commands (issue 35 item 8: a 20,000-stage pipeline kept the thread busy for over a
 * minute): each shape at about 15,000 and 60,000 characters, both under MAX_JUDGED_LENGTH, with
 * the growth factor of the judging time for 4x the length (linear: about 4; quadratic: about 16)
 * and bash -n on the same text as the baseline; and one over the cap, which is not parsed.
 */
import { spawnSync } from 'node:child_process';
import { judgeCommand } from '../../src/core/workspace/commandRules';
import { loadShellParser, MAX_JUDGED_LENGTH } from '../../src/core/workspace/shellCommands';
import { median, table } from '../engine/measure';

const COMMANDS = [
  'git status',
  'ls -la src | grep -n foo | head -3',
  'git log --oneline -20 2>&1 && echo "$(git rev-parse HEAD)" > /dev/null',
  'for f in *.ts; do wc -l "$f"; done; cat <<EOF\nsome $HOME text\nEOF',
  "npm test -- --grep 'a b' && [[ -v 'a[$(touch X)]' ]] || echo ${X='$(touch X)'}${X@P}",
];
const ROUNDS = 5;
const PER_ROUND = 400;
const BASH_RUNS = 40;

export async function run(): Promise<void> {
  const loadStart = performance.now();
  await loadShellParser();
  const loadMs = performance.now() - loadStart;
  const rules = { allow: ['npm test'], deny: ['rm'] };
  const rows: (string | number)[][] = [];
  for (const command of COMMANDS) {
    const samples: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const start = performance.now();
      for (let i = 0; i < PER_ROUND; i++) await judgeCommand(command, rules);
      samples.push((performance.now() - start) / PER_ROUND);
    }
    const judged = median(samples);
    const bashStart = performance.now();
    for (let i = 0; i < BASH_RUNS; i++) spawnSync('bash', ['-n', '-c', command]);
    const bash = (performance.now() - bashStart) / BASH_RUNS;
    rows.push([command.split('\n')[0].slice(0, 48), judged.toFixed(3), bash.toFixed(3), `${(bash / judged).toFixed(0)}x`]);
  }
  console.log(`shell parser: first load (WebAssembly runtime + bash grammar) ${loadMs.toFixed(1)} ms, once per process, on the first command judged`);
  console.log(table(['command', 'judgeCommand ms', 'bash -n ms (baseline)', 'faster'], rows));
  await longCommands(rules);
}

/** A command of `shape` repeated to about `length` characters. */
const LONG_SHAPES: Record<string, (length: number) => string> = {
  'pipeline ls | ls | …': (n) => repeat('ls', ' | ', n),
  'assignments X1=1 ls; …': (n) => Array.from({ length: Math.floor(n / 12) }, (_, i) => `X${i}=1 ls`).join('; '),
  'writes ls > a; …': (n) => repeat('ls > a', '; ', n),
  'nested $($(… ls))': (n) => nest('$(', 'ls', ')', n),
  'nested ((((… ))))': (n) => nest('(', 'ls', ')', n),
  'nested grep -r ../x $(…)': (n) => nest('grep -r ../x $(', 'ls', ')', n),
};

function repeat(unit: string, separator: string, length: number): string {
  return Array(Math.floor(length / (unit.length + separator.length))).fill(unit).join(separator);
}

function nest(open: string, inner: string, close: string, length: number): string {
  const depth = Math.floor(length / (open.length + close.length));
  return open.repeat(depth) + inner + close.repeat(depth);
}

function timeJudge(command: string, rules: { allow: string[]; deny: string[] }): Promise<number> {
  const start = performance.now();
  return judgeCommand(command, rules).then(() => performance.now() - start);
}

async function longCommands(rules: { allow: string[]; deny: string[] }): Promise<void> {
  const rows: (string | number)[][] = [];
  for (const [name, make] of Object.entries(LONG_SHAPES)) {
    const small = make(15_000);
    const large = make(60_000);
    const smallMs = median([await timeJudge(small, rules), await timeJudge(small, rules), await timeJudge(small, rules)]);
    const largeMs = median([await timeJudge(large, rules), await timeJudge(large, rules), await timeJudge(large, rules)]);
    const bashStart = performance.now();
    const bash = spawnSync('bash', ['-n'], { input: large });
    const bashMs = performance.now() - bashStart;
    rows.push([
      name,
      large.length,
      smallMs.toFixed(1),
      largeMs.toFixed(1),
      `${(largeMs / smallMs).toFixed(1)}x for ${(large.length / small.length).toFixed(1)}x`,
      bash.status === 0 ? bashMs.toFixed(1) : `bash failed (${bash.signal ?? bash.status})`,
    ]);
  }
  console.log(`\nlong commands (cap ${MAX_JUDGED_LENGTH.toLocaleString('en-US')} characters):`);
  console.log(table(['shape', 'chars', '~15k ms', '~60k ms', 'growth', 'bash -n ~60k ms (baseline)'], rows));
  const over = repeat('ls', ' | ', 100_000);
  console.log(`over the cap: a ${over.length.toLocaleString('en-US')}-character pipeline judged in ${(await timeJudge(over, rules)).toFixed(2)} ms (not parsed: it asks)`);
}
