/**
 * Where git reads configuration and finds programs to run, found from the workspace folder (never
 * from this process's working directory): every repository in it (`.git` folders, `.git` files
 * that point elsewhere, bare repositories), what their `commondir`, `modules/<name>` and
 * `worktrees/<name>` lead to, the configuration files git itself says it reads for each
 * (`git config --list --show-origin`: includes too), the include targets not there yet, the hooks
 * path and the fsmonitor program. The OS sandbox keeps commands from writing these places
 * (sandboxPlan.ts) and checks the repositories again after each command (sandboxCheck.ts).
 *
 * Git runs here only to read configuration (`git config`), which runs no program, outside the
 * sandbox, in a clean environment.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GIT_DIR_NESTED, GIT_DIR_PROTECTED } from '../../core/workspace/protectedPaths';

/** Folders the walk does not enter: package caches that hold no repository a tool opens. */
const SKIPPED_FOLDERS = new Set(['node_modules']);
/** At most this many folders are looked at per walk, and this many repositories are queried. */
const MAX_FOLDERS = 20_000;
const MAX_GIT_DIRS = 200;
/** How deep below `modules/` submodule git directories are looked for (names may hold slashes). */
const MAX_MODULES_DEPTH = 6;

/** One git directory (real path) and where its hooks run (its work tree), when known. */
export interface GitDirectory {
  dir: string;
  workTree?: string;
}

export interface GitPlaces {
  /** Every git directory found (real paths). */
  gitDirs: Map<string, GitDirectory>;
  /** `.git` files (gitfiles, real paths of the files) and the git directory each names (real path, or undefined). */
  gitFiles: Map<string, string | undefined>;
  /** Paths git reads as configuration or runs, by repository: config files (origins, include targets), hooks paths, fsmonitor programs. */
  programs: Set<string>;
  /** False when the walk stopped at its limits: deeper repositories were not looked at. */
  complete: boolean;
}

/**
 * Git places under `root` (the workspace folder), plus `extraGitDirs` (the workspace's own git
 * directory when it lies elsewhere) and the git directories `.git` files and `commondir` files
 * lead to anywhere. `gitConfig`: whether to ask git for configuration origins
 * (false in tests that count processes, or when git is missing).
 */
export function findGitPlaces(
  root: string,
  options: { git?: string; gitConfig?: boolean; env?: NodeJS.ProcessEnv; extraGitDirs?: readonly string[]; /** Tests: how old a change must be before its answers are kept (default 2 s). */ racyMs?: number } = {},
): GitPlaces {
  const places: GitPlaces = { gitDirs: new Map(), gitFiles: new Map(), programs: new Set(), complete: true };
  const realRoot = realOrUndefined(root);
  if (realRoot === undefined) return places;
  const queue: string[] = [realRoot];
  for (let next = 0; next < queue.length; next++) {
    if (next >= MAX_FOLDERS) {
      places.complete = false;
      break;
    }
    const dir = queue[next];
    const listing = listingOf(dir, options.racyMs ?? RACY_MS);
    if (listing === undefined) continue;
    if (dir !== realRoot && listing.bare) {
      addGitDir(places, dir, undefined);
      continue;
    }
    if (listing.dotGit !== undefined) recordDotGit(places, path.join(dir, listing.dotGit), dir);
    for (const name of listing.subdirs) queue.push(path.join(dir, name));
  }
  for (const dir of options.extraGitDirs ?? []) addGitDir(places, dir, undefined);
  // What the git directories lead to: their common directories, submodules and linked worktrees.
  for (let i = 0; i < 4; i++) {
    const before = places.gitDirs.size;
    for (const gitDir of [...places.gitDirs.values()]) expandGitDir(places, gitDir.dir);
    if (places.gitDirs.size === before) break;
  }
  if (options.gitConfig !== false) {
    let asked = 0;
    for (const gitDir of places.gitDirs.values()) {
      if (++asked > MAX_GIT_DIRS) {
        places.complete = false;
        break;
      }
      for (const p of configPlacesCached(gitDir, options.git ?? 'git', options.env, options.racyMs ?? RACY_MS)) places.programs.add(p);
    }
  }
  return places;
}

/** What a walk needs of one folder: its subfolders to enter, its `.git` entry, whether it is a bare repository. */
interface Listing {
  stamp: string;
  subdirs: string[];
  dotGit?: string;
  bare: boolean;
}

/**
 * Folder listings of earlier walks, by real path, reused while the folder's inode, mtime and
 * ctime are unchanged (an entry added, removed or renamed changes them), so a walk before and
 * after every command reads only the folders that changed. A folder changed within the last
 * two seconds is not kept: another change in the same tick of a coarse clock would not show.
 */
const listings = new Map<string, Listing>();
const RACY_MS = 2000;
const MAX_LISTINGS = 200_000;

