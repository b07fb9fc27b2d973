/**
 * What one sandboxed command may write and read, computed from the workspace folder (never from
 * this process's working directory) before it starts, from the one table of protected places
 * (core/workspace/protectedPaths.ts):
 *
 * - Writable: the workspace folder and the shell's private TMPDIR (`workspace` access), plus, for
 *   a workspace that is a linked worktree or a submodule checkout, the parts of its git directory
 *   a commit writes (the git directory itself, and the common directory's objects, refs and logs).
 *   Nothing with `read-only` access.
 * - Never writable inside those: the table's places at the workspace folder's root, the home
 *   folder's (with its credential places and PATH folders) when a command could write there (the
 *   workspace is the home folder or holds it), the memory folder, and
 *   git's places wherever git would look (gitPlaces.ts): each git directory's config,
 *   config.worktree, commondir, gitdir, hooks and info, every `.git` file, the configuration files
 *   git reads (includes too), the hooks path, the fsmonitor program.
 * - Never readable: the table's credential places, the memory folder's .meta, this tool's state
 *   (other projects' checkpoint repositories, quarantined files) and other shells' private folders.
 *
 * On Linux this becomes bubblewrap's mounts (`bwrapArgs`): a read-only bind of what exists, and
 * the folders above it pinned so that nothing above can be moved aside. A place that does not
 * exist gets no mount (a mount needs an entry, which every tool in the folder would see: the
 * phantom `.bashrc`, `.vscode`, … that made `git add -A` fail); it is in the snapshot instead,
 * and sandboxCheck.ts moves out whatever a command made there, before anyone else acts on it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CommandAccess } from '../../core/workspace/bashTool';
import { CREDENTIAL_PLACES, PROTECTED_PLACES } from '../../core/workspace/protectedPaths';
import { commonDirOf, findGitPlaces, gitFileTarget, protectedEntriesOf, realOrUndefined, type GitPlaces } from './gitPlaces';

export interface PlanInput {
  workspace: string;
  memoryFolder?: string;
  access: CommandAccess;
  /** The shell's own private folder (holds its TMPDIR and its command file). */
  shellDir: string;
  /** Its TMPDIR (writable with `workspace` access). */
  tmpDir: string;
  /** The folder that holds every shell's private folder: hidden but for this shell's own. */
  shellsRoot: string;
  /** This tool's state (checkpoint repositories, quarantine): hidden. */
  stateRoot?: string;
  /** Read-only paths (the shell's protocol files). */
  readOnly: readonly string[];
  /** Default os.homedir(). */
  home?: string;
  /** Default process.env.PATH. */
  pathEnv?: string;
  /** Ask git which configuration files it reads (default true). */
  gitConfig?: boolean;
}

/** What a path was before the command, to tell whether the command made or changed it. */
export type EntryState = { kind: 'absent' } | { kind: 'link'; target: string } | { kind: 'entry'; dev: number; ino: number; dir: boolean };

/** What the check after the command compares against (sandboxCheck.ts). */
export interface Snapshot {
  workspace: string;
  home: string;
  tmpDir: string;
  writeRoots: string[];
  /** Protected paths (as named, not resolved) and what each was. */
  watched: Map<string, EntryState>;
  git: GitPlaces;
}

export interface Boundary {
  writeRoots: string[];
  /** Existing protected places inside a writable root, resolved: bound read-only. */
  readOnlyBinds: string[];
  /** Folders above them inside a writable root: pinned (bound read-only beneath the writable binds). */
  pins: string[];
  hideDirs: string[];
  hideFiles: string[];
  /** Every protected place as named (for macOS's sandbox, which refuses absent paths too). */
  denyWrite: string[];
  snapshot?: Snapshot;
  shellDir: string;
  tmpDir: string;
  shellsRoot: string;
  readOnly: readonly string[];
  access: CommandAccess;
}

