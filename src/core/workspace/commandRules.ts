/**
 * Which commands may run without asking. A command runs without asking only when every part of
 * it (shellCommands.ts) is allowed by a rule; a part that matches a deny rule refuses the whole
 * command without asking (deny wins). Everything else asks the user, who may allow it once or
 * always (its prefixes are then remembered for the workspace), or deny it.
 *
 * A rule is a command prefix in shell words: `npm test` allows `npm test`, `npm test -- --grep x`,
 * not `npm testx` nor `npm run test`. `*` allows every command, special parts included. Rules
 * come only from places a cloned repository cannot write: the user's settings, the workspace's
 * memento ("Always allow", written only by a click), the CLI's flags, and the defaults below.
 */
import { offerRules } from './ruleOffers';
import { loadShellParser, type CommandPart, type ShellParser } from './shellCommands';
import { CREDENTIAL_HINTS } from './protectedPaths';

export { NEVER_ALWAYS, prefixOf } from './ruleOffers';

/**
 * Read-only commands that run without asking (listed in docs/chat.md#command-rules). Options that
 * would make one of them write or run another program are refused by UNSAFE_DEFAULT_OPTIONS.
 */
export const DEFAULT_ALLOWED_COMMANDS: readonly string[] = [
  'ls', 'cat', 'head', 'tail', 'wc', 'pwd', 'echo', 'true', 'which', 'file', 'stat', 'du', 'diff',
  'grep', 'egrep', 'fgrep', 'rg',
  'git status', 'git log', 'git diff', 'git show', 'git ls-files', 'git blame', 'git rev-parse',
];

/** Options after which a default-allowed command asks anyway: they write files or run programs. */
const UNSAFE_DEFAULT_OPTIONS: Record<string, readonly string[]> = {
  rg: ['--pre', '--pre-glob', '--search-zip', '-z'],
  // `file -C` compiles a magic file and writes it (`-C -m x` writes x.mgc).
  file: ['-C', '--compile'],
  git: ['--output', '--ext-diff', '--textconv', '--exec-path', '--config-env'],
};

export interface CommandRules {
  /** User rules (settings, memento, CLI flags); the defaults are added by judgeCommand. */
  allow: readonly string[];
  deny: readonly string[];
  /** Default true: DEFAULT_ALLOWED_COMMANDS apply too. */
  defaults?: boolean;
}

export type CommandVerdict =
  /**
   * `readOnly`: allowed only by the read-only defaults (run it with READ_ONLY_GIT_ENV); `parts`
   * are then the command's parts, for the host's own checks of what they read (bashTool's
   * readOnlyCheck).
   */
  | { kind: 'allowed'; readOnly?: true; parts?: CommandPart[] }
  | { kind: 'denied'; rule: string; part: string }
  /**
   * `prefixes`: the rules "Always allow" offers (ruleOffers.ts); `stillAsks`: the parts those
   * rules cannot cover, in a few words (the command itself asks again after "Always allow").
   */
  | {
      kind: 'ask';
      prefixes: string[];
      parts: CommandPart[];
      stillAsks?: string;
      /**
       * Set when the command could not be judged at all (too long, a syntax error, a control
       * character) while deny rules exist: they could not be checked, so nothing may allow the
       * command without the user (the sandbox's auto-allow included).
       */
      unjudged?: true;
    };

/**
 * Judges a command. The bash parser is loaded on the first call. A command the parser cannot
 * judge (too long, a control character, a lone surrogate, a syntax error) asks; `*` allows it only when no
 * deny rule could have matched a part of it.
 */
export async function judgeCommand(command: string, rules: CommandRules): Promise<CommandVerdict> {
  return judgeWith(await loadShellParser(), command, rules);
}

