/**
 * What "Always allow" offers for a command that asks: for each part no rule allows yet, the
 * narrowest prefix that names what the user is looking at, or nothing. The parts come from the
 * real bash parser (shellCommands.ts); this module only chooses among their words.
 *
 * - A program that runs code it is given (an interpreter: `node`, `python`, `ruby`, `perl`,
 *   `deno`, …) is never offered bare: `node` alone would allow any JavaScript. It is offered with
 *   its script (`node src/cli.js`) or module (`python -m pytest`), and not at all for inline code
 *   (`node -e …`, `python -c …`) or when options come before the script.
 * - A tool with sub-commands (`git`, `npm`, `cargo`, `make`, …) is offered with its sub-command
 *   (`git commit`, `npm test`), never bare; a script runner's sub-command with its script
 *   (`npm run build`, `uv run pytest`), since `npm run` alone runs whatever package.json says.
 * - A wrapper that runs the program after it (`timeout`, `nice`, `time`, …), a program whose
 *   first argument is a program text (`awk`, `sed`), and the deleting, moving or sending
 *   programs of NEVER_ALWAYS are never offered.
 * - A part no rule can ever allow (it sets variables, writes a file, …) gets no rule, but its
 *   program may still be offered (`TODO_FILE=$f node src/cli.js` offers `node src/cli.js`), and
 *   the card says the command itself will still ask (`stillAsks`).
 */
import type { CommandPart } from './shellCommands';

/**
 * Programs (and program + sub-command) that delete, move or send data, or run what they are
 * given: "Always allow" never offers them as a rule (each run is asked), whatever their arguments.
 */
export const NEVER_ALWAYS: readonly string[] = [
  'rm', 'rmdir', 'mv', 'dd', 'shred', 'truncate', 'curl', 'wget', 'ssh', 'scp', 'sftp', 'rsync', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'ftp',
  'sudo', 'su', 'doas', 'chmod', 'chown', 'eval', 'exec', 'source', '.', 'sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'csh', 'tcsh', 'env', 'xargs', 'find', 'kill', 'pkill', 'killall',
  'git push', 'git clean', 'git reset', 'git rm', 'git mv', 'git checkout', 'git restore', 'git config', 'git remote', 'git send-email',
  'npm publish', 'npm unpublish', 'npm exec', 'npm x', 'npx', 'yarn publish', 'yarn dlx', 'yarn exec', 'pnpm publish', 'pnpm dlx', 'pnpm exec', 'pnpx', 'bunx', 'bun x',
  'cargo publish', 'twine', 'gh', 'docker push', 'docker run', 'docker exec', 'podman run', 'podman exec', 'kubectl exec', 'kubectl run',
  'git submodule', 'git bisect', 'git filter-branch', 'git rebase', 'deno eval', 'deno repl',
];

/** Programs that run the code they are given: offered only with their script or module. */
const INTERPRETERS = new Set([
  'node', 'nodejs', 'deno', 'bun', 'python', 'pypy', 'ruby', 'perl', 'php', 'lua', 'luajit', 'rscript', 'tclsh', 'wish', 'pwsh', 'powershell',
  'osascript', 'ts-node', 'tsx', 'julia', 'elixir', 'iex', 'erl', 'escript', 'groovy', 'scala', 'kotlin', 'java', 'jshell', 'swift', 'guile', 'racket',
  'sbcl', 'clojure', 'clj', 'runghc', 'runhaskell', 'ghci', 'ocaml', 'dotnet-script', 'qjs', 'jjs', 'rhino', 'vite-node',
]);

/** Options of an interpreter that name a module or a script file as their value (`python -m pytest`). */
const MODULE_OPTIONS: Readonly<Record<string, readonly string[]>> = { python: ['-m'], pypy: ['-m'], java: ['-jar'] };

/** Sub-commands of an interpreter (`deno test`, `bun run build`); `run` and `task` need their script too. */
const INTERPRETER_SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  deno: ['run', 'task', 'test', 'bench', 'check', 'fmt', 'lint', 'compile', 'doc', 'info', 'cache', 'install', 'add', 'remove', 'outdated', 'serve', 'types'],
  bun: ['run', 'test', 'install', 'add', 'remove', 'update', 'build', 'outdated', 'pm', 'link', 'unlink'],
};

