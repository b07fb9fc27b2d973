/**
 * The Memory tree's history in words and Uris: Show History's rows, the "Last change" line of a
 * tooltip, which files count as recently deleted, and a version diff's title.
 * Pure (no `vscode`), so it is tested in plain Node.
 */
import { describeAuthor, describeChange } from '../../core/memory/history/describe';
import type { HistoryEntry } from '../../core/memory/history/types';
import { formatAge, formatSize } from '../../ui/treeFormat';

/** One row of Show History. */
export interface VersionRow {
  label: string;
  description: string;
  detail: string;
}

/** "Claude edited" · "Claude, chat 'Fix login' · 3 min ago" · "v7 · 1.2K · 214 bytes". */
export function versionRow(entry: HistoryEntry, now: number, isCurrent: boolean): VersionRow {
  const detail = [`v${entry.version}`, `${formatSize(entry.size)} (${entry.size.toLocaleString('en-US')} bytes)`];
  if (isCurrent) detail.push('the current content');
  if (entry.redacted) detail.push('secrets redacted in this copy');
  return {
    label: describeChange(entry),
    description: `${describeAuthor(entry.author)} · ${formatAge(entry.time, now)}`,
    detail: detail.join(' · '),
  };
}

/** "Last change: Claude, chat 'Fix login', 3 min ago" for a file's tooltip. */
export function lastChangeLine(entry: HistoryEntry, now: number): string {
  return `Last change: ${describeAuthor(entry.author)}, ${formatAge(entry.time, now)}`;
}

/** The newest version of every path, by path (renames not followed: a tooltip is about this path). */
export function newestByPath(sorted: readonly HistoryEntry[]): Map<string, HistoryEntry> {
  const newest = new Map<string, HistoryEntry>();
  for (const e of sorted) newest.set(e.path, e);
  return newest;
}

/**
 * Files whose newest version is a delete, newest deletion first. (A file renamed away is not
 * deleted: its rename is the newest version of its new path.) The caller still checks that
 * nothing is at the path now: a file made again outside the engine has no version yet.
 */
export function deletedFilesOf(sorted: readonly HistoryEntry[]): HistoryEntry[] {
  return [...newestByPath(sorted).values()].filter((e) => e.op === 'delete').sort((a, b) => b.version - a.version);
}

/** "Claude · 3 min ago" under a Recently Deleted entry (who deleted it, when: the side bar is narrow). */
export function deletedDescription(entry: HistoryEntry, now: number): string {
  return `${describeAuthor(entry.author)} · ${formatAge(entry.time, now)}`;
}

/** The diff editor's title: "notes.md (v7 ↔ current)". */
export function versionDiffTitle(rel: string, version: number): string {
  return `${rel.slice(rel.lastIndexOf('/') + 1)} (v${version} ↔ current)`;
}
