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

/** Printed by the suites' runners, one per finished test (test/runners/summary.ts). */
const OUTCOME_MARKER = '@@claude-memory-test-outcome@@';

/**
 * Runs `npm run <script>`, echoing its output (but the outcome lines, kept for the recap), and
 * resolves with exit code and output.
 */
function runScript(script) {
  return new Promise((resolve) => {
    const env = { ...process.env, CLAUDE_MEMORY_TEST_OUTCOMES: '1' };
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    let partial = '';
    child.stdout.on('data', (d) => {
      output += d;
      const lines = (partial + d).split('\n');
      partial = lines.pop();
      const shown = lines.filter((line) => !line.includes(OUTCOME_MARKER));
      if (shown.length > 0) process.stdout.write(`${shown.join('\n')}\n`);
    });
    child.stderr.on('data', (d) => {
      output += d;
      process.stderr.write(d);
    });
    child.on('close', (code, signal) => {
      if (partial && !partial.includes(OUTCOME_MARKER)) process.stdout.write(partial);
      resolve({ code: code ?? (signal ? 1 : 0), output });
    });
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

/** The failed tests of a suite's output, one line each: what CI shows of a red run is its end. */
function failedTests(output) {
  const failed = [];
  for (const line of output.split('\n')) {
    // A whole pass without a result (it hung or timed out) has no test to name: its own line says so.
    if (/^integration pass ".*": no result|^e2e: overall timeout/.test(line)) failed.push(`  ${line.trim()}`);
    const i = line.indexOf(OUTCOME_MARKER);
    if (i < 0) continue;
    try {
      const outcome = JSON.parse(line.slice(i + OUTCOME_MARKER.length));
      if (outcome.state === 'failed') failed.push(`  ${outcome.suite} · ${outcome.title}\n      ${outcome.error ?? ''}`);
    } catch {
      // a line cut by the transport
    }
  }
  return failed;
}

async function main() {
  const started = Date.now();
  const recap = [];
  const summaries = [];
  const failures = [];
  let failed = false;
  for (const step of steps) {
    console.log(`\n### ${step.name} (npm run ${step.script})`);
    const t0 = Date.now();
    const { code, output } = await runScript(step.script);
    const seconds = ((Date.now() - t0) / 1000).toFixed(1);
    recap.push(`${code === 0 ? 'ok    ' : 'FAILED'} ${step.name} (${seconds} s)`);
    if (step.suite) {
      summaries.push(suiteSummary(step.name, output, code));
      failures.push(...failedTests(output));
    }
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
  if (failures.length > 0) console.log(`failed tests:\n${failures.join('\n')}`);
  console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const line of summaries) console.log(line);
  return failed ? 1 : 0;
}

main().then((code) => process.exit(code));