function listingOf(dir: string, racyMs: number): Listing | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(dir);
  } catch {
    return undefined;
  }
  if (!stat.isDirectory()) return undefined;
  const stamp = `${stat.dev}:${stat.ino}:${stat.mtimeMs}:${stat.ctimeMs}`;
  const known = listings.get(dir);
  if (known?.stamp === stamp) return known;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  // A folder holding HEAD, objects/ and refs/ is a bare repository to git.
  const names = new Set(entries.map((e) => e.name.toLowerCase()));
  const listing: Listing = {
    stamp,
    subdirs: entries.filter((e) => e.isDirectory() && e.name.toLowerCase() !== '.git' && !SKIPPED_FOLDERS.has(e.name)).map((e) => e.name),
    dotGit: entries.find((e) => e.name.toLowerCase() === '.git')?.name,
    bare: names.has('head') && names.has('objects') && names.has('refs'),
  };
  if (listings.size > MAX_LISTINGS) listings.clear();
  if (isSettled(stat, racyMs)) listings.set(dir, listing);
  else listings.delete(dir);
  return listing;
}

function isSettled(stat: fs.Stats, racyMs: number): boolean {
  const now = Date.now();
  return now - stat.mtimeMs > racyMs && now - stat.ctimeMs > racyMs;
}

/** The protected entries of one git directory (GIT_DIR_PROTECTED), as paths. */
export function protectedEntriesOf(gitDir: string): string[] {
  return GIT_DIR_PROTECTED.map((name) => path.join(gitDir, name));
}

/** What a `.git` file says: the git directory it names, resolved from the file's folder (undefined when it is not one). */
export function gitFileTarget(file: string): string | undefined {
  let text: string;
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    try {
      const buffer = Buffer.alloc(4096);
      text = buffer.subarray(0, fs.readSync(fd, buffer)).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
  // As git reads it: "gitdir: " and the path, to the end of the first line.
  const first = text.split('\n')[0].replace(/\r$/, '');
  if (!first.startsWith('gitdir: ') || first.length === 'gitdir: '.length) return undefined;
  return path.resolve(path.dirname(file), first.slice('gitdir: '.length));
}

function recordDotGit(places: GitPlaces, full: string, workTree: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(full);
  } catch {
    return;
  }
  if (stat.isDirectory()) {
    const real = realOrUndefined(full);
    if (real !== undefined) addGitDir(places, real, workTree);
    return;
  }
  if (!stat.isFile()) return;
  const target = gitFileTarget(full);
  const real = target === undefined ? undefined : realOrUndefined(target);
  places.gitFiles.set(realOrUndefined(full) ?? full, real);
  if (real !== undefined && isDirectory(real)) addGitDir(places, real, workTree);
}

function addGitDir(places: GitPlaces, dir: string, workTree: string | undefined): void {
  const known = places.gitDirs.get(dir);
  if (known !== undefined) {
    known.workTree ??= workTree;
    return;
  }
  places.gitDirs.set(dir, { dir, workTree });
}

/** Adds what `gitDir` leads to: its commondir, the git directories under modules/ and worktrees/. */
function expandGitDir(places: GitPlaces, gitDir: string): void {
  const common = commonDirOf(gitDir);
  if (common !== undefined) addGitDir(places, common, undefined);
  for (const nested of GIT_DIR_NESTED) {
    const base = path.join(gitDir, nested);
    if (!isDirectory(base)) continue;
    const walk = (dir: string, depth: number) => {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        if (!entry.isDirectory()) continue;
        const full = path.join(dir, entry.name);
        if (fs.existsSync(path.join(full, 'HEAD'))) {
          const real = realOrUndefined(full);
          if (real !== undefined) addGitDir(places, real, nested === 'worktrees' ? worktreeOf(full) : undefined);
        } else if (nested === 'modules' && depth < MAX_MODULES_DEPTH) {
          walk(full, depth + 1);
        }
      }
    };
    walk(base, 1);
  }
}

/** The common directory a git directory's `commondir` file names (real path), if it has one. */
export function commonDirOf(gitDir: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim();
  } catch {
    return undefined;
  }
  if (text === '') return undefined;
  return realOrUndefined(path.resolve(gitDir, text));
}

/** A linked worktree's folder, from its git directory's `gitdir` file (the worktree's `.git` file). */
function worktreeOf(gitDir: string): string | undefined {
  try {
    const text = fs.readFileSync(path.join(gitDir, 'gitdir'), 'utf8').trim();
    return text === '' ? undefined : path.dirname(path.resolve(gitDir, text));
  } catch {
    return undefined;
  }
}

/**
 * configPlaces' answers, kept while none of the files they came from (and none of the places a
 * configuration file could appear: the git directory's own, the global and system ones, the
 * include targets) changed, by inode, size and time; one changed within two seconds is asked again.
 */
const configAnswers = new Map<string, { files: string[]; stamps: string; places: string[] }>();

