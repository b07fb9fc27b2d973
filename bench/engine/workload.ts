/**
 * A deterministic mixed memory workload: the same seed always gives the same commands. A small
 * model of the store (folders, files, their lines) makes nearly every command valid for every
 * implementation under test (ours, the SDK's, bare fs), so that all of them do the same work:
 * no create over an existing file, str_replace on a token that occurs once on one line, inserts
 * within the line count, renames into folders that exist, deletes of files that exist.
 */
import type { MemoryCommandInput } from '../../src/core/memory/types';

/** mulberry32: tiny, fast, good enough to pick operations. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FOLDERS = ['notes', 'projects', 'projects/alpha', 'projects/beta', 'people', 'decisions', 'decisions/2026', 'howto', 'bugs', 'ideas'];

/** Operation mix in percent. */
export const MIX = { create: 22, viewFile: 25, viewFolder: 7, viewRoot: 1, str_replace: 15, insert: 12, rename: 8, delete: 10 } as const;

export function generateWorkload(count: number, seed = 20250818): MemoryCommandInput[] {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  let serial = 0;
  const fact = () => {
    const n = serial++;
    return { token: `value-${n}-${Math.floor(rnd() * 1e9).toString(36)}`, n };
  };
  const line = () => {
    const { token, n } = fact();
    return `- fact ${n}: the build uses ${token} and should keep doing so after the refactor`;
  };
  const files = new Map<string, string[]>(); // /memories/... → lines (no trailing newline)
  const folders = new Set<string>();
  const ops: MemoryCommandInput[] = [];
  const weights = Object.entries(MIX) as [keyof typeof MIX, number][];
  const total = weights.reduce((s, [, w]) => s + w, 0);

  while (ops.length < count) {
    let r = rnd() * total;
    let kind: keyof typeof MIX = 'create';
    for (const [k, w] of weights) {
      if ((r -= w) < 0) {
        kind = k;
        break;
      }
    }
    if (files.size < 5 && kind !== 'viewRoot') kind = 'create';
    const names = [...files.keys()];
    switch (kind) {
      case 'create': {
        const folder = pick(FOLDERS);
        const path = `/memories/${folder}/f${serial}.md`;
        const lines = Array.from({ length: 3 + Math.floor(rnd() * 6) }, line);
        files.set(path, lines);
        folders.add(folder);
        ops.push({ command: 'create', path, file_text: lines.join('\n') });
        break;
      }
      case 'viewFile': {
        const path = pick(names);
        ops.push(rnd() < 0.2 ? { command: 'view', path, view_range: [1, 3] } : { command: 'view', path });
        break;
      }
      case 'viewFolder':
        ops.push({ command: 'view', path: `/memories/${pick([...folders])}` });
        break;
      case 'viewRoot':
        ops.push({ command: 'view', path: '/memories' });
        break;
      case 'str_replace': {
        const path = pick(names);
        const lines = files.get(path)!;
        const i = Math.floor(rnd() * lines.length);
        const old = /value-[0-9]+-[0-9a-z]+/.exec(lines[i])![0];
        const { token } = fact();
        lines[i] = lines[i].replace(old, token);
        ops.push({ command: 'str_replace', path, old_str: old, new_str: token });
        break;
      }
      case 'insert': {
        const path = pick(names);
        const lines = files.get(path)!;
        const at = Math.floor(rnd() * (lines.length + 1));
        const text = line();
        lines.splice(at, 0, text);
        ops.push({ command: 'insert', path, insert_line: at, insert_text: text });
        break;
      }
      case 'rename': {
        const from = pick(names);
        const to = `/memories/${pick([...folders])}/r${serial++}.md`;
        files.set(to, files.get(from)!);
        files.delete(from);
        ops.push({ command: 'rename', old_path: from, new_path: to });
        break;
      }
      case 'delete': {
        const path = pick(names);
        files.delete(path);
        ops.push({ command: 'delete', path });
        break;
      }
    }
  }
  return ops;
}

/** Counts of each command in a workload, for the report. */
export function describeWorkload(ops: MemoryCommandInput[]): string {
  const counts = new Map<string, number>();
  for (const op of ops) {
    const key = op.command === 'view' ? (op.path.endsWith('.md') ? 'view file' : 'view folder') : op.command;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, v]) => `${k} ${v}`).join(', ');
}
