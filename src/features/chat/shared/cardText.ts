/**
 * The words on the chat's tool cards that carry a fact: how a command ended, where a workspace
 * file is, which lines a read covered. Pure (no `vscode`, no DOM): the webview's renderer
 * (media/src/render.ts) and the extension both use it, and unit tests check it in plain Node.
 */
import type { CommandExit, ToolFile } from './protocol';

/** How a finished command ended, as its card's header says it. `failed` turns the ✓ into a red ✗. */
export interface CommandOutcome {
  failed: boolean;
  /** Short, in the header next to the status icon ("exit 1", "timed out"); empty for a clean exit 0. */
  label: string;
  /** For screen readers and the hover: a sentence. */
  description: string;
}

export function commandOutcome(exit: CommandExit): CommandOutcome {
  if (exit.ended === 'timeout') return { failed: true, label: 'timed out', description: 'stopped by the per-command timeout; its processes were killed' };
  if (exit.ended === 'cancelled') return { failed: true, label: 'stopped', description: 'stopped by you; its processes were killed' };
  if (exit.ended === 'restart') return { failed: true, label: 'stopped', description: 'stopped when the shell restarted' };
  if (exit.code === undefined) return { failed: true, label: 'killed', description: 'ended without an exit code (killed by a signal)' };
  if (exit.code === 0) return { failed: false, label: '', description: 'exit code 0' };
  return { failed: true, label: `exit ${exit.code}`, description: `failed with exit code ${exit.code}` };
}

/** A folder-relative path split for a narrow header: the name first (never cut), then its folder. */
export function splitPath(path: string): { name: string; folder: string } {
  const trimmed = path.replace(/\/+$/, '');
  const slash = trimmed.lastIndexOf('/');
  if (slash < 0) return { name: trimmed === '' ? '.' : trimmed, folder: '' };
  return { name: trimmed.slice(slash + 1), folder: trimmed.slice(0, slash + 1) };
}

/**
 * A read's lines as the header shows them after the name ("19–22", "19–end"), or undefined for a
 * whole file. `range` is the tool's view_range: 1-based, inclusive, -1 for the end of the file.
 */
export function rangeLabel(range: ToolFile['range']): string | undefined {
  if (!range) return undefined;
  const [start, end] = range;
  if (end === -1) return `${start}–end`;
  return start === end ? `${start}` : `${start}–${end}`;
}

/**
 * The expanded body of a successful `view` card: what was read, without repeating the path
 * (the header has it). "Lines 19–22 of 40", "All 40 lines", "The folder's listing".
 */
export function readSummary(file: ToolFile): string {
  if (file.directory) return 'The folder\'s listing (2 levels deep)';
  const total = file.lines;
  const of = total !== undefined ? ` of ${total}` : '';
  if (!file.range) return total !== undefined ? `All ${total} line${total === 1 ? '' : 's'}` : 'The whole file';
  const [start, end] = file.range;
  const last = end === -1 ? total : end;
  if (last === undefined) return `Lines ${start} to the end`;
  return start === last ? `Line ${start}${of}` : `Lines ${start}–${last}${of}`;
}

/** The line a file link opens at (1-based): a read's first line, an insert's line; undefined: the top. */
export function openLine(file: ToolFile): number | undefined {
  if (file.range) return Math.max(1, file.range[0]);
  return file.line !== undefined && file.line > 0 ? file.line : undefined;
}

/** Output longer than this many lines gets a "Show all" toggle under its (tail-first) box. */
export const OUTPUT_TAIL_LINES = 10;

/** Lines of a command's output, for "Show all (N lines)". A final newline ends a line, it adds none. */
export function outputLineCount(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}