export function judgeWith(parser: ShellParser, command: string, rules: CommandRules): CommandVerdict {
  const parsed = parser.parse(command);
  const allow = rules.allow.map((rule) => ruleWords(parser, rule));
  const deny = rules.deny.map((rule) => ({ rule, words: ruleWords(parser, rule) }));
  const everything = allow.some((r) => r.length === 1 && r[0] === '*');
  if (!parsed.ok) {
    const denyAll = deny.some((d) => d.words.length === 1 && d.words[0] === '*');
    if (denyAll) return { kind: 'denied', rule: '*', part: command };
    return everything && deny.length === 0
      ? { kind: 'allowed' }
      : { kind: 'ask', prefixes: [], ...(deny.length > 0 ? { unjudged: true as const } : {}), parts: [{ text: command, words: [], dynamic: true, special: `cannot be judged: ${parsed.reason}`, span: [0, command.length] }] };
  }
  for (const part of parsed.parts) {
    for (const { rule, words } of deny) {
      if (words.length > 0 && (matches(part.words, words) || (words[0] === '*' && words.length === 1))) return { kind: 'denied', rule, part: part.text };
    }
  }
  if (everything) return { kind: 'allowed' };
  const defaults = rules.defaults === false ? [] : DEFAULT_ALLOWED_COMMANDS.map((rule) => ruleWords(parser, rule));
  let byUserRule = false;
  // Judged once for the whole command, only when a default is about to allow a part (once per
  // part would cost the command's length for each of its parts: quadratic).
  let wholeCommand: boolean | undefined;
  const readsSecrets = (part: CommandPart) => (wholeCommand ??= commandReadsHostSecrets(command)) || readsFromOutside(part);
  const unallowed = parsed.parts.filter((part) => {
    if (part.special !== undefined) return true;
    if (allow.some((r) => matches(part.words, r))) {
      byUserRule = true;
      return false;
    }
    return !defaults.some((r) => matches(part.words, r) && !hasUnsafeOption(part.words)) || readsSecrets(part) || unseenArguments(part);
  });
  if (unallowed.length === 0) return byUserRule ? { kind: 'allowed' } : { kind: 'allowed', readOnly: true, parts: parsed.parts };
  const offers = offerRules(unallowed);
  return { kind: 'ask', prefixes: offers.rules, parts: unallowed, ...(offers.stillAsks !== undefined ? { stillAsks: offers.stillAsks } : {}) };
}

/**
 * Git configuration for commands allowed only as read-only: neither a planted nor a shipped
 * `.git` may run code through them (an fsmonitor command, hooks, a bare repository in the
 * workspace). Given as GIT_CONFIG_COUNT entries, which win over every config file like `-c`.
 */
export const READ_ONLY_GIT_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_COUNT: '3',
  GIT_CONFIG_KEY_0: 'core.fsmonitor',
  GIT_CONFIG_VALUE_0: 'false',
  GIT_CONFIG_KEY_1: 'core.hooksPath',
  GIT_CONFIG_VALUE_1: '/dev/null',
  GIT_CONFIG_KEY_2: 'safe.bareRepository',
  GIT_CONFIG_VALUE_2: 'explicit',
};

/**
 * The shell text that runs a read-only command with READ_ONLY_GIT_ENV, in a subshell so the
 * variables do not stay in the persistent shell (a read-only command changes no shell state).
 */
export function withReadOnlyGit(command: string): string {
  const assignments = Object.entries(READ_ONLY_GIT_ENV).map(([k, v]) => `${k}='${v}'`).join(' ');
  return `(\nexport ${assignments}\n${command}\n)`;
}

/** A rule's words; a rule is parsed like a command so quoting means the same in both. */
export function ruleWords(parser: ShellParser, rule: string): string[] {
  let cache = RULE_CACHE.get(parser);
  if (!cache) RULE_CACHE.set(parser, (cache = new Map()));
  let words = cache.get(rule);
  if (words === undefined) {
    words = parseRule(parser, rule);
    // Rules are few and short; the cap only guards against a caller passing commands as rules.
    if (cache.size < 10_000) cache.set(rule, words);
  }
  return words;
}

/** Rules parsed once per parser (the defaults are judged against on every command). */
const RULE_CACHE = new WeakMap<ShellParser, Map<string, string[]>>();

function parseRule(parser: ShellParser, rule: string): string[] {
  const trimmed = rule.trim();
  if (trimmed === '*') return ['*'];
  const parsed = parser.parse(trimmed);
  if (!parsed.ok || parsed.parts.length !== 1 || parsed.parts[0].special !== undefined || parsed.parts[0].dynamic) return [];
  return parsed.parts[0].words;
}