export function planBoundary(input: PlanInput): Boundary {
  const home = input.home ?? os.homedir();
  const workspace = realOrUndefined(input.workspace) ?? path.resolve(input.workspace);
  const tmpDir = realOrUndefined(input.tmpDir) ?? input.tmpDir;
  const writing = input.access === 'workspace';
  const own = writing ? ownGitDir(workspace) : undefined;
  const git = writing ? findGitPlaces(workspace, { gitConfig: input.gitConfig, extraGitDirs: own === undefined ? [] : [own] }) : undefined;
  const writeRoots = writing ? [workspace, tmpDir, ...commitGrants(workspace, own)] : [];
  const inWriteRoot = (p: string) => writeRoots.some((root) => isAtOrUnder(p, root));
  const realHome = realOrUndefined(home) ?? home;
  const homeWritable = writing && inWriteRoot(realHome);

  // Every protected place, as named.
  const named = new Set<string>();
  for (const place of PROTECTED_PLACES) if (place.scope === 'workspace') named.add(path.join(workspace, place.name));
  if (homeWritable) {
    // The workspace is the home folder or holds it: what shells and tools read at start, the
    // credential places (a new ~/.aws/config could name a program), the PATH folders in it.
    for (const place of PROTECTED_PLACES) named.add(path.join(realHome, place.name));
    for (const place of CREDENTIAL_PLACES) named.add(path.join(realHome, place.path));
    for (const dir of (input.pathEnv ?? process.env.PATH ?? '').split(path.delimiter)) {
      if (path.isAbsolute(dir) && isAtOrUnder(realOrUndefined(dir) ?? path.resolve(dir), realHome)) named.add(path.resolve(dir));
    }
  }
  if (git) {
    for (const gitDir of git.gitDirs.keys()) for (const entry of protectedEntriesOf(gitDir)) named.add(entry);
    for (const file of git.gitFiles.keys()) named.add(file);
    for (const program of git.programs) named.add(program);
  }
  // The memory folder is never watched for being made: this tool makes it itself, at any time.
  const memory = input.memoryFolder === undefined ? undefined : path.resolve(input.memoryFolder);

  // Hidden from reads: credentials, .meta, this tool's state.
  const hideDirs: string[] = [];
  const hideFiles: string[] = [];
  const hide = (p: string) => {
    const real = realOrUndefined(p);
    if (real === undefined || real === '/') return;
    let stat: fs.Stats;
    try {
      stat = fs.statSync(real);
    } catch {
      return;
    }
    (stat.isDirectory() ? hideDirs : hideFiles).push(real);
  };
  for (const place of CREDENTIAL_PLACES) hide(path.join(home, place.path));
  if (memory !== undefined) hide(path.join(memory, '.meta'));
  if (input.stateRoot) hide(input.stateRoot);
  const hidden = (p: string) => hideDirs.some((d) => isAtOrUnder(p, d)) || hideFiles.includes(p);

  const readOnlyBinds = new Set<string>();
  const pins = new Set<string>();
  for (const p of memory === undefined ? named : [...named, memory]) {
    const real = realOrUndefined(p);
    if (real === undefined || !inWriteRoot(real) || hidden(real) || writeRoots.includes(real)) continue;
    readOnlyBinds.add(real);
    // The folders above it, up to its writable root: a pinned folder cannot be renamed or removed,
    // so nothing can move the protected place aside and put another in its stead.
    const root = writeRoots.filter((r) => isAtOrUnder(real, r)).sort((a, b) => b.length - a.length)[0];
    for (let dir = path.dirname(real); dir !== root && isAtOrUnder(dir, root); dir = path.dirname(dir)) pins.add(dir);
  }
  // A place inside another that is bound read-only already needs no bind of its own.
  const sorted = [...readOnlyBinds].sort(byDepth);
  const binds = sorted.filter((p, i) => !sorted.slice(0, i).some((q) => isAtOrUnder(p, q)));

  let snapshot: Snapshot | undefined;
  if (writing) {
    const watched = new Map<string, EntryState>();
    for (const p of named) {
      // Only what a command could make: inside a writable root, not hidden (a hidden folder is a tmpfs: nothing reaches the disk).
      const parent = realOrUndefined(path.dirname(p));
      if (parent === undefined || !inWriteRoot(parent) || hidden(parent)) continue;
      watched.set(p, entryState(p));
    }
    snapshot = { workspace, home: realHome, tmpDir, writeRoots, watched, git: git! };
  }
  return {
    writeRoots,
    readOnlyBinds: binds,
    pins: [...pins].sort(byDepth),
    hideDirs: dedupeNested(hideDirs),
    hideFiles: [...new Set(hideFiles)],
    denyWrite: memory === undefined ? [...named] : [...named, memory],
    snapshot,
    shellDir: realOrUndefined(input.shellDir) ?? input.shellDir,
    tmpDir,
    shellsRoot: realOrUndefined(input.shellsRoot) ?? input.shellsRoot,
    readOnly: input.readOnly,
    access: input.access,
  };
}

