/** Shared by the history, restore and expire process tests: the bundled CLI and its JSON. */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { HistoryRecordJson } from '../../../src/core/memory';
import { REPO, runCliProcess } from './support';

/** Bundled from the current sources by the tests' `before` (bundleCli). */
export const HISTORY_CLI = path.join(REPO, 'out', 'test-cli', 'history-cli.js');

const jsonl = (...inputs: unknown[]) => inputs.map((i) => JSON.stringify(i)).join('\n') + '\n';

/** Runs memory tool calls through `claude-memory exec`; fails the test on any error result. */
export async function exec(ws: string, ...inputs: unknown[]): Promise<void> {
  const r = await runCliProcess(HISTORY_CLI, ['exec', '--workspace', ws], ws, jsonl(...inputs));
  assert.equal(r.code, 0, r.stderr);
  for (const line of r.stdout.split('\n').filter(Boolean)) assert.equal((JSON.parse(line) as { is_error: boolean }).is_error, false, line);
}

export async function historyJson(ws: string, ...extra: string[]): Promise<HistoryRecordJson[]> {
  const r = await runCliProcess(HISTORY_CLI, ['history', '--workspace', ws, '--json', ...extra], ws);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as HistoryRecordJson[];
}
