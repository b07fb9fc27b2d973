// One plain line per suite, "N passed, N failed", which CI parses from the end of the output.
export interface Counts {
  passed: number;
  failed: number;
  pending?: number;
}

export function summaryLine(suite: string, counts: Counts): string {
  const pending = counts.pending ? `, ${counts.pending} pending` : '';
  return `${suite}: ${counts.passed} passed, ${counts.failed} failed${pending}`;
}

/** First line test/integration/index.ts prints in the extension host; output before it is workbench noise. */
export const passStartMarker = 'integration pass ';

/** Marker printed by test/integration/index.ts inside the extension host, parsed by the runner. */
export const resultMarker = '@@claude-memory-test-result@@';

export function parseResultMarker(text: string): Counts | undefined {
  const i = text.indexOf(resultMarker);
  if (i < 0) return undefined;
  try {
    const json = text.slice(i + resultMarker.length).trim().split('\n')[0];
    const parsed = JSON.parse(json) as Counts;
    return typeof parsed.passed === 'number' && typeof parsed.failed === 'number' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** One line per finished test, printed by both the integration index and the e2e runner, read by test:repeat. */
export const outcomeMarker = '@@claude-memory-test-outcome@@';

export interface TestOutcome {
  /** 'integration/<pass>' or 'e2e'. */
  suite: string;
  title: string;
  state: 'passed' | 'failed';
  /** First line of the failure, when failed. */
  error?: string;
}

export function outcomeLine(outcome: TestOutcome): string {
  return `${outcomeMarker}${JSON.stringify(outcome)}`;
}

/** Every outcome line in `text` (malformed ones are skipped). */
export function parseOutcomes(text: string): TestOutcome[] {
  const outcomes: TestOutcome[] = [];
  for (const line of text.split('\n')) {
    const i = line.indexOf(outcomeMarker);
    if (i < 0) continue;
    try {
      const o = JSON.parse(line.slice(i + outcomeMarker.length)) as TestOutcome;
      if (typeof o.title === 'string' && typeof o.suite === 'string' && (o.state === 'passed' || o.state === 'failed')) outcomes.push(o);
    } catch {
      // a line cut by the log transport: not an outcome
    }
  }
  return outcomes;
}

/** Set by test:repeat: the runners then print one outcome line per test. */
export const outcomesEnv = 'CLAUDE_MEMORY_TEST_OUTCOMES';

/** Reports each finished test of `runner` as an outcome line on the console (only when outcomesEnv is '1'). */
export function reportOutcomes(runner: { on(event: 'pass' | 'fail', fn: (test: { fullTitle(): string }, err?: unknown) => void): unknown }, suite: string): void {
  if (process.env[outcomesEnv] !== '1') return;
  runner.on('pass', (test) => console.log(outcomeLine({ suite, title: test.fullTitle(), state: 'passed' })));
  runner.on('fail', (test, err) => {
    const error = (err instanceof Error ? err.message : String(err)).split('\n')[0].slice(0, 300);
    console.log(outcomeLine({ suite, title: test.fullTitle(), state: 'failed', error }));
  });
}
