/** Timing helpers for the engine benchmark: one JSONL pass, medians, table printing. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { execJsonLines } from '../../src/cli/jsonLines';
import type { Target } from './targets';

export interface PassResult {
  ms: number;
  lines: number;
  errors: number;
  outputChars: number;
  /** First few error contents, to explain a non-zero error count. */
  sampleErrors: string[];
}

/** Where stores live: the OS temp folder (a real disk here) unless BENCH_DIR says otherwise. */
export const benchBase = (): string => process.env.BENCH_DIR ?? os.tmpdir();

export function freshDir(tag: string): string {
  return fs.mkdtempSync(path.join(benchBase(), `cm-bench-${tag}-`));
}

/** Feeds `jsonl` in 64 KiB chunks, as stdin would arrive, and counts what comes out. */
export async function runPass(target: Target, jsonl: string, dir: string): Promise<PassResult> {
  const executor = await target.open(dir);
  const chunks: string[] = [];
  for (let i = 0; i < jsonl.length; i += 65536) chunks.push(jsonl.slice(i, i + 65536));
  const result: PassResult = { ms: 0, lines: 0, errors: 0, outputChars: 0, sampleErrors: [] };
  const sink = new Writable({
    decodeStrings: false,
    write(chunk: string, _enc, cb) {
      result.lines++;
      result.outputChars += chunk.length;
      if (chunk.startsWith('{"is_error":true')) {
        result.errors++;
        if (result.sampleErrors.length < 3) result.sampleErrors.push(chunk.slice(0, 200).trim());
      }
      cb();
    },
  });
  const start = performance.now();
  await execJsonLines(executor, Readable.from(chunks), sink);
  result.ms = performance.now() - start;
  return result;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  return cells.map((r) => '  ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')).join('\n');
}
