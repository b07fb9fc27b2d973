/**
 * What a checkpoint is (its id, time, prompt, memory position and the files left out), how it is
 * read back from its ref's message, and what the store is told and answers: the checkpoint
 * store's shapes (checkpointStore.ts keeps the git work).
 */
import type { RewindPlan, SkippedFile } from './rewindPlan';
import type { WorkspaceGit, WorkspaceHead } from './workspaceGit';

/** Why a checkpoint was taken. */
export type CheckpointKind = 'chat' | 'run' | 'rewind';

export interface CheckpointInfo {
  id: number;
  /** Milliseconds since the epoch. */
  time: number;
  kind: CheckpointKind;
  /** The message or prompt it was taken before (first 500 characters). */
  prompt: string;
  /** The chat it belongs to, when it is a chat's. */
  session?: string;
  /** The memory history's newest version then; undefined: no memory store was checkpointed. */
  memoryVersion?: number;
  /** Files over the size limit: not in the checkpoint. */
  skipped: SkippedFile[];
  /** The folder's own git HEAD then (undefined: no repository, no commit yet, or an older checkpoint). */
  head?: WorkspaceHead;
  commit: string;
}

/** What the checkpoint store needs to know about the work tree that git does not say. */
export interface WorkTreeProbe {
  /** A regular file's or symlink's size in bytes (lstat); undefined for a folder or when it is gone. */
  sizeOf(rel: string): Promise<number | undefined>;
  /** When an entry (file, link or folder) was last modified, in ms since the epoch (lstat); undefined when it is gone. */
  modifiedAt?(rel: string): Promise<number | undefined>;
}

export interface CheckpointStoreOptions {
  /** Files above this many bytes are not snapshotted. */
  maxFileBytes: number;
  /** Newest checkpoints kept (older refs are dropped). */
  maxCheckpoints?: number;
  now?: () => number;
  /** The folder's own repository: HEAD is recorded with each checkpoint, and a rewind can move the branch. */
  workspace?: WorkspaceGit;
  /** The memory folder, relative to the folder (`.claude-memories`): its files are memory's, rewound through history. */
  memoryFolder?: string;
}

/** What a rewind may do besides the files and memory. */
export interface RewindOptions {
  /**
   * Also move the folder's branch to where it was at the checkpoint (branchPlan.ts says when it
   * may). `from`: the commit HEAD must still be on (what the preview showed); a rewind whose
   * branch cannot be moved as asked changes nothing and throws BranchNotMovableError.
   */
  moveBranch?: boolean | { from: string };
}

export interface RewindResult extends RewindPlan {
  /** The checkpoint of the state just before the rewind: rewinding to it undoes the rewind. */
  backup: CheckpointInfo;
  /** The branch was moved (plan.git says from where to where). */
  branchMoved?: true;
  /** The branch was to be moved but git refused after the files were rewound (it moved meanwhile): why. */
  branchError?: string;
}

/** The branch cannot be moved as asked: nothing was rewound. */
export class BranchNotMovableError extends Error {
  constructor(reason: string) {
    super(`The branch cannot be moved with this rewind: ${reason}`);
    this.name = 'BranchNotMovableError';
  }
}

/** The checkpoint named does not exist (a bad or unknown id). */
export class UnknownCheckpointError extends Error {
  constructor(readonly id: string) {
    super(`There is no checkpoint ${id}.`);
    this.name = 'UnknownCheckpointError';
  }
}

export const DEFAULT_CHECKPOINT_MAX_FILE_BYTES = 5 * 1024 * 1024;
const NESTED_REPO = /^error: '(.+?)\/?' does not have a commit checked out$/m;

/**
 * The paths `git add` refused, from its message: a nested repository without a commit, a path
 * beyond a symbolic link (its folder became a link), paths inside a folder ignored now.
 */
export function refusedByAdd(stderr: string): string[] {
  const refused: string[] = [];
  const nested = NESTED_REPO.exec(stderr);
  if (nested !== null) refused.push(nested[1]);
  for (const m of stderr.matchAll(/^fatal: pathspec ':\(literal\)(.+)' is beyond a symbolic link$/gm)) refused.push(m[1]);
  const ignored = stderr.indexOf('The following paths are ignored by one of your .gitignore files:\n');
  if (ignored >= 0) {
    for (const line of stderr.slice(ignored).split('\n').slice(1)) {
      if (line === '' || line.startsWith('hint:') || line.startsWith('Use -f')) break;
      refused.push(line);
    }
  }
  return refused;
}

/** A checkpoint's metadata from its commit message; undefined when it is not one of ours. */
export function parseMeta(text: string, id: number, commit: string): CheckpointInfo | undefined {
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  try {
    const m = JSON.parse(text) as Partial<CheckpointInfo>;
    if (typeof m.time !== 'number' || typeof m.prompt !== 'string') return undefined;
    const kind: CheckpointKind = m.kind === 'run' || m.kind === 'rewind' ? m.kind : 'chat';
    const skipped = Array.isArray(m.skipped) ? m.skipped.filter((s): s is SkippedFile => typeof s?.path === 'string' && typeof s.size === 'number') : [];
    const info: CheckpointInfo = { id, time: m.time, kind, prompt: m.prompt, skipped, commit };
    if (typeof m.session === 'string') info.session = m.session;
    if (typeof m.memoryVersion === 'number') info.memoryVersion = m.memoryVersion;
    const head = m.head as Partial<WorkspaceHead> | undefined;
    if (typeof head?.commit === 'string' && /^[0-9a-f]{40,64}$/.test(head.commit)) {
      info.head = { commit: head.commit, ...(typeof head.ref === 'string' && head.ref.startsWith('refs/heads/') ? { ref: head.ref } : {}) };
    }
    return info;
  } catch {
    return undefined;
  }
}
