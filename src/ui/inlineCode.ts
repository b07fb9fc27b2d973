/**
 * Inline code (`like this`) in feature descriptions and steps, for places that cannot render
 * markdown (tree labels) and places that can (tooltips). Code spans follow CommonMark: a run of
 * n backticks up to the next run of exactly n; an unmatched run stays literal text.
 * No `vscode` import: unit-tested in plain Node.
 */
export interface TextPart {
  text: string;
  code: boolean;
}

export function inlineCodeParts(source: string): TextPart[] {
  const parts: TextPart[] = [];
  const push = (text: string, code: boolean) => {
    if (text === '') return;
    const last = parts[parts.length - 1];
    if (last && last.code === code && !code) last.text += text;
    else parts.push({ text, code });
  };
  let i = 0;
  while (i < source.length) {
    const open = source.indexOf('`', i);
    if (open < 0) break;
    let run = open;
    while (source[run] === '`') run++;
    const ticks = run - open;
    const close = closingRun(source, run, ticks);
    if (close < 0) {
      push(source.slice(i, run), false);
      i = run;
      continue;
    }
    push(source.slice(i, open), false);
    push(stripOneSpace(source.slice(run, close)), true);
    i = close + ticks;
  }
  push(source.slice(i), false);
  return parts;
}

/** For a tree label: the text with code spans' backticks removed. */
export function plainText(source: string): string {
  return inlineCodeParts(source).map((p) => p.text).join('');
}

/** A code span as markdown that survives backticks inside it. */
export function markdownCode(code: string): string {
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = code.startsWith('`') || code.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${code}${pad}${fence}`;
}

function closingRun(source: string, from: number, ticks: number): number {
  let i = from;
  while (i < source.length) {
    const next = source.indexOf('`', i);
    if (next < 0) return -1;
    let end = next;
    while (source[end] === '`') end++;
    if (end - next === ticks) return next;
    i = end;
  }
  return -1;
}

/** CommonMark: one leading and trailing space are stripped when both are there (and it is not all spaces). */
function stripOneSpace(code: string): string {
  return code.length >= 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '' ? code.slice(1, -1) : code;
}
