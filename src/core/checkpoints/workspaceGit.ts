/**
 * The folder's own git repository, as far as checkpoints look at it: where HEAD is when a
 * checkpoint is taken, which commits were made since, and moving the branch back (or forward
 * again) with a rewind when the user asks for it. Everything else stays in the checkpoint
 * repository (git.ts); this is the only place that touches the user's repository.
 *
 * What the workspace's repository cannot do to us: every call runs with hooks sent to
 * /dev/null (update-ref would run `reference-transaction`, read-tree `post-index-change`), no
 * fsmonitor, no signature checks (`log.showSignature` runs gpg), no pager, no auto gc, global
 * and system config off and the environment built from nothing (no GIT_DIR of the host). The
 * only calls are plumbing that never reads the work tree (so no clean/smudge filter runs):
 * rev-parse, rev-list, merge-base, diff-tree --name-only, diff-index --cached, config --bool,
 * update-ref and a plain read-tree (no -u, no -m).
 */
import { decode, GitError, type GitCall, type GitRunner } from './git';

/** Where HEAD was: its commit and, when it was on a branch, the branch's ref (`refs/heads/main`). */
export interface WorkspaceHead {
  commit: string;
  ref?: string;
}

/** One commit as a preview names it. */
export interface CommitLine {
  /** The abbreviated id git prints (`e8da554`). */
  id: string;
  subject: string;
}

/** What the repository says now: HEAD, and where the folder lies inside the repository. */
export interface WorkspaceState {
  head: WorkspaceHead;
  /** The folder's path below the repository's top, with a trailing slash ('' at the top). */
  prefix: string;
}

const HOOKLESS: readonly string[] = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.pager=cat',
  'log.showSignature=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'submodule.recurse=false',
  'protocol.allow=never',
];

/** Most commits a preview names (the count stays exact). */
export const MAX_LISTED_COMMITS = 20;

export class WorkspaceGit {
  constructor(
    private readonly runner: GitRunner,
    /** The workspace folder (absolute). */
    readonly folder: string,
  ) {}

  /** The call as it is run: for tests that check what reaches git. */
  call(args: readonly string[], input?: string): GitCall {
    return {
      args: ['-C', this.folder, ...HOOKLESS.flatMap((c) => ['-c', c]), ...args],
      env: {
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_TERMINAL_PROMPT: '0',
        GIT_OPTIONAL_LOCKS: '0',
        GIT_COMMITTER_NAME: 'Claude Workspace Memory',
        GIT_COMMITTER_EMAIL: 'checkpoints@claude-memory.invalid',
        HOME: '/nonexistent',
        LC_ALL: 'C',
      },
      input,
    };
  }

  private async run(args: readonly string[], okCodes: readonly number[] = [0]): Promise<{ code: number; out: string; err: string }> {
    const result = await this.runner.run(this.call(args));
    if (!okCodes.includes(result.code)) throw new GitError(args[0] ?? '', result.code, result.stderr);
    return { code: result.code, out: decode(result.stdout), err: result.stderr };
  }

  /**
   * HEAD and the folder's place in the repository, in one git call; undefined when the folder is
   * in no repository, the branch has no commit yet, or git cannot read it (then checkpoints just
   * know nothing of commits).
   */
  async state(): Promise<WorkspaceState | undefined> {
    let result;
    try {
      result = await this.run(['rev-parse', '--show-prefix', 'HEAD', '--symbolic-full-name', 'HEAD'], [0, 1, 128]);
    } catch {
      return undefined;
    }
    if (result.code !== 0) return undefined;
    const lines = result.out.split('\n');
    // --show-prefix prints an empty line at the top of the repository.
    const [prefix, commit, ref] = lines;
    if (!/^[0-9a-f]{40,64}$/.test(commit ?? '')) return undefined;
    const head: WorkspaceHead = { commit };
    if (ref !== undefined && ref.startsWith('refs/heads/')) head.ref = ref;
    return { head, prefix: prefix ?? '' };
  }

  /** Whether `ancestor` is reachable from `descendant` (a commit that no longer exists: false). */
  async isAncestor(ancestor: string, descendant: string): Promise<boolean> {
    return (await this.run(['merge-base', '--is-ancestor', ancestor, descendant], [0, 1, 128])).code === 0;
  }

  /** The commits reachable from `to` and not from `from`, newest first: the first `max`, and how many in all. */
  async commitsBetween(from: string, to: string, max = MAX_LISTED_COMMITS): Promise<{ commits: CommitLine[]; total: number }> {
    const total = Number((await this.run(['rev-list', '--count', `${from}..${to}`])).out.trim());
    // "commit <id>" lines, then the format's line: parsed so git before 2.33 (no --no-commit-header) works too.
    const out = (await this.run(['rev-list', `--max-count=${max}`, '--format=%h%x00%s', `${from}..${to}`])).out;
    const commits: CommitLine[] = [];
    for (const line of out.split('\n')) {
      const nul = line.indexOf('\0');
      if (nul < 0) continue;
      commits.push({ id: line.slice(0, nul), subject: line.slice(nul + 1) });
    }
    return { commits, total: Number.isSafeInteger(total) ? total : commits.length };
  }

  /** The paths (from the repository's top) that differ between two commits. */
  async pathsBetween(a: string, b: string): Promise<string[]> {
    const out = decode((await this.runner.run(this.call(['diff-tree', '-r', '-z', '--no-renames', '--name-only', a, b]))).stdout);
    return out.split('\0').filter((p) => p !== '');
  }

  /** True when the index differs from `commit` (staged changes, or a conflict in progress). */
  async hasStagedChanges(commit: string): Promise<boolean> {
    return (await this.run(['diff-index', '--cached', '--quiet', '--no-renames', commit, '--'], [0, 1])).code === 1;
  }

  /** A merge, cherry-pick, revert or stopped rebase in progress (its name), or undefined. */
  async operationInProgress(): Promise<string | undefined> {
    for (const [ref, what] of [['MERGE_HEAD', 'a merge'], ['CHERRY_PICK_HEAD', 'a cherry-pick'], ['REVERT_HEAD', 'a revert'], ['REBASE_HEAD', 'a rebase']] as const) {
      if ((await this.run(['rev-parse', '-q', '--verify', ref], [0, 1, 128])).code === 0) return what;
    }
    return undefined;
  }

  /**
   * Moves branch `ref` from `from` to `to` (only if it still points at `from`: git's own
   * compare-and-swap), writing a reflog entry even where reflogs are off, so the commits left
   * behind stay findable; then the index is read from `to` (the work tree is not touched: the
   * rewind already wrote it). HEAD follows, since it names the branch. A plain read-tree, not
   * `--reset`/`-m`: those refresh entries from the work tree, which runs the repository's clean
   * filters; the cost is that git status hashes the files once again afterwards.
   */
  async moveBranch(ref: string, from: string, to: string, message: string): Promise<void> {
    await this.run(['update-ref', '--create-reflog', '-m', message, ref, to, from]);
    await this.run(['read-tree', to]);
  }

  /** A sparse checkout (reading a tree into the index would forget which files are not checked out). */
  async isSparse(): Promise<boolean> {
    return (await this.run(['config', '--bool', 'core.sparseCheckout'], [0, 1])).out.trim() === 'true';
  }
}

/** `refs/heads/main` → `main`. */
export function branchName(ref: string): string {
  return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;
}
