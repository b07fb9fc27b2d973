/**
 * `view /memories` on a store of 10,000 files (100 folders x 100 files): how long the listing
 * takes and how much text it hands the model. The SDK lists everything; ours is cut at the
 * engine's view limit with a note on how to narrow the view.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_MEMORY_ENGINE_OPTIONS } from '../../src/core/memory';
import type { MemoryToolExecutor } from '../../src/core/memory/types';
import { freshDir, median } from './measure';
import { oursTarget, sdkTarget, type Target } from './targets';

export const BIG_FOLDERS = 100;
export const BIG_FILES_PER_FOLDER = 100;

export interface BigViewResult {
  label: string;
  medianMs: number;
  outputChars: number;
  isError: boolean;
}

function fill(root: string): void {
  for (let d = 0; d < BIG_FOLDERS; d++) {
    const folder = path.join(root, `topic-${String(d).padStart(3, '0')}`);
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    for (let f = 0; f < BIG_FILES_PER_FOLDER; f++) {
      fs.writeFileSync(path.join(folder, `note-${String(f).padStart(3, '0')}.md`), `note ${d}/${f}\n`, { mode: 0o600 });
    }
  }
}

async function viewRoot(label: string, executor: MemoryToolExecutor, reps: number): Promise<BigViewResult> {
  const times: number[] = [];
  let outputChars = 0;
  let isError = false;
  for (let i = 0; i < reps; i++) {
    const start = performance.now();
    const result = await executor.execute({ command: 'view', path: '/memories' });
    times.push(performance.now() - start);
    outputChars = JSON.stringify(result.content).length;
    isError = result.is_error;
  }
  return { label, medianMs: median(times), outputChars, isError };
}

export async function measureBigView(reps: number): Promise<{ results: BigViewResult[]; limit: number }> {
  const dir = freshDir('big');
  try {
    const targets: [Target, string][] = [
      [oursTarget('ours (engine + Node adapter)'), '.claude-memories'],
      [sdkTarget, 'memories'],
    ];
    const results: BigViewResult[] = [];
    for (const [target, folder] of targets) {
      fill(path.join(dir, folder));
      results.push(await viewRoot(target.label, await target.open(dir), reps));
    }
    return { results, limit: DEFAULT_MEMORY_ENGINE_OPTIONS.viewCharLimit };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