function configPlacesCached(gitDir: GitDirectory, git: string, env: NodeJS.ProcessEnv | undefined, racyMs: number): string[] {
  const home = (env ?? process.env).HOME ?? '';
  const key = [gitDir.dir, gitDir.workTree ?? '', home, git].join('\0');
  const known = configAnswers.get(key);
  if (known !== undefined && stampsOf(known.files, racyMs).stamps === known.stamps) return known.places;
  const places = configPlaces(gitDir, git, env);
  const xdg = (env ?? process.env).XDG_CONFIG_HOME;
  const files = [
    ...new Set([
      ...places,
      ...GIT_DIR_PROTECTED.filter((n) => n.startsWith('config') || n === 'commondir').map((n) => path.join(gitDir.dir, n)),
      path.join(home, '.gitconfig'),
      path.join(xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(home, '.config'), 'git', 'config'),
      '/etc/gitconfig',
    ]),
  ];
  const { stamps, settled } = stampsOf(files, racyMs);
  if (configAnswers.size > MAX_GIT_DIRS * 10) configAnswers.clear();
  if (settled) configAnswers.set(key, { files, stamps, places });
  else configAnswers.delete(key);
  return places;
}

function stampsOf(files: readonly string[], racyMs: number): { stamps: string; settled: boolean } {
  let settled = true;
  const stamps = files
    .map((f) => {
      try {
        const stat = fs.statSync(f);
        if (!isSettled(stat, racyMs)) settled = false;
        return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
      } catch {
        return '-';
      }
    })
    .join('|');
  return { stamps, settled };
}

/**
 * What git reads or runs for one git directory, by its own account: the configuration files it
 * reads (`--show-origin`), the include targets named (there or not), the hooks path and the
 * fsmonitor program (when they are paths). Nothing when git cannot be run.
 */
function configPlaces(gitDir: GitDirectory, git: string, env: NodeJS.ProcessEnv | undefined): string[] {
  const result = spawnSync(git, ['--git-dir', gitDir.dir, 'config', '--list', '--show-origin', '-z'], {
    cwd: gitDir.dir,
    env: gitEnv(env),
    encoding: 'utf8',
    timeout: 5000,
    maxBuffer: 4 * 1024 * 1024,
  });
  if (result.status !== 0 || typeof result.stdout !== 'string') return [];
  const out: string[] = [];
  const fields = result.stdout.split('\0');
  let hooksPath: string | undefined;
  let fsmonitor: string | undefined;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const origin = fields[i];
    const entry = fields[i + 1];
    const newline = entry.indexOf('\n');
    const key = (newline < 0 ? entry : entry.slice(0, newline)).toLowerCase();
    const value = newline < 0 ? undefined : entry.slice(newline + 1);
    const file = origin.startsWith('file:') ? path.resolve(gitDir.dir, origin.slice('file:'.length)) : undefined;
    if (file !== undefined) out.push(file);
    if (value === undefined) continue;
    if ((key === 'include.path' || (key.startsWith('includeif.') && key.endsWith('.path'))) && file !== undefined) {
      out.push(path.resolve(path.dirname(file), expandHome(value)));
    }
    if (key === 'core.hookspath') hooksPath = value;
    if (key === 'core.fsmonitor') fsmonitor = value;
  }
  const base = gitDir.workTree ?? gitDir.dir;
  if (hooksPath !== undefined && hooksPath.trim() !== '') out.push(path.resolve(base, expandHome(hooksPath.trim())));
  const program = fsmonitor?.trim();
  if (program !== undefined && program !== '' && !isBoolean(program)) {
    const first = program.split(/\s+/)[0];
    if (first.includes('/')) out.push(path.resolve(base, expandHome(first)));
  }
  return out;
}

/**
 * The configuration keys of a file git reads (`git config --file`): what a new repository in
 * the workspace holds after a command (sandboxCheck.ts judges it). Undefined when git cannot read it.
 */
export function configKeys(file: string, options: { git?: string; env?: NodeJS.ProcessEnv } = {}): string[] | undefined {
  const result = spawnSync(options.git ?? 'git', ['config', '--file', file, '--list', '-z'], {
    cwd: path.dirname(file),
    env: gitEnv(options.env),
    encoding: 'utf8',
    timeout: 5000,
    maxBuffer: 4 * 1024 * 1024,
  });
  if (result.status !== 0 || typeof result.stdout !== 'string') return undefined;
  return result.stdout
    .split('\0')
    .filter((entry) => entry !== '')
    .map((entry) => {
      const newline = entry.indexOf('\n');
      return (newline < 0 ? entry : entry.slice(0, newline)).toLowerCase();
    });
}

/** The environment git reads configuration in: no variable that points it elsewhere or adds configuration. */
function gitEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('GIT_')) clean[name] = value;
  }
  return { ...clean, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
}

function expandHome(value: string): string {
  if (value === '~' || value.startsWith('~/')) return path.join(process.env.HOME ?? '', value.slice(1));
  return value;
}

function isBoolean(value: string): boolean {
  return ['true', 'false', 'yes', 'no', 'on', 'off', '1', '0'].includes(value.toLowerCase());
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export function realOrUndefined(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}
