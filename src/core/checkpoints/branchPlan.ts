/**
 * What a rewind means for the folder's git branch: the commits made since the checkpoint (a
 * rewind of the files alone leaves them on the branch, and the rewind then shows as uncommitted
 * changes), and whether the branch may be moved back with the rewind.
 *
 * The rule (docs/chat.md, "Rewind and commits"): the branch is moved only when the checkpoint
 * explains every step of it, so nothing but those named commits leaves the branch, no work is
 * lost and `git status` afterwards is what it was before the message:
 * 1. HEAD is on the same branch as at the checkpoint (not detached, not another branch);
 * 2. the branch only moved forward since (the checkpoint's commit is an ancestor of HEAD), or,
 *    for the undo of a rewind that moved it, only back (HEAD is an ancestor of the checkpoint's
 *    commit): never after a rebase, reset or amend the checkpoint cannot explain;
 * 3. no merge, cherry-pick, revert or rebase is in progress, it is not a sparse checkout, and
 *    nothing is staged (the index is read from the checkpoint's commit; staged content that is
 *    not in the work tree would be lost);
 * 4. every file those commits change is one the rewind brings back to how it was at the
 *    checkpoint: inside the folder, in a checkpoint (not ignored, not over the size limit, not a
 *    nested repository), or a memory file when memory is checkpointed and its version then is
 *    still in history. Otherwise moving the branch would turn a commit's change to a file the
 *    rewind cannot restore into an uncommitted change, so the branch is left as it is.
 * The move itself is git's compare-and-swap on the ref (update-ref NEW OLD) with a reflog entry,
 * so the commits stay in the reflog (`git reflog`, `git reset --hard <id>` brings them back).
 */
import { branchName, type CommitLine, type WorkspaceGit, type WorkspaceHead } from './workspaceGit';

export interface BranchPlan {
  /** The branch HEAD is on now (`main`); undefined when HEAD is detached. */
  branch?: string;
  /**
   * `back`: commits were made on the branch since the checkpoint; `forward`: the branch is behind
   * the checkpoint's commit (a rewind moved it back, or you reset it); `moved`: it went elsewhere.
   */
  direction: 'back' | 'forward' | 'moved';
  /** The commits between the checkpoint's commit and HEAD (newest first, at most MAX_LISTED_COMMITS). */
  commits: CommitLine[];
  /** How many commits in all. */
  total: number;
  /** Whether the rewind can move the branch too (`rewind(id, { moveBranch })`). */
  movable: boolean;
  /** Why not, one sentence (when it is not movable). */
  reason?: string;
  /** What a move does: branch `ref` from `from` (HEAD now) to `to` (the checkpoint's commit). */
  ref?: string;
  from: string;
  to: string;
}

/** What the branch plan needs to know of the rewind: which folder-relative paths it cannot restore. */
export type CoverageCheck = (paths: readonly string[]) => Promise<string[]>;

/** Most uncovered files a reason names. */
const NAMED = 3;

/**
 * The plan for checkpoint head `then`; undefined when there is nothing to say (no repository or
 * no commit then or now, or HEAD is where it was).
 */