/** Sub-commands that run whatever comes after them (a script or a binary), by tool: offered with it. */
const RUNS_NEXT: Readonly<Record<string, readonly string[]>> = {
  npm: ['run', 'run-script'], yarn: ['run'], pnpm: ['run'], bun: ['run'], deno: ['run', 'task'], uv: ['run'], poetry: ['run'], pipenv: ['run'],
  pdm: ['run'], rye: ['run'], hatch: ['run'], conda: ['run'], mamba: ['run'], bundle: ['exec'], go: ['run'], mix: ['run'], nix: ['run', 'shell', 'develop'],
};

function runsNext(name: string, sub: string): boolean {
  return RUNS_NEXT[normalName(name)]?.includes(sub) === true;
}

/**
 * Tools whose bare name spans every sub-command (`git` is push and config too, `npm` is exec):
 * offered only with a sub-command word right after the name, never bare.
 */
const SUBCOMMAND_TOOLS = new Set([
  'git', 'npm', 'yarn', 'pnpm', 'cargo', 'go', 'make', 'gmake', 'docker', 'podman', 'kubectl', 'helm', 'pip', 'pip3', 'uv', 'poetry', 'pipenv',
  'dotnet', 'gradle', 'gradlew', 'mvn', 'mvnw', 'composer', 'gem', 'bundle', 'rake', 'rustup', 'brew', 'apt', 'apt-get', 'dnf',
  'yum', 'pacman', 'nix', 'terraform', 'just', 'task', 'mix', 'swift', 'conda', 'mamba', 'hatch', 'pdm', 'rye', 'nox', 'tox', 'ng', 'nx', 'turbo',
  'lerna', 'vercel', 'firebase', 'aws', 'gcloud', 'az', 'systemctl', 'launchctl', 'cmake', 'ninja', 'bazel', 'buck', 'sbt', 'lein', 'stack', 'cabal',
]);

/** Programs that run the program after them, or whose first argument is a program text. */
const NEVER_BARE = new Set([
  'time', 'timeout', 'gtimeout', 'nice', 'renice', 'nohup', 'command', 'builtin', 'stdbuf', 'ionice', 'chrt', 'taskset', 'watch', 'strace', 'ltrace',
  'gdb', 'lldb', 'valgrind', 'xvfb-run', 'flock', 'setsid', 'unbuffer', 'script', 'sg', 'newgrp', 'chroot', 'unshare', 'nsenter', 'firejail', 'bwrap',
  'busybox', 'parallel', 'entr', 'caffeinate', 'systemd-run', 'runuser', 'pkexec', 'expect', 'awk', 'gawk', 'mawk', 'nawk', 'sed', 'gsed', 'ed', 'ex',
  'vim', 'vi', 'nvim', 'emacs', 'tmux', 'screen', 'at', 'batch', 'crontab', 'trap', 'coproc', 'sqlite', 'psql', 'mysql',
]);

/** What "Always allow" offers for the parts of a command that ask, and what still asks after it. */
export interface RuleOffers {
  /** One rule per part that has one, no rule twice, in the order of the command. */
  rules: string[];
  /**
   * The parts no offered rule covers, by why, in a few words ("`f=$(mktemp)`, `X=1 make` (sets
   * variables)"): the command itself still asks after "Always allow". Undefined when the rules cover it.
   */
  stillAsks?: string;
}

/** The rules to offer for `parts` (the parts of a command that no rule allows yet). */
export function offerRules(parts: readonly CommandPart[]): RuleOffers {
  const rules: string[] = [];
  const uncovered = new Map<string, CommandPart[]>();
  for (const part of parts) {
    const rule = ruleFor(part);
    if (rule !== undefined && !rules.includes(rule)) rules.push(rule);
    // A rule allows a part only when the part has nothing a rule cannot judge.
    if (rule !== undefined && part.special === undefined) continue;
    const reason = why(part, rule);
    const group = uncovered.get(reason);
    if (group) group.push(part);
    else uncovered.set(reason, [part]);
  }
  const said = [...uncovered].map(([reason, group]) => {
    // A part inside another of its group (`X=1` of `X=1 make`) is not named again.
    const named = outermost(group);
    const shown = named.slice(0, 2).map((p) => `\`${short(p.text)}\``).join(', ');
    return `${shown}${named.length > 2 ? ` and ${named.length - 2} more` : ''} (${reason})`;
  });
  return { rules, ...(said.length > 0 ? { stillAsks: said.join('; ') } : {}) };
}

/**
 * The parts not inside another of `parts` (by their spans; a part without one is inside none), in
 * their order. Sorted by start, the longest first: a part is inside an earlier one exactly when
 * an earlier one ends at or after its end. Linear after the sort, so a command of many parts costs
 * its length (a check of each part against every other was quadratic).
 */
