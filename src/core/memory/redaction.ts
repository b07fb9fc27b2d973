/**
 * Secret redaction applied to the final text of every write, so secrets never reach disk (memory,
 * history copies, saved chats, the CLI's output). Detection comes from maintained rule sets:
 * - secretlint's recommended rules plus its database-connection-string and basic-auth rules
 *   (secrets/secretlint.ts: the rules' own regexes, run synchronously);
 * - formats secretlint lacks, ported by pattern from gitleaks' default configuration, each naming
 *   its gitleaks rule (secrets/gitleaks.ts);
 * - and three of the engine's own: PEM private-key blocks (also a pasted key whose END line is
 *   missing), `key = value` assignments of passwords/tokens/secrets, and Anthropic/OpenAI keys
 *   in shapes shorter than secretlint's exact formats (a key cut off when pasted is a secret too).
 * Every found span becomes `[REDACTED:<kind>]`; overlapping spans merge into one.
 */
import { PORTED_KEYWORDS, portedFindings } from './secrets/gitleaks';
import { KeywordSet } from './secrets/keywords';
import { SECRETLINT_KEYWORDS, secretlintFindings } from './secrets/secretlint';
import type { Finding } from './secrets/types';

export type { Finding } from './secrets/types';

export interface RedactionResult {
  text: string;
  /** Count per kind, in first-seen order; empty when nothing was redacted. */
  counts: ReadonlyMap<string, number>;
}

// A token must not be glued to more token characters on its left (e.g. `xsk-...`).
const L = '(?<![A-Za-z0-9_-])';

/** The engine's own token shapes, broader than secretlint's exact formats. */
const ENGINE_RULES: readonly { kind: string; pattern: RegExp }[] = [
  { kind: 'anthropic-api-key', pattern: new RegExp(`${L}sk-ant-[A-Za-z0-9_-]{20,}`, 'g') },
  {
    kind: 'openai-api-key',
    // Needs a digit and a letter in the body so `sk-learn-compatible-...` style words survive.
    pattern: new RegExp(`${L}sk-(?!ant-)(?:proj-|svcacct-|admin-)?(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}`, 'g'),
  },
];

/**
 * `password: "..."`, `DB_PASSWORD=...`, `api_key = ...`, `client_secret: ...`, `token=...`.
 * The key must end right before the separator (so `max_tokens = 2048` and `token_count: 5` are
 * not keys). Unquoted values must be one run of ≥ 8 non-space characters holding both a letter
 * and a digit (so `password = config.password` and `token = await fetch()` survive); quoted
 * values of ≥ 6 characters are taken as they are unless they look like a placeholder.
 */