export async function planBranch(git: WorkspaceGit, then: WorkspaceHead | undefined, uncovered: CoverageCheck): Promise<BranchPlan | undefined> {
  if (then === undefined) return undefined;
  const state = await git.state();
  if (state === undefined) return undefined;
  const now = state.head;
  if (now.commit === then.commit && now.ref === then.ref) return undefined;
  const branch = now.ref === undefined ? undefined : branchName(now.ref);
  const base = { ...(branch !== undefined ? { branch } : {}), from: now.commit, to: then.commit };
  const back = now.commit !== then.commit && (await git.isAncestor(then.commit, now.commit));
  const forward = !back && now.commit !== then.commit && (await git.isAncestor(now.commit, then.commit));
  const listed = back || forward ? await git.commitsBetween(back ? then.commit : now.commit, back ? now.commit : then.commit) : await commitsSince(git, then.commit, now.commit);
  const direction = back ? 'back' : forward ? 'forward' : 'moved';
  const plan = (reason: string | undefined): BranchPlan => ({ ...base, direction, ...listed, movable: reason === undefined, ...(reason !== undefined ? { reason } : {}), ...(reason === undefined ? { ref: now.ref } : {}) });

  if (now.ref === undefined) return plan('HEAD is detached: there is no branch to move.');
  if (then.ref !== now.ref) return plan(`HEAD is on ${branch} now, not on ${then.ref === undefined ? 'the detached commit' : branchName(then.ref)} as before this message.`);
  if (now.commit === then.commit) return undefined;
  if (!back && !forward) return plan(`${branch} was rebased, reset or amended since this message: the checkpoint cannot tell what moving it would drop.`);
  const operation = await git.operationInProgress();
  if (operation !== undefined) return plan(`${capitalized(operation)} is in progress.`);
  if (await git.isSparse()) return plan('This is a sparse checkout: moving the branch here is left to you.');
  if (await git.hasStagedChanges(now.commit)) return plan('You have staged changes (moving the branch resets the index): commit or unstage them first.');
  const paths = await git.pathsBetween(then.commit, now.commit);
  const outside = paths.filter((p) => !p.startsWith(state.prefix));
  const inside = paths.filter((p) => p.startsWith(state.prefix)).map((p) => p.slice(state.prefix.length));
  const missing = [...outside.map((p) => `${p} (outside this folder)`), ...(await uncovered(inside))];
  if (missing.length > 0) {
    const named = missing.slice(0, NAMED).join(', ') + (missing.length > NAMED ? ` and ${missing.length - NAMED} more` : '');
    return plan(`The commits also change files the rewind cannot bring back: ${named}.`);
  }
  return plan(undefined);
}

/** The commits on HEAD that the checkpoint's commit does not have (empty when that commit is gone). */
async function commitsSince(git: WorkspaceGit, then: string, now: string): Promise<{ commits: CommitLine[]; total: number }> {
  try {
    return await git.commitsBetween(then, now);
  } catch {
    return { commits: [], total: 0 };
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "1 commit", "3 commits". */
export function commitCount(n: number): string {
  return `${n} ${n === 1 ? 'commit' : 'commits'}`;
}

/**
 * One line about the branch: "1 commit since stays on main: e8da554 Add remove()", or what moving
 * it does (`moving`), or did (`moved`: after the rewind).
 */
export function branchLine(plan: BranchPlan, moving: boolean, tense: 'will' | 'did' = 'will'): string {
  const where = plan.branch ?? 'HEAD';
  const subject = plan.branch === undefined ? 'HEAD' : `Branch ${plan.branch}`;
  const one = plan.total === 1;
  const first = plan.commits[0] === undefined ? '' : `: ${plan.commits[0].id} ${plan.commits[0].subject}${plan.total > 1 ? ` and ${plan.total - 1} more` : ''}`;
  const did = tense === 'did';
  if (plan.direction === 'forward') {
    if (moving) return did ? `${subject} moved forward again: ${commitCount(plan.total)} ${one ? 'is' : 'are'} back on it${first}` : `${subject} moves forward again: ${commitCount(plan.total)} come${one ? 's' : ''} back${first}`;
    return `${subject} stays ${commitCount(plan.total)} behind this checkpoint${first}`;
  }
  if (plan.total === 0) return `${subject} moved since this message; it is left as it is`;
  if (moving) return did ? `${subject} moved back: ${commitCount(plan.total)} left it (kept in the reflog)${first}` : `${subject} moves back: ${commitCount(plan.total)} leave${one ? 's' : ''} it (kept in the reflog)${first}`;
  return `${commitCount(plan.total)} since stay${one ? 's' : ''} on ${where}${first}`;
}