/**
 * bubblewrap's filesystem arguments for the boundary: the host read-only, the pins, the writable
 * roots, the protected places read-only, then what is hidden (last, so no bind brings it back),
 * then this shell's own folder back (read-only) with its TMPDIR (writable with `workspace` access).
 */
export function bwrapArgs(boundary: Boundary): string[] {
  const args = ['--ro-bind', '/', '/'];
  // Beneath everything: bound where the host's own root shows them, the pins are covered by the
  // writable binds (nothing is read through them) and still make their folders mount points.
  for (const dir of boundary.pins) args.push('--ro-bind', dir, dir);
  for (const root of boundary.writeRoots) if (root !== boundary.tmpDir) args.push('--bind', root, root);
  // Other shells' private folders (their TMPDIR, their commands): a tmpfs over all, this one's back.
  args.push('--tmpfs', boundary.shellsRoot, '--ro-bind', boundary.shellDir, boundary.shellDir);
  if (boundary.access === 'workspace') args.push('--bind', boundary.tmpDir, boundary.tmpDir);
  args.push('--remount-ro', boundary.shellsRoot);
  for (const p of boundary.readOnlyBinds) args.push('--ro-bind', p, p);
  // Last, so that no bind above brings a hidden place back.
  for (const dir of boundary.hideDirs) args.push('--tmpfs', dir, '--remount-ro', dir);
  for (const file of boundary.hideFiles) args.push('--ro-bind', '/dev/null', file);
  for (const p of boundary.readOnly) {
    const real = realOrUndefined(p);
    if (real !== undefined && !isAtOrUnder(real, boundary.shellDir)) args.push('--ro-bind', real, real);
  }
  return args;
}

/**
 * The git directory a commit in the workspace writes to: its `.git` (a folder, or the one a `.git`
 * file or link names), else that of the repository the workspace folder lies in.
 */
function ownGitDir(workspace: string): string | undefined {
  for (let dir = workspace; ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(dotGit);
    } catch {
      stat = undefined;
    }
    if (stat?.isDirectory()) return realOrUndefined(dotGit);
    if (stat?.isFile()) {
      const target = gitFileTarget(dotGit);
      return target === undefined ? undefined : realOrUndefined(target);
    }
    if (dir === path.dirname(dir)) return undefined;
  }
}

/**
 * The parts of the workspace's own git directory a commit writes, when it lies outside the
 * workspace (a linked worktree, a submodule checked out on its own, a folder inside a repository,
 * a `.git` link): that git directory, or, when it has a common directory, it and the common
 * directory's objects, refs and logs (never the common directory itself, which holds the shared
 * configuration and hooks). Its protected entries are bound read-only like every other's.
 */
function commitGrants(workspace: string, own: string | undefined): string[] {
  if (own === undefined || isAtOrUnder(own, workspace)) return [];
  const grants = [own];
  const common = commonDirOf(own);
  if (common !== undefined && common !== own) {
    for (const part of ['objects', 'refs', 'logs']) {
      const dir = path.join(common, part);
      if (isDir(dir)) grants.push(dir);
    }
  }
  return grants;
}

export function entryState(p: string): EntryState {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(p);
  } catch {
    return { kind: 'absent' };
  }
  if (stat.isSymbolicLink()) {
    try {
      return { kind: 'link', target: fs.readlinkSync(p) };
    } catch {
      return { kind: 'link', target: '' };
    }
  }
  return { kind: 'entry', dev: stat.dev, ino: stat.ino, dir: stat.isDirectory() };
}

export function sameState(a: EntryState, b: EntryState): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'link' && b.kind === 'link') return a.target === b.target;
  if (a.kind === 'entry' && b.kind === 'entry') return a.dev === b.dev && a.ino === b.ino && a.dir === b.dir;
  return true;
}

export function isAtOrUnder(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir === '/' ? '/' : `${dir}/`);
}

function byDepth(a: string, b: string): number {
  return a.split('/').length - b.split('/').length || a.localeCompare(b);
}

function dedupeNested(dirs: string[]): string[] {
  const sorted = [...new Set(dirs)].sort(byDepth);
  return sorted.filter((d, i) => !sorted.slice(0, i).some((o) => isAtOrUnder(d, o)));
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