function matches(words: readonly string[], rule: readonly string[]): boolean {
  if (rule.length === 0 || words.length < rule.length) return false;
  return rule.every((w, i) => words[i] === w);
}

/** Places in the home folder where credentials live (also hidden from commands by the OS sandbox): protectedPaths.ts. */
const CREDENTIAL_NAMES = CREDENTIAL_HINTS;

/** Programs that read folders recursively (grep only with -r/-R/--recursive/-d, ls only with -R). */
function recursive(words: readonly string[], tokens: readonly string[]): boolean {
  const name = words[0];
  if (name === 'rg' || name === 'du') return true;
  const options = tokens.filter((t) => t.startsWith('-'));
  if (name === 'grep' || name === 'egrep' || name === 'fgrep') return options.some((o) => /^-[A-Za-z]*[rRd]/.test(o) || o.startsWith('--recursive') || o.startsWith('--dereference-recursive') || o.startsWith('--directories'));
  if (name === 'ls') return options.some((o) => /^-[A-Za-z]*R/.test(o) || o === '--recursive');
  return false;
}

/**
 * Whether a read-only default would read what only a sandbox keeps from it: another process's
 * state (`/proc/<pid>/environ` holds the API key of the extension host or the CLI), credential
 * places, globs that reach outside the workspace (commandReadsHostSecrets, anywhere in the
 * command: a redirection's file is not part of the command's own text), or a recursive search
 * from outside it (readsFromOutside, per part). Such a command asks. Judged on the text with
 * quotes, backslashes and plain expansions taken out, so `/pro""c` or `/pro${E}c` read as
 * `/proc`. Without a sandbox this is the only defence; it cannot be complete (a path can come
 * from a variable the command did not set).
 */
function commandReadsHostSecrets(command: string): boolean {
  for (const token of tokensOf(command)) {
    if (/(^|\/)proc(\/|$)|environ/i.test(token)) return true;
    if (CREDENTIAL_NAMES.some((name) => token.includes(name))) return true;
    if (/[*?[]/.test(token) && outside(token)) return true;
  }
  return false;
}

/**
 * A recursive search (rg, du, grep -r, ls -R) from outside the workspace, judged on the part's
 * own words after quote removal (`"/"` is `/`; one with words known only when it runs asks
 * anyway, unseenArguments). The part's text is not tokenized: it holds the parts nested in it,
 * so that cost the nesting depth times the length (`grep -r x $(grep -r x $(…))` took seconds).
 */
function readsFromOutside(part: CommandPart): boolean {
  if (!RECURSIVE_PROGRAMS.has(part.words[0])) return false;
  const args = part.words.slice(1);
  return recursive(part.words, args) && args.some((t) => !t.startsWith('-') && outside(t));
}

/**
 * A read-only default with an argument known only when it runs (`cat $F`, `cat \`…\``,
 * `cat $'\x2e\x2e/x'`, `cat /{p,}roc/…`): the rules cannot see what it reads, so it asks. Printing
 * programs (echo, true, pwd, which) read nothing and are exempt.
 */
function unseenArguments(part: CommandPart): boolean {
  return part.dynamic && !PRINTS_ONLY.has(part.words[0]);
}

const PRINTS_ONLY = new Set(['echo', 'true', 'pwd', 'which']);

const RECURSIVE_PROGRAMS = new Set(['rg', 'du', 'grep', 'egrep', 'fgrep', 'ls']);

function tokensOf(text: string): string[] {
  return text.replace(/\$\{?[A-Za-z_][A-Za-z0-9_]*\}?/g, '').replace(/["'\\]/g, '').split(/[\s<>|;&()]+/).filter((t) => t !== '');
}

function outside(token: string): boolean {
  return /^(\/|~)|(^|\/)\.\.(\/|$)/.test(token);
}

function hasUnsafeOption(words: readonly string[]): boolean {
  const unsafe = UNSAFE_DEFAULT_OPTIONS[words[0]] ?? [];
  return words.slice(1).some((w) => unsafe.some((u) => w === u || w.startsWith(`${u}=`) || (u.startsWith('--') && w.startsWith(u))));
}
