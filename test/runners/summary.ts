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
