/** What a tool card shows of its call: the tool's name, the file and its link, an edit's size, a command's end, a memory change. */
import type { ToolCallDetail } from '../../core/agent/tools';
import { EDITOR_TOOL } from '../../core/workspace/messages';
import { parseWorkspacePath, type WorkspaceFolderInfo } from '../../core/workspace/paths';
import type { CommandExit, ToolChange, ToolEdit, ToolFile } from './shared/protocol';

/** The tool's name on a card; memory (the default) is left out. */
export function toolName(tool: string | undefined): { tool?: string } {
  return tool && tool !== 'memory' ? { tool } : {};
}

/**
 * Lines added and removed between two texts (a card's "+3 −1"): the longest common subsequence of
 * the lines between their common start and end; for very large changes, the sizes of that middle.
 * Lines are counted as git counts them (the change summary's figures come from git): each with its
 * line break, so a file's last line break adds no line, and a last line that gains or loses its
 * break is one line out and one in.
 */
export function lineCounts(before: string | undefined, after: string): { added: number; removed: number } {
  const a = before === undefined ? [] : gitLines(before);
  const b = gitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const x = a.slice(start, a.length - end);
  const y = b.slice(start, b.length - end);
  if (x.length * y.length > 4_000_000) return { added: y.length, removed: x.length };
  let row = new Array<number>(y.length + 1).fill(0);
  for (const line of x) {
    const next = new Array<number>(y.length + 1).fill(0);
    for (let j = 0; j < y.length; j++) next[j + 1] = line === y[j] ? row[j] + 1 : Math.max(row[j + 1], next[j]);
    row = next;
  }
  const common = row[y.length];
  return { added: y.length - common, removed: x.length - common };
}

/** The lines of `text` as git sees them: each with its line break (the last one may have none). */
function gitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

export function editOf(path: string, before: string | undefined, after: string): ToolEdit {
  return { path, ...lineCounts(before, after) };
}

/** A bash command's end, from its result's detail. */
export function exitOf(detail: ToolCallDetail | undefined): CommandExit | undefined {
  if (detail?.kind !== 'command') return undefined;
  return { ...(detail.exitCode !== undefined ? { code: detail.exitCode } : {}), ...(detail.ended ? { ended: detail.ended } : {}) };
}

/** The 1-based line where `after` first differs from `before` (undefined when they are equal). */
export function firstChangedLine(before: string, after: string): number | undefined {
  if (before === after) return undefined;
  const a = before.split('\n');
  const b = after.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return Math.min(i, Math.max(0, b.length - 1)) + 1;
}

export function changeOf(detail: ToolCallDetail | undefined): ToolChange | undefined {
  return detail?.kind === 'memory' ? { ...detail.change } : undefined;
}


/**
 * The workspace file of a text editor card: its path relative to the folder (from the result
 * when there is one, else the path as Claude wrote it, when it lies in the folder), with the
 * lines a read covered or the first line an edit changed. Undefined for other tools and for
 * paths outside the folder (those cards show the path as written, without a link). `folder`: the
 * folder the send's workspace tools work in.
 */
export function fileOf(tool: string | undefined, raw: string | undefined, detail: ToolCallDetail | undefined, folder: WorkspaceFolderInfo | undefined): ToolFile | undefined {
  if (tool !== EDITOR_TOOL.name) return undefined;
  if (detail?.kind === 'fileRead') {
    return { path: detail.path, ...(detail.range ? { range: [detail.range[0], detail.range[1]] as [number, number] } : {}), ...(detail.lines !== undefined ? { lines: detail.lines } : {}), ...(detail.directory ? { directory: true } : {}) };
  }
  if (detail?.kind === 'edit') {
    const line = firstChangedLine(detail.before ?? '', detail.after);
    return { path: detail.path, ...(line !== undefined ? { line } : {}) };
  }
  if (!folder || raw === undefined) return undefined;
  try {
    const rel = parseWorkspacePath(raw, folder).rel;
    return { path: rel === '' ? '.' : rel, ...(rel === '' ? { directory: true } : {}) };
  } catch {
    return undefined;
  }
}
