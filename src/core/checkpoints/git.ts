/**
 * How the checkpoint store talks to git: every call goes through a `GitRunner` (the Node adapter
 * spawns `git`; core never does), with the arguments and the environment built here, so the
 * rules that keep the workspace's own git out of the way live in one place:
 * - `--git-dir` is the checkpoint repository (outside the workspace) and `--work-tree` the
 *   folder: the user's repository, index, stash and HEAD are never read or written;
 * - the environment is built from nothing (no GIT_DIR, GIT_INDEX_FILE, GIT_CONFIG_* of the
 *   caller), global and system config are off, so neither a user's nor a repository's config
 *   can run code (hooks, fsmonitor, filters, pagers) or change bytes (autocrlf);
 * - the in-tree `.gitattributes` are overridden by the repository's `info/attributes`
 *   (CHECKPOINT_ATTRIBUTES), so no attribute converts line endings or runs a filter: a file
 *   comes back byte for byte.
 */

export interface GitResult {
  code: number;
  stdout: Uint8Array;
  stderr: string;
}

export interface GitCall {
  /** Everything after `git`. */
  args: readonly string[];
  /** The whole environment, PATH aside (the runner adds the one it finds git with). */
  env: Readonly<Record<string, string>>;
  /** Written to git's stdin. */
  input?: Uint8Array | string;
}

/** Runs one git process to its end. Never throws for a non-zero exit: the result carries it. */
export interface GitRunner {
  run(call: GitCall): Promise<GitResult>;
}

/** What overrides any `.gitattributes` in the workspace (written to `<repo>/info/attributes`). */
export const CHECKPOINT_ATTRIBUTES = '* -text -diff -merge -filter -ident -working-tree-encoding -export-subst !eol\n';

/** Config on every call: nothing the workspace or the user configured may run or convert. */
const SAFE_CONFIG: readonly string[] = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.autocrlf=false',
  'core.safecrlf=false',
  'core.symlinks=true',
  'core.filemode=true',
  'core.ignorecase=false',
  'core.precomposeunicode=false',
  'core.quotePath=false',
  'core.untrackedCache=false',
  'core.splitIndex=false',
  'core.sparseCheckout=false',
  'core.protectNTFS=true',
  'core.protectHFS=true',
  'core.pager=cat',
  'gc.auto=0',
  'maintenance.auto=false',
  'submodule.recurse=false',
  'protocol.allow=never',
  'advice.addEmbeddedRepo=false',
  'safe.directory=*',
  'user.name=Claude Workspace Memory',
  'user.email=checkpoints@claude-memory.invalid',
];

export class GitError extends Error {
  constructor(
    readonly command: string,
    readonly code: number,
    readonly stderr: string,
  ) {
    super(`git ${command} failed (exit ${code}): ${stderr.split('\n').find((l) => l.trim() !== '') ?? 'no message'}`);
    this.name = 'GitError';
  }
}

/** The repository (`gitDir`) with the workspace folder as its work tree. */
export interface CheckpointRepository {
  gitDir: string;
  workTree: string;
}

export interface GitOptions {
  input?: Uint8Array | string;
  /** Another index than the repository's own (a scratch one for building a tree). */
  indexFile?: string;
  /** Exit codes that are not failures (default: 0 only). */
  okCodes?: readonly number[];
  /** Without --git-dir and --work-tree (`init`, which takes its directory as an argument). */
  bare?: boolean;
}

export class Git {
  constructor(
    private readonly runner: GitRunner,
    readonly repo: CheckpointRepository,
  ) {}

  /** The call as it is run: for tests that check what reaches git. */
  call(args: readonly string[], options: GitOptions = {}): GitCall {
    const config = SAFE_CONFIG.flatMap((c) => ['-c', c]);
    const env: Record<string, string> = {
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_OPTIONAL_LOCKS: '0',
      GIT_AUTHOR_NAME: 'Claude Workspace Memory',
      GIT_AUTHOR_EMAIL: 'checkpoints@claude-memory.invalid',
      GIT_COMMITTER_NAME: 'Claude Workspace Memory',
      GIT_COMMITTER_EMAIL: 'checkpoints@claude-memory.invalid',
      HOME: this.repo.gitDir,
      LC_ALL: 'C',
    };
    if (options.indexFile !== undefined) env.GIT_INDEX_FILE = options.indexFile;
    return {
      args: options.bare === true ? [...config, ...args] : [...config, `--git-dir=${this.repo.gitDir}`, `--work-tree=${this.repo.workTree}`, ...args],
      env,
      input: options.input,
    };
  }

  async run(args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
    const result = await this.runner.run(this.call(args, options));
    if (!(options.okCodes ?? [0]).includes(result.code)) throw new GitError(args[0] ?? '', result.code, result.stderr);
    return result;
  }

  /** stdout as text, trimmed of its last line break. */
  async text(args: readonly string[], options: GitOptions = {}): Promise<string> {
    return decode((await this.run(args, options)).stdout).replace(/\n$/, '');
  }

  /** stdout split at NUL (for `-z` output), empty records dropped. */
  async records(args: readonly string[], options: GitOptions = {}): Promise<string[]> {
    return decode((await this.run(args, options)).stdout).split('\0').filter((r) => r !== '');
  }
}

const decoder = new TextDecoder();
export function decode(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** A pathspec that names exactly this path (no wildcards, no magic). */
export function literalPathspec(path: string): string {
  return `:(literal)${path}`;
}

/** A pathspec that leaves exactly this path (and anything below it) out. */
export function excludePathspec(path: string): string {
  return `:(exclude,literal)${path}`;
}
