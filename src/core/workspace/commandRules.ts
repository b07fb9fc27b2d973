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
import { parseCommand, type CommandPart } from './shellCommands';

/**
 * Read-only commands that run without asking (listed in the README). Options that would make one
 * of them write or run another program are refused by UNSAFE_DEFAULT_OPTIONS.
 */
export const DEFAULT_ALLOWED_COMMANDS: readonly string[] = [
  'ls', 'cat', 'head', 'tail', 'wc', 'pwd', 'echo', 'true', 'which', 'file', 'stat', 'du', 'diff',
  'grep', 'egrep', 'fgrep', 'rg',
  'git status', 'git log', 'git diff', 'git show', 'git ls-files', 'git blame', 'git rev-parse',
];

/** Options after which a default-allowed command asks anyway: they write files or run programs. */
const UNSAFE_DEFAULT_OPTIONS: Record<string, readonly string[]> = {
  rg: ['--pre', '--pre-glob', '--search-zip', '-z'],
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
  | { kind: 'allowed' }
  | { kind: 'denied'; rule: string; part: string }
  /** `prefixes`: what "Always allow" would remember (parts with a rule-shaped prefix only). */
  | { kind: 'ask'; prefixes: string[]; parts: CommandPart[] };

export function judgeCommand(command: string, rules: CommandRules): CommandVerdict {
  const parsed = parseCommand(command);
  const allow = rules.allow.map(ruleWords);
  const everything = allow.some((r) => r.length === 1 && r[0] === '*');
  if (!parsed.ok) {
    return everything ? { kind: 'allowed' } : { kind: 'ask', prefixes: [], parts: [{ text: command, words: [], dynamic: true, special: `cannot be parsed (${parsed.reason})` }] };
  }
  for (const part of parsed.parts) {
    for (const rule of rules.deny) {
      const words = ruleWords(rule);
      if (words.length > 0 && (matches(part.words, words) || (words[0] === '*' && words.length === 1))) return { kind: 'denied', rule, part: part.text };
    }
  }
  if (everything) return { kind: 'allowed' };
  const defaults = rules.defaults === false ? [] : DEFAULT_ALLOWED_COMMANDS.map(ruleWords);
  const unallowed = parsed.parts.filter((part) => {
    if (part.special !== undefined) return true;
    if (allow.some((r) => matches(part.words, r))) return false;
    return !defaults.some((r) => matches(part.words, r) && !hasUnsafeOption(part.words));
  });
  if (unallowed.length === 0) return { kind: 'allowed' };
  const prefixes = [...new Set(unallowed.map(prefixOf).filter((p): p is string => p !== undefined))];
  return { kind: 'ask', prefixes, parts: unallowed };
}

/** The prefix "Always allow" remembers for a part: its command and a subcommand-like second word. */
export function prefixOf(part: CommandPart): string | undefined {
  if (part.special !== undefined || part.words.length === 0) return undefined;
  const [name, second] = part.words;
  if (!isPlainWord(name)) return undefined;
  return second !== undefined && /^[a-z][a-z0-9:_-]*$/.test(second) ? `${name} ${second}` : name;
}

/** A rule's words; a rule is parsed like a command so quoting means the same in both. */
export function ruleWords(rule: string): string[] {
  const trimmed = rule.trim();
  if (trimmed === '*') return ['*'];
  const parsed = parseCommand(trimmed);
  if (!parsed.ok || parsed.parts.length !== 1 || parsed.parts[0].special !== undefined || parsed.parts[0].dynamic) return [];
  return parsed.parts[0].words;
}

function matches(words: readonly string[], rule: readonly string[]): boolean {
  if (rule.length === 0 || words.length < rule.length) return false;
  return rule.every((w, i) => words[i] === w);
}

function hasUnsafeOption(words: readonly string[]): boolean {
  const unsafe = UNSAFE_DEFAULT_OPTIONS[words[0]] ?? [];
  return words.slice(1).some((w) => unsafe.some((u) => w === u || w.startsWith(`${u}=`) || (u.startsWith('--') && w.startsWith(u))));
}

function isPlainWord(word: string): boolean {
  return /^[A-Za-z0-9._/+-][A-Za-z0-9._/+:-]*$/.test(word);
}
