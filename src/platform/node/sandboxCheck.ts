/**
 * The check after each sandboxed command that could write (sandboxPlan.ts says why it is needed:
 * a protected place that did not exist has no mount to keep a command from making it):
 *
 * - Every protected place the snapshot watched that the command made, replaced or removed: what it
 *   made is moved out of the folder into the quarantine (never deleted: a file the user made at
 *   that moment can be had back), a symbolic link is put back as it was.
 * - Every git repository that is new (`git init`, `git clone`, a submodule or a worktree added, a
 *   `.git` file pointing somewhere new): what git would run from it is judged, and what a plain
 *   init, clone or commit would not have written is moved out: configuration keys outside
 *   SAFE_CONFIG (programs, include files, hooks paths, aliases, …), hooks that are not git's
 *   samples, a `commondir` that leads to a git directory that was not there before.
 *
 * What was moved is said to the model (workspace-relative, `~/…` or `$TMPDIR/…`: never a host
 * path) and to the user (where it went).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { configKeys, commonDirOf, findGitPlaces, realOrUndefined } from './gitPlaces';
import { entryState, isAtOrUnder, sameState, type Snapshot } from './sandboxPlan';

/** One place the check undid: `shown` for the model, `movedTo` (a host path) for the user. */
export interface Undone {
  shown: string;
  movedTo?: string;
}

/** Where what a command made in a protected place goes: one folder per check, made when first needed. */
export class Quarantine {
  private made = false;

  constructor(readonly dir: string) {}

