/**
 * The workload retention exists for: many edits to few files (a progress log, a notes file the
 * agent keeps rewriting). `files` files are created, then each operation edits one of them:
 * half str_replace of a token (same size), half insert of a short line (the file grows).
 * Deterministic, and every command valid.
 */
import type { MemoryCommandInput } from '../../src/core/memory/types';
import { seededRandom } from '../engine/workload';

export function editHeavyWorkload(count: number, files = 20, seed = 11): MemoryCommandInput[] {
  const rnd = seededRandom(seed);
  let serial = 0;
  const token = () => `t${serial++}x${Math.floor(rnd() * 1e6).toString(36)}`;
  const tokens: string[][] = [];
  const lineCounts: number[] = [];
  const ops: MemoryCommandInput[] = [];
  for (let f = 0; f < files && ops.length < count; f++) {
    const lines = Array.from({ length: 10 }, () => token());
    tokens.push(lines);
    lineCounts.push(lines.length);
    ops.push({ command: 'create', path: `/memories/log/f${f}.md`, file_text: lines.map((t) => `- note ${t}`).join('\n') });
  }
  while (ops.length < count) {
    const f = Math.floor(rnd() * tokens.length);
    const path = `/memories/log/f${f}.md`;
    if (rnd() < 0.5) {
      const i = Math.floor(rnd() * tokens[f].length);
      const next = token();
      ops.push({ command: 'str_replace', path, old_str: tokens[f][i], new_str: next });
      tokens[f][i] = next;
    } else {
      const at = Math.floor(rnd() * (lineCounts[f] + 1));
      ops.push({ command: 'insert', path, insert_line: at, insert_text: `- step ${serial++}` });
      lineCounts[f]++;
    }
  }
  return ops;
}
