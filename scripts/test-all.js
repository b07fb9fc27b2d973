// `npm test`: build, compile, typecheck, lint, then the unit, integration (real VS Code) and e2e
// (Chromium driving VS Code) suites. Every step runs even when an earlier check failed (so one
// lint error does not hide test results), except that nothing runs without a build. Ends with a
// recap: one line per step and a plain "<suite>: N passed, N failed" line per suite (CI parses it).
const { spawn } = require('child_process');

const steps = [
  { name: 'build', script: 'build', required: true },
  { name: 'compile', script: 'compile' }, // tsc emits JS even with type errors; typecheck reports them
  { name: 'typecheck', script: 'typecheck' },
  { name: 'lint', script: 'lint' },
  { name: 'unit', script: 'test:unit', suite: true },
  { name: 'integration', script: 'test:integration', suite: true },
  { name: 'e2e', script: 'test:e2e', suite: true },
];

/** Runs `npm run <script>`, echoing its output, and resolves with exit code and output. */
function runScript(script) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      output += d;
      process.stderr.write(d);
    });
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

/** "<suite>: N passed, N failed" from our runners' own line, or from mocha's "N passing/failing". */
function suiteSummary(name, output, code) {
  const own = output.match(new RegExp(`^${name}: \\d+ passed, \\d+ failed.*$`, 'm'));
  if (own) return own[0];
  const passing = output.match(/^\s*(\d+) passing/m);
  const failing = output.match(/^\s*(\d+) failing/m);
  const pending = output.match(/^\s*(\d+) pending/m);
  if (!passing && !failing) return `${name}: 0 passed, ${code === 0 ? 0 : 1} failed (no test result; exit code ${code})`;
  const extra = pending ? `, ${pending[1]} pending` : '';
  return `${name}: ${passing ? passing[1] : 0} passed, ${failing ? failing[1] : 0} failed${extra}`;
}

async function main() {
  const started = Date.now();
  const recap = [];
  const summaries = [];
  let failed = false;
  for (const step of steps) {
    console.log(`\n### ${step.name} (npm run ${step.script})`);
    const t0 = Date.now();
    const { code, output } = await runScript(step.script);
    const seconds = ((Date.now() - t0) / 1000).toFixed(1);
    recap.push(`${code === 0 ? 'ok    ' : 'FAILED'} ${step.name} (${seconds} s)`);
    if (step.suite) summaries.push(suiteSummary(step.name, output, code));
    if (code !== 0) {
      failed = true;
      if (step.required) {
        console.error(`\n${step.name} failed: the tests cannot run without it.`);
        break;
      }
    }
  }
  console.log('\n### recap');
  for (const line of recap) console.log(line);
  console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const line of summaries) console.log(line);
  return failed ? 1 : 0;
}

main().then((code) => process.exit(code));