  /** Moves `p` (file, folder or link) into the quarantine; undefined when it could only be deleted. */
  move(p: string, shown: string): string | undefined {
    const dest = path.join(this.dir, ...shown.replace(/^[~$]+[A-Z]*\//, '').split('/').filter((s) => s !== '' && s !== '..' && s !== '.'));
    try {
      if (!this.made) {
        fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
        this.made = true;
      }
      fs.mkdirSync(path.dirname(dest), { recursive: true, mode: 0o700 });
      const target = fs.existsSync(dest) ? `${dest}.${Date.now()}` : dest;
      try {
        fs.renameSync(p, target);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
        fs.cpSync(p, target, { recursive: true, verbatimSymlinks: true, errorOnExist: true });
        fs.rmSync(p, { recursive: true, force: true });
      }
      return target;
    } catch {
      // Not movable (a full disk?): it must not stay where git or an editor would run it.
      fs.rmSync(p, { recursive: true, force: true });
      return undefined;
    }
  }
}

/**
 * Configuration keys a new repository may hold: what `git init`, `git clone`, `git remote`,
 * `git branch`, `git submodule` and `git config user.*` write, and settings that name no program,
 * file or command. `section.*.name` has a subsection; `section.*` is any key of the section.
 */
const SAFE_CONFIG = new Set([
  ...[
    'repositoryformatversion', 'filemode', 'bare', 'logallrefupdates', 'ignorecase', 'precomposeunicode', 'symlinks', 'worktree', 'autocrlf',
    'eol', 'safecrlf', 'sparsecheckout', 'sparsecheckoutcone', 'quotepath', 'compression', 'loosecompression', 'abbrev', 'untrackedcache',
    'splitindex', 'commitgraph', 'multipackindex', 'checkstat', 'trustctime', 'preloadindex', 'fscache', 'longpaths', 'protecthfs',
    'protectntfs', 'warnambiguousrefs', 'whitespace', 'bigfilethreshold', 'sharedrepository', 'commentchar', 'commentstring',
  ].map((k) => `core.${k}`),
  ...['objectformat', 'worktreeconfig', 'refstorage', 'preciousobjects', 'partialclone', 'noop'].map((k) => `extensions.${k}`),
  ...['url', 'pushurl', 'fetch', 'push', 'mirror', 'tagopt', 'prune', 'prunetags', 'promisor', 'partialclonefilter', 'skipdefaultupdate', 'skipfetchall'].map(
    (k) => `remote.*.${k}`,
  ),
  ...['remote', 'pushremote', 'merge', 'rebase', 'description'].map((k) => `branch.*.${k}`),
  ...['url', 'active', 'branch', 'fetchrecursesubmodules', 'ignore', 'shallow'].map((k) => `submodule.*.${k}`),
  'submodule.active', 'submodule.recurse',
  'user.name', 'user.email', 'user.signingkey', 'init.defaultbranch', 'commit.gpgsign', 'tag.gpgsign',
  'pull.rebase', 'pull.ff', 'push.default', 'push.autosetupremote', 'fetch.prune', 'fetch.prunetags', 'fetch.writecommitgraph',
  'merge.ff', 'merge.conflictstyle', 'rebase.autosquash', 'rebase.autostash', 'rebase.updaterefs', 'rerere.enabled', 'rerere.autoupdate',
  'status.showuntrackedfiles', 'status.submodulesummary', 'diff.renames', 'diff.algorithm', 'diff.mnemonicprefix', 'diff.noprefix',
  'log.date', 'gc.auto', 'gc.autodetach', 'gc.autopacklimit', 'pack.threads', 'receive.denycurrentbranch', 'receive.denynonfastforwards',
  'protocol.version', 'index.version', 'index.threads', 'index.skiphash', 'feature.manyfiles', 'checkout.defaultremote', 'checkout.workers',
  'clone.defaultremotename', 'lfs.repositoryformatversion',
  'advice.*', 'color.*', 'color.*.*', 'i18n.*',
]);

/** Whether `key` (lower-cased, as `git config --list` gives it) is in SAFE_CONFIG. */
export function isSafeConfigKey(key: string): boolean {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first <= 0 || last === key.length - 1) return false;
  const section = key.slice(0, first);
  const name = key.slice(last + 1);
  if (first === last) return SAFE_CONFIG.has(key) || SAFE_CONFIG.has(`${section}.*`);
  return SAFE_CONFIG.has(`${section}.*.${name}`) || SAFE_CONFIG.has(`${section}.*.*`);
}

export interface CheckOptions {
  /** Ask git for configuration (default true). */
  gitConfig?: boolean;
}

/** Compares the places `snapshot` watched and the repositories now there; undoes what a command may not have made. */
export function checkAfterCommand(snapshot: Snapshot, quarantine: Quarantine, options: CheckOptions = {}): Undone[] {
  const undone: Undone[] = [];
  const shown = (p: string) => shownPath(p, snapshot);
  const moveOut = (p: string) => {
    const movedTo = quarantine.move(p, shown(p));
    undone.push({ shown: shown(p), ...(movedTo === undefined ? {} : { movedTo }) });
  };
  for (const [p, before] of snapshot.watched) {
    const now = entryState(p);
    if (sameState(before, now)) continue;
    if (now.kind !== 'absent') moveOut(p);
    if (before.kind === 'link') {
      try {
        fs.symlinkSync(before.target, p);
        if (now.kind === 'absent') undone.push({ shown: shown(p) });
      } catch {
        // Its folder went away with it: nothing left to point from.
      }
    }
  }

  const inWriteRoot = (p: string) => snapshot.writeRoots.some((root) => isAtOrUnder(p, root));
  const after = findGitPlaces(snapshot.workspace, { gitConfig: false, extraGitDirs: [...snapshot.git.gitDirs.keys()] });
  for (const gitDir of after.gitDirs.keys()) {
    if (snapshot.git.gitDirs.has(gitDir) || !inWriteRoot(gitDir)) continue;
    let unsafe: string[];
    try {
      unsafe = unsafeInNewGitDir(gitDir, snapshot, options);
    } catch {
      // It changed while it was looked at (nothing of the command runs any more): judged whole.
      unsafe = [gitDir];
    }
    for (const p of unsafe) moveOut(p);
  }
  return undone;
}

/** What a new git directory holds that a plain init, clone, submodule or worktree add would not. */
function unsafeInNewGitDir(gitDir: string, snapshot: Snapshot, options: CheckOptions): string[] {
  const out: string[] = [];
  for (const name of ['config', 'config.worktree']) {
    const file = path.join(gitDir, name);
    const state = entryState(file);
    if (state.kind === 'absent') continue;
    if (state.kind === 'link' || state.dir) {
      out.push(file);
      continue;
    }
    const keys = options.gitConfig === false ? [] : configKeys(file);
    if (keys === undefined || !keys.every(isSafeConfigKey)) out.push(file);
  }
  const hooks = path.join(gitDir, 'hooks');
  const hooksState = entryState(hooks);
  if (hooksState.kind === 'link' || (hooksState.kind === 'entry' && !hooksState.dir)) out.push(hooks);
  else if (hooksState.kind === 'entry') {
    for (const entry of fs.readdirSync(hooks, { withFileTypes: true })) {
      if (!(entry.isFile() && entry.name.endsWith('.sample'))) out.push(path.join(hooks, entry.name));
    }
  }
  const commondir = path.join(gitDir, 'commondir');
  if (entryState(commondir).kind !== 'absent') {
    const common = commonDirOf(gitDir);
    if (common === undefined || !snapshot.git.gitDirs.has(common)) out.push(commondir);
  }
  return out;
}

/** How the model is told of `p`: workspace-relative, `~/…`, `$TMPDIR/…`, or the last two names. */
function shownPath(p: string, snapshot: Snapshot): string {
  const real = realOrUndefined(path.dirname(p));
  const full = real === undefined ? p : path.join(real, path.basename(p));
  const rel = (base: string) => path.relative(base, full).split(path.sep).join('/');
  if (isAtOrUnder(full, snapshot.workspace)) return rel(snapshot.workspace);
  if (isAtOrUnder(full, snapshot.tmpDir)) return `$TMPDIR/${rel(snapshot.tmpDir)}`;
  if (isAtOrUnder(full, snapshot.home)) return `~/${rel(snapshot.home)}`;
  return `…/${full.split(path.sep).slice(-2).join('/')}`;
}