const ASSIGNMENT =
  /(password|passwd|passphrase|secret|secret_key|client_secret|token|access_token|refresh_token|auth_token|api_key|apikey|api-key|private_key)(["']?)(\s*[:=]\s*)(?:(["'])([^"'\r\n]{6,200}?)\4|([^\s"'`,;]{8,}))/gi;
/** The characters a key may have before its keyword (`DB_`, `aws.`, `my-`), at most 40 of them. */
const KEY_PREFIX_CHAR = /[A-Za-z0-9_.-]/;
const KEY_PREFIX_MAX = 40;
const WORD_CHAR = /\w/;

const PLACEHOLDER = /^(?:\$\{|\$[A-Z_]|<|\{\{|%\(|process\.env|os\.environ|\[REDACTED:|\*+$|x+$|\.\.\.)/i;

function assignmentKind(key: string): string {
  const k = key.toLowerCase();
  if (k.includes('pass')) return 'password';
  if (k.includes('api')) return 'api-key';
  if (k.includes('token')) return 'token';
  if (k.includes('private')) return 'private-key';
  return 'secret';
}

function looksLikeCredential(value: string): boolean {
  return /[A-Za-z]/.test(value) && /[0-9]/.test(value) && !PLACEHOLDER.test(value);
}

const PEM_BEGIN = /-----BEGIN (?:[A-Z0-9]+ ){0,4}PRIVATE KEY-----/g;
const PEM_END = /-----END (?:[A-Z0-9]+ ){0,4}PRIVATE KEY-----/g;
/** Base64 body lines after a BEGIN line whose END is missing (a pasted, truncated key). */
const PEM_BODY = /(?:\r?\n[A-Za-z0-9+/=]{16,})*/y;

/**
 * PEM private-key blocks, found with plain scans rather than one lazy regex: `BEGIN … END` with
 * `[\s\S]*?` is quadratic on text full of BEGIN lines without an END. A BEGIN without END still
 * loses its base64 body. (secretlint's privatekey rule needs the END line and 100 body characters.)
 */
function privateKeyFindings(text: string, found: Finding[]): void {
  if (!text.includes('PRIVATE KEY-----')) return;
  let endMissing = false;
  PEM_BEGIN.lastIndex = 0;
  for (let begin = PEM_BEGIN.exec(text); begin !== null; begin = PEM_BEGIN.exec(text)) {
    let stop: number;
    const afterBegin = begin.index + begin[0].length;
    PEM_END.lastIndex = afterBegin;
    const end = endMissing ? null : PEM_END.exec(text);
    if (end !== null) {
      stop = end.index + end[0].length;
    } else {
      // No END after this BEGIN means none after any later BEGIN either: stop looking for one.
      endMissing = true;
      PEM_BODY.lastIndex = afterBegin;
      PEM_BODY.exec(text);
      stop = PEM_BODY.lastIndex;
    }
    found.push({ start: begin.index, end: stop, kind: 'private-key', rule: 'engine:pem' });
    PEM_BEGIN.lastIndex = stop;
  }
}

/**
 * Where the key that ends in the keyword at `keyword` starts: the leftmost word boundary at most
 * 40 key characters before it (the key is `DB_PASSWORD`, `aws.secret_key`), or undefined when
 * there is none. The regex finds the keyword first and this looks back: a regex that starts at
 * every word boundary and tries 40 prefix lengths × 15 keywords was most of the detection cost.
 */
function keyStart(text: string, keyword: number): number | undefined {
  let first = keyword;
  while (first > 0 && keyword - first < KEY_PREFIX_MAX && KEY_PREFIX_CHAR.test(text[first - 1])) first--;
  const isWord = (i: number) => i >= 0 && i < text.length && WORD_CHAR.test(text[i]);
  for (let p = first; p <= keyword; p++) if (isWord(p - 1) !== isWord(p)) return p;
  return undefined;
}

function assignmentFindings(text: string, found: Finding[]): void {
  ASSIGNMENT.lastIndex = 0;
  for (let m = ASSIGNMENT.exec(text); m !== null; m = ASSIGNMENT.exec(text)) {
    const [match, keyword, , , , quoted, bare] = m;
    const start = keyStart(text, m.index);
    if (start === undefined) {
      ASSIGNMENT.lastIndex = m.index + 1;
      continue;
    }
    const key = text.slice(start, m.index + keyword.length);
    const value = quoted ?? bare ?? '';
    if (quoted !== undefined ? PLACEHOLDER.test(quoted) : !looksLikeCredential(value)) continue;
    // The value ends the match (before a closing quote, if any).
    const end = m.index + match.length - (quoted !== undefined ? 1 : 0);
    found.push({ start: end - value.length, end, kind: assignmentKind(key), rule: 'engine:assignment' });
  }
}

function engineTokenFindings(text: string, found: Finding[]): void {
  if (!text.includes('sk-')) return;
  for (const rule of ENGINE_RULES) {
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(text); m !== null; m = rule.pattern.exec(text)) {
      found.push({ start: m.index, end: m.index + m[0].length, kind: rule.kind, rule: 'engine:token' });
    }
  }
}

/**
 * A span that ends a sentence (`… is pscale_tkn_….` or `password=….`) loses the full stop or
 * bracket a broad character class took along: those are prose, not secret.
 */
function trimSentenceEnd(text: string, f: Finding): Finding {
  let end = f.end;
  const atBoundary = end >= text.length || /\s/.test(text[end]);
  if (!atBoundary) return f;
  while (end > f.start + 8 && /[.,:;!?)\]]/.test(text[end - 1])) end--;
  return end === f.end ? f : { ...f, end };
}

const RULE_KEYWORDS = new KeywordSet([...SECRETLINT_KEYWORDS, ...PORTED_KEYWORDS]);

const URL_CREDENTIAL_KINDS = new Set(['database-connection-string', 'basic-auth']);

/**
 * `scheme://user:password@host…` found whole by secretlint: only the password goes, so a note
 * keeps which database or host it was about.
 */
function narrowUrlCredential(text: string, f: Finding): Finding {
  const span = text.slice(f.start, f.end);
  const scheme = span.indexOf('://');
  if (scheme === -1) return f;
  const at = span.indexOf('@', scheme + 3);
  const colon = span.indexOf(':', scheme + 3);
  if (at === -1 || colon === -1 || colon > at) return f;
  return { ...f, start: f.start + colon + 1, end: f.start + at };
}

/**
 * Every secret in `text`, sorted by position, overlapping spans merged (the earliest, then
 * longest, finding's kind names the merged span). Spans that are already placeholders are left out, so redacting
 * twice changes nothing.
 */
export function findSecrets(text: string): Finding[] {
  const found: Finding[] = [];
  privateKeyFindings(text, found);
  const lower = text.toLowerCase();
  // The rules' keywords, found in one pass for both rule sets.
  const present = RULE_KEYWORDS.foundIn(lower);
  for (const f of secretlintFindings(text, lower, true, present)) found.push(URL_CREDENTIAL_KINDS.has(f.kind) ? narrowUrlCredential(text, f) : f);
  for (const f of portedFindings(text, lower, present)) found.push(f);
  engineTokenFindings(text, found);
  // A `key = value` assignment names the span only where no rule recognised the value itself:
  // `token: glpat-…` is a gitlab-token, not a token (and its sentence's full stop stays).
  const assignments: Finding[] = [];
  assignmentFindings(text, assignments);
  for (const a of assignments) if (!found.some((f) => f.start < a.end && a.start < f.end)) found.push(a);
  const live = found.map((f) => trimSentenceEnd(text, f)).filter((f) => f.end > f.start && !text.startsWith('[REDACTED:', f.start));
  live.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Finding[] = [];
  for (const f of live) {
    const last = merged.at(-1);
    if (last !== undefined && f.start < last.end) {
      if (f.end > last.end) merged[merged.length - 1] = { ...last, end: f.end };
    } else {
      merged.push(f);
    }
  }
  return merged;
}

export function redactSecrets(input: string): RedactionResult {
  const findings = findSecrets(input);
  const counts = new Map<string, number>();
  if (findings.length === 0) return { text: input, counts };
  let text = '';
  let last = 0;
  for (const f of findings) {
    text += input.slice(last, f.start) + `[REDACTED:${f.kind}]`;
    counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
    last = f.end;
  }
  return { text: text + input.slice(last), counts };
}

/** The text with its secrets redacted (for output and logs, where no count is needed). */
export function redactText(input: string): string {
  return redactSecrets(input).text;
}

/**
 * A JSON-like value with every string in it redacted (keys too), for records written down whole:
 * saved chats, `run --json`. Values without secrets are returned as they are (same object).
 * `keep` names properties whose values are left alone (opaque tokens such as a thinking block's
 * `signature`, which must come back byte for byte and is no secret of the user's).
 */
export function redactDeep<T>(value: T, keep: ReadonlySet<string> = NO_KEYS): T {
  return redactValue(value, keep, 0) as T;
}

const NO_KEYS: ReadonlySet<string> = new Set();

function redactValue(value: unknown, keep: ReadonlySet<string>, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value !== 'object' || value === null || depth > 200) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = redactValue(v, keep, depth + 1);
      if (r !== v) changed = true;
      return r;
    });
    return changed ? out : value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = redactText(k);
    const r = keep.has(k) ? v : redactValue(v, keep, depth + 1);
    if (r !== v || key !== k) changed = true;
    out[key] = r;
  }
  return changed ? out : value;
}

/** `2 anthropic-api-key, 1 password` */
export function summarizeRedactions(counts: ReadonlyMap<string, number>): string {
  return [...counts].map(([kind, n]) => `${n} ${kind}`).join(', ');
}
