/**
 * Command-rules benchmark: the cost of judging a command with tree-sitter-bash (web-tree-sitter)
 * — the one-time lazy load of the WebAssembly, then judgeCommand per command — against bash's
 * own parser on the same commands in the same run (`bash -n -c CMD`, spawned: what asking the
 * real shell would cost). Figures and ratios are printed; nothing is asserted.
 */
import { spawnSync } from 'node:child_process';
import { judgeCommand } from '../../src/core/workspace/commandRules';
import { loadShellParser } from '../../src/core/workspace/shellCommands';
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
}
