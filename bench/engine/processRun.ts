/** One real `node dist/cli.js exec` process fed the workload on stdin: startup, pipes and all. */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { freshDir } from './measure';

export interface ProcessRun {
  ms: number;
  lines: number;
  errors: number;
  exitCode: number | null;
}

export const CLI_PATH = path.resolve(__dirname, '../../../dist/cli.js');

export async function measureProcessRun(jsonl: string): Promise<ProcessRun | undefined> {
  if (!fs.existsSync(CLI_PATH)) return undefined;
  const dir = freshDir('proc');
  try {
    return await new Promise<ProcessRun>((resolve, reject) => {
      const start = performance.now();
      const child = spawn(process.execPath, [CLI_PATH, 'exec', '--workspace', dir], { stdio: ['pipe', 'pipe', 'inherit'] });
      let lines = 0;
      let errors = 0;
      let partial = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        const parts = (partial + d).split('\n');
        partial = parts.pop() ?? '';
        for (const line of parts) {
          lines++;
          if (line.startsWith('{"is_error":true')) errors++;
        }
      });
      child.on('error', reject);
      child.on('close', (exitCode) => resolve({ ms: performance.now() - start, lines, errors, exitCode }));
      child.stdin.end(jsonl);
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
