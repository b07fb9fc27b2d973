/**
 * The memory half of a checkpoint: the store's history position (its newest version number),
 * and a rewind that brings every memory file changed since back to its state then — through
 * the engine's own history writes (restore, delete), by the user, so the rewind itself is a
 * set of versions that can be undone one by one in the Memory Changes feed.
 */
import type { HistoryEntry } from '../memory/history/types';
import type { Author } from '../memory/history/types';

/** What the checkpoint store needs of a memory engine (MemoryEngine has all of it). */
export interface CheckpointMemoryEngine {
  history(): Promise<readonly HistoryEntry[]>;
  fileUses(): Promise<readonly { rel: string }[]>;
  noticeChange(rel: string): Promise<number | undefined>;
  restore(rel: string, version: number, author?: Author): Promise<number | undefined>;
  delete(rel: string, author?: Author): Promise<void>;
}

/** One memory file's part of a rewind. */
export type MemoryStep =
  /** The file gets the content it had at `version` (it is changed or was deleted since). */
  | { rel: string; action: 'restore'; version: number }
  /** The file was created (or renamed here) since: it goes. */
  | { rel: string; action: 'remove' }
  /** Its content then is gone from history (retention pruned it): left as it is. */
  | { rel: string; action: 'unavailable' };

/** A file as history knows it at a point: its version, or undefined when it did not exist. */
type FileState = HistoryEntry | undefined;

/**
 * What a rewind of memory to `position` does, from the history alone (pure): every path a
 * version after `position` touched (a rename touches both its paths) whose state then differs
 * from its state now. `available(version)` says whether a version's content is still stored.
 */
export function planMemoryRewind(history: readonly HistoryEntry[], position: number, available: (version: number) => boolean = () => true): MemoryStep[] {
  const touched = new Set<string>();
  for (const e of history) {
    if (e.version <= position) continue;
    touched.add(e.path);
    if (e.oldPath !== undefined) touched.add(e.oldPath);
  }
  const steps: MemoryStep[] = [];
  for (const rel of [...touched].sort()) {
    const then = stateAt(history, rel, position);
    const now = stateAt(history, rel, Number.POSITIVE_INFINITY);
    if (then === undefined && now === undefined) continue;
    if (then !== undefined && now !== undefined && then.sha256 === now.sha256) continue;
    if (then === undefined) steps.push({ rel, action: 'remove' });
    else steps.push(available(then.version) ? { rel, action: 'restore', version: then.version } : { rel, action: 'unavailable' });
  }
  // Removals first: a file renamed since leaves its new path before its old one comes back.
  return [...steps.filter((s) => s.action === 'remove'), ...steps.filter((s) => s.action !== 'remove')];
}

/** The file at `rel` after every version up to `position`. */
function stateAt(history: readonly HistoryEntry[], rel: string, position: number): FileState {
  let state: FileState;
  for (const e of history) {
    if (e.version > position) break;
    if (e.path === rel) state = e.op === 'delete' ? undefined : e;
    else if (e.op === 'rename' && e.oldPath === rel) state = undefined;
  }
  return state;
}

/** The memory store as a checkpoint sees it. */
export class CheckpointMemory {
  constructor(
    private readonly engine: CheckpointMemoryEngine,
    private readonly author: Author,
  ) {}

  /**
   * The history position now. Every memory file is noticed first, so a change made outside
   * the engine (an editor, git) is a version of its own and the position covers it.
   */
  async position(): Promise<number> {
    for (const use of await this.engine.fileUses()) {
      // A file that went meanwhile, or a store without history: the position is history's.
      await this.engine.noticeChange(use.rel).catch(() => undefined);
    }
    return (await this.engine.history()).at(-1)?.version ?? 0;
  }

  /** The paths a rewind to `position` would change, and how (no side effects). */
  async plan(position: number): Promise<MemoryStep[]> {
    const history = await this.engine.history();
    // Contents pruned by retention are found when restored; the plan can't know cheaply.
    return planMemoryRewind(history, position);
  }

  /** Carries out the plan; steps that cannot be done come back as 'unavailable'. */
  async apply(steps: readonly MemoryStep[]): Promise<MemoryStep[]> {
    const done: MemoryStep[] = [];
    for (const step of steps) {
      try {
        if (step.action === 'remove') await this.engine.delete(step.rel, this.author);
        else if (step.action === 'restore') await this.engine.restore(step.rel, step.version, this.author);
        done.push(step);
      } catch {
        done.push({ rel: step.rel, action: 'unavailable' });
      }
    }
    return done;
  }
}