function outermost(parts: readonly CommandPart[]): CommandPart[] {
  const spanned = parts.map((part, index) => ({ part, index })).filter(({ part }) => part.span !== undefined);
  spanned.sort((a, b) => a.part.span![0] - b.part.span![0] || b.part.span![1] - a.part.span![1] || a.index - b.index);
  const inside = new Set<number>();
  let end = -1;
  for (const { part, index } of spanned) {
    if (part.span![1] <= end) inside.add(index);
    else end = part.span![1];
  }
  return parts.filter((_, index) => !inside.has(index));
}

/** The prefix "Always allow" remembers for a part: its program with a sub-command or script, if any. */
export function prefixOf(part: CommandPart): string | undefined {
  if (part.special !== undefined) return undefined;
  return ruleFor(part);
}

/**
 * The rule for a part's words, whether or not the part itself can be allowed by a rule (a part
 * that sets variables still names a program the user may want to allow).
 */
function ruleFor(part: CommandPart): string | undefined {
  const words = part.words;
  if (words.length === 0) return undefined;
  const [name, second, third] = words;
  if (!isPlainWord(name) || NEVER_ALWAYS.includes(name)) return undefined;
  const kind = programKind(name);
  if (kind === 'never') return undefined;
  if (kind === 'interpreter') return interpreterRule(words);
  const sub = second !== undefined && isSubcommand(second) ? second : undefined;
  if (kind === 'tool' && sub === undefined) return undefined;
  if (sub === undefined) return name;
  const prefix = `${name} ${sub}`;
  if (NEVER_ALWAYS.includes(`${normalName(name)} ${sub}`)) return undefined;
  if (runsNext(name, sub)) return third !== undefined && isScript(third) ? `${prefix} ${third}` : undefined;
  return prefix;
}

/** `node src/cli.js`, `python -m pytest`, `deno task build`; undefined for inline code or options first. */
function interpreterRule(words: readonly string[]): string | undefined {
  const [name, second, third] = words;
  const base = normalName(name);
  if (second === undefined) return undefined;
  if (MODULE_OPTIONS[base]?.includes(second)) return third !== undefined && isScript(third) ? `${name} ${second} ${third}` : undefined;
  const subcommands = INTERPRETER_SUBCOMMANDS[base];
  if (subcommands?.includes(second)) {
    if (NEVER_ALWAYS.includes(`${base} ${second}`)) return undefined;
    if (!runsNext(name, second)) return `${name} ${second}`;
    return third !== undefined && isScript(third) ? `${name} ${second} ${third}` : undefined;
  }
  if (NEVER_ALWAYS.includes(`${base} ${second}`)) return undefined;
  return isScript(second) ? `${name} ${second}` : undefined;
}

type ProgramKind = 'never' | 'interpreter' | 'tool' | 'plain';

function programKind(name: string): ProgramKind {
  const base = normalName(name);
  if (NEVER_ALWAYS.includes(base) || NEVER_BARE.has(base)) return 'never';
  if (INTERPRETERS.has(base)) return 'interpreter';
  if (SUBCOMMAND_TOOLS.has(base) || SUBCOMMAND_TOOLS.has(name)) return 'tool';
  return 'plain';
}

/** `/usr/bin/python3.12` → `python`: the program's name without its folder and version. */
export function normalName(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1).toLowerCase();
  const unversioned = base.replace(/[0-9][0-9.]*$/, '').replace(/[-.]$/, '');
  return unversioned === '' ? base : unversioned;
}

/** Whether `name` runs code it is given (offered only with a script). */
export function isInterpreter(name: string): boolean {
  return programKind(name) === 'interpreter';
}

function isSubcommand(word: string): boolean {
  return /^[a-z][a-z0-9:_-]*$/.test(word);
}

/** A script or module argument: a plain word that is not an option. */
function isScript(word: string): boolean {
  return !word.startsWith('-') && isPlainWord(word);
}

function isPlainWord(word: string): boolean {
  return /^[A-Za-z0-9._/+-][A-Za-z0-9._/+:@-]*$/.test(word);
}

/** Why a part still asks after the offered rules, in a few words. */
function why(part: CommandPart, rule: string | undefined): string {
  if (part.special !== undefined) return part.special;
  const name = part.words[0] ?? '';
  if (programKind(name) === 'interpreter' && rule === undefined) return 'runs code no rule can name';
  if (part.dynamic && part.words.length <= 1) return 'only known when it runs';
  return 'asked every time';
}

function short(text: string): string {
  const line = text.split('\n')[0];
  return line.length > 32 ? `${line.slice(0, 31)}…` : line;
}
