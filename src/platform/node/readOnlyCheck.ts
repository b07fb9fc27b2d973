/**
 * Without the OS sandbox, what the command rules cannot see from a command's text before a
 * read-only default runs (issue 35, class 7; bashTool's readOnlyCheck). The sandbox makes these
 * moot (reads stay inside its boundary, git's places are read-only there), so this runs only
 * unsandboxed:
 * - an argument that is, or passes through, a link out of the workspace (`keys -> ~/.ssh`, a
 *   repository can ship one) or into a credential place; for a glob (`keys/*`), the links in
 *   the folder it starts from;
 * - an option that follows links (`grep -R`, `rg -L`, `du -L`, `ls -L`, `stat -L`, `file -L`):
 *   any link in the tree may lead anywhere;
 * - for git, configuration of the repository itself (local and worktree scope, includes
 *   resolved) with a key outside the keys known to name no program (sandboxCheck's
 *   SAFE_CONFIG): `diff.external`, `diff.<driver>.textconv`, `filter.<name>.clean`, … run
 *   programs in `git diff`, `git log -p`, `git show` and `git blame`.
 * Each answer is a short reason for the approval card, without host paths.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CREDENTIAL_PLACES } from '../../core/workspace/protectedPaths';
import type { CommandPart } from '../../core/workspace/shellCommands';
import { realOrUndefined } from './gitPlaces';
import { isSafeConfigKey } from './sandboxCheck';
import { isAtOrUnder } from './sandboxPlan';

/** At most this many arguments are looked at on disk; a command with more asks. */
const MAX_CHECKED = 1000;

/** Options that make a default-allowed program follow links, by program. */
const FOLLOWS_LINKS: Record<string, { short: string; long: readonly string[] }> = {
  grep: { short: 'R', long: ['--dereference-recursive'] },
  egrep: { short: 'R', long: ['--dereference-recursive'] },
  fgrep: { short: 'R', long: ['--dereference-recursive'] },
  rg: { short: 'L', long: ['--follow'] },
  du: { short: 'L', long: ['--dereference'] },
  ls: { short: 'L', long: ['--dereference'] },
  stat: { short: 'L', long: ['--dereference'] },
  file: { short: 'L', long: ['--dereference'] },
};

export interface ReadOnlyCheckOptions {
  /** The workspace folder: links out of it ask. */
  workspace: string;
  /** Default the user's home: where the credential places are. */
  home?: string;
  /** Default `git` from PATH. */
  git?: string;
}

/** Why a command the read-only defaults allow must ask when run unsandboxed, or undefined. */
export async function readOnlyCheck(parts: readonly CommandPart[], cwd: string | undefined, options: ReadOnlyCheckOptions): Promise<string | undefined> {
  // Lexically and really: a workspace path may itself pass through a link (/tmp on macOS).
  const workspaces = [path.resolve(options.workspace), realOr(options.workspace)];
  const home = realOr(options.home ?? os.homedir());
  const credentials = CREDENTIAL_PLACES.map((p) => path.join(home, p.path));
  const base = cwd ?? options.workspace;
  let checked = 0;
  let git = false;
  for (const part of parts) {
    const [program, ...args] = part.words;
    if (program === undefined) continue;
    if (program === 'git') git = true;
    const follows = followsLinks(program, args);
    if (follows !== undefined) return `\`${follows}\` follows links, which may lead out of the workspace`;
    for (const arg of args) {
      if (arg.startsWith('-') || arg === '') continue;
      if (++checked > MAX_CHECKED) return `it names more than ${MAX_CHECKED} paths to check for links`;
      const why = linkReason(path.resolve(base, arg), arg, workspaces, credentials);
      if (why !== undefined) return why;
    }
  }
  if (git) {
    const key = await unsafeRepositoryConfig(base, options.git ?? 'git');
    if (key !== undefined) return `the repository's git configuration sets \`${key}\`, which may run a program`;
  }
  return undefined;
}

function followsLinks(program: string, args: readonly string[]): string | undefined {
  const rule = FOLLOWS_LINKS[program];
  if (rule === undefined) return undefined;
  for (const arg of args) {
    if (arg === '--') break;
    if (rule.long.some((l) => arg === l || arg.startsWith(`${l}=`))) return `${program} ${arg}`;
    if (/^-[A-Za-z0-9]+$/.test(arg) && arg.slice(1).includes(rule.short)) return `${program} ${arg}`;
  }
  return undefined;
}

/** Why reading `target` (the argument `shown`) leads somewhere it must not, or undefined. */
function linkReason(target: string, shown: string, workspaces: readonly string[], credentials: readonly string[]): string | undefined {
  const glob = target.search(/[*?[]/);
  if (glob >= 0) {
    // The folder the glob starts from, and the links among its entries.
    const folder = target.slice(0, target.lastIndexOf(path.sep, glob) + 1) || path.sep;
    const why = linkReason(folder, shown, workspaces, credentials);
    if (why !== undefined) return why;
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      return undefined;
    }
    for (const entry of entries.slice(0, MAX_CHECKED)) {
      if (!entry.isSymbolicLink()) continue;
      const why = linkReason(path.join(folder, entry.name), shown, workspaces, credentials);
      if (why !== undefined) return why;
    }
    return undefined;
  }
  const real = realOrUndefined(target) ?? realOfParent(target);
  if (real === undefined) return undefined;
  if (credentials.some((c) => isAtOrUnder(real, c))) return `\`${short(shown)}\` leads to a credential place`;
  const lexical = path.resolve(target);
  if (workspaces.some((w) => isAtOrUnder(lexical, w)) && !workspaces.some((w) => isAtOrUnder(real, w))) return `\`${short(shown)}\` is a link that leads out of the workspace`;
  return undefined;
}

/** For a path that does not exist (yet): where its nearest existing folder really is, joined with the rest. */
function realOfParent(target: string): string | undefined {
  const parent = path.dirname(target);
  if (parent === target) return undefined;
  const real = realOrUndefined(parent) ?? realOfParent(parent);
  return real === undefined ? undefined : path.join(real, path.basename(target));
}

/**
 * The first configuration key of the repository at `cwd` itself (local and worktree scope,
 * includes resolved) that is not known to name no program; undefined when there is none or git
 * cannot tell (then the command fails the same way).
 */
function unsafeRepositoryConfig(cwd: string, git: string): Promise<string | undefined> {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, v] of Object.entries(process.env)) if (!name.startsWith('GIT_')) env[name] = v;
  return new Promise((resolve) => {
    execFile(
      git,
      ['config', '--list', '--show-scope', '--includes', '-z'],
      { cwd, env: { ...env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' }, encoding: 'utf8', timeout: 5000, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout) => {
        if (error) return resolve(undefined);
        // -z with --show-scope: "scope\0key\nvalue\0" per entry.
        const fields = stdout.split('\0');
        for (let i = 0; i + 1 < fields.length; i += 2) {
          const scope = fields[i];
          const entry = fields[i + 1];
          const newline = entry.indexOf('\n');
          const key = (newline < 0 ? entry : entry.slice(0, newline)).toLowerCase();
          if ((scope === 'local' || scope === 'worktree') && !isSafeConfigKey(key)) return resolve(key);
        }
        resolve(undefined);
      },
    );
  });
}

function realOr(p: string): string {
  return realOrUndefined(p) ?? path.resolve(p);
}

function short(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
