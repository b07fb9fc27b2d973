/**
 * What a rewind changes, as pure functions over what git reports: the preview the user sees
 * is exactly what the apply step carries out (both come from here).
 */
import type { BranchPlan } from './branchPlan';
import type { MemoryStep } from './memoryRewind';

/** One workspace file's part of a rewind (or of "changed since" in a listing). */
export interface FileChange {
  path: string;
  /**
   * `restore`: changed since, gets its content then back; `remove`: created since, goes;
   * `bring back`: deleted since, comes back.
   */
  change: 'restore' | 'remove' | 'bring back';
}

/** A file a checkpoint did not cover: over the size limit then, or now. */
export interface SkippedFile {
  path: string;
  size: number;
}

export interface RewindPlan {
  checkpointId: number;
  files: FileChange[];
  /** Files over the size limit at the checkpoint or now: left exactly as they are. */
  notRestored: SkippedFile[];
  /** Files deleted since that the .gitignore files ignore now: not brought back (ignored files stay). */
  leftIgnored: string[];
  memory: MemoryStep[];
  /** The folder's git branch: commits made since the checkpoint, and whether the rewind may move it (undefined: nothing to say). */
  git?: BranchPlan;
}

/**
 * `git diff-tree -r -z --no-renames --name-status NOW THEN` → what going from NOW to THEN does
 * to each file. The output is `STATUS\0PATH\0` pairs.
 */
export function parseNameStatus(records: readonly string[]): FileChange[] {
  const changes: FileChange[] = [];
  for (let i = 0; i + 1 < records.length; i += 2) {
    const status = records[i].trim();
    const path = records[i + 1];
    // A: in THEN only (deleted since); D: in NOW only (created since); M, T: changed.
    const change = status === 'A' ? 'bring back' : status === 'D' ? 'remove' : 'restore';
    changes.push({ path, change });
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Every skipped file once (the bigger size when it was skipped both times), by path. */
export function mergeSkipped(...lists: readonly (readonly SkippedFile[])[]): SkippedFile[] {
  const byPath = new Map<string, SkippedFile>();
  for (const list of lists) for (const f of list) if ((byPath.get(f.path)?.size ?? -1) < f.size) byPath.set(f.path, f);
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** "3 files, 2 memory files" — what a plan touches, for a confirmation or a list row. */
export function planSummary(plan: Pick<RewindPlan, 'files' | 'memory'>): string {
  const files = plan.files.length;
  const memory = plan.memory.filter((m) => m.action !== 'unavailable').length;
  if (files === 0 && memory === 0) return 'nothing changed since';
  const parts: string[] = [];
  if (files > 0) parts.push(`${files} ${files === 1 ? 'file' : 'files'}`);
  if (memory > 0) parts.push(`${memory} memory ${memory === 1 ? 'file' : 'files'}`);
  return parts.join(', ');
}
