/**
 * BASELINE ONLY: the engine's redaction before issue 21 (nine hand-written patterns), kept here
 * verbatim so bench/secrets can measure the rule-set detection against it in the same run.
 * Not used by the product.
 */
/**
 * Secret redaction applied to the final text of every write, so secrets never reach disk.
 * Patterns are deliberately specific (known prefixes, lengths, or an explicit `key = value`
 * assignment whose value looks like a credential) to leave ordinary prose and code alone.
 */

export interface RedactionResult {
  text: string;
  /** Count per kind, in first-seen order; empty when nothing was redacted. */
  counts: ReadonlyMap<string, number>;
}

interface Rule {
  kind: string;
  pattern: RegExp;
  /** Which capture group holds the secret; 0 = the whole match. */
  group: number;
}

// A token must not be glued to more token characters on its left (e.g. `xsk-...`).
const L = '(?<![A-Za-z0-9_-])';

const RULES: readonly Rule[] = [
  { kind: 'anthropic-api-key', pattern: new RegExp(`${L}sk-ant-[A-Za-z0-9_-]{20,}`, 'g'), group: 0 },
  {
    kind: 'openai-api-key',
    // Needs a digit in the body so `sk-learn-compatible-...` style words survive.
    pattern: new RegExp(`${L}sk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}`, 'g'),
    group: 0,
  },
  { kind: 'github-token', pattern: new RegExp(`${L}(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})`, 'g'), group: 0 },
  { kind: 'aws-access-key-id', pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, group: 0 },
  {
    kind: 'aws-secret-access-key',
    pattern: /\baws_?secret_?(?:access_?)?key\b["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    group: 1,
  },
  { kind: 'slack-token', pattern: new RegExp(`${L}xox[abprs]-[A-Za-z0-9-]{10,}`, 'g'), group: 0 },
  { kind: 'google-api-key', pattern: new RegExp(`${L}AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])`, 'g'), group: 0 },
  { kind: 'jwt', pattern: new RegExp(`${L}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}`, 'g'), group: 0 },
];

/**
 * `password: "..."`, `DB_PASSWORD=...`, `api_key = ...`, `client_secret: ...`, `token=...`.
 * The key must end right before the separator (so `max_tokens = 2048` and `token_count: 5` are
 * not keys). Unquoted values must be one run of ≥ 8 non-space characters holding both a letter
 * and a digit (so `password = config.password` and `token = await fetch()` survive); quoted
 * values of ≥ 6 characters are taken as they are unless they look like a placeholder.
 */
const ASSIGNMENT =
  /\b([A-Za-z0-9_.-]{0,40}?(password|passwd|passphrase|secret|secret_key|client_secret|token|access_token|refresh_token|auth_token|api_key|apikey|api-key|private_key))(["']?)(\s*[:=]\s*)(?:(["'])([^"'\r\n]{6,200}?)\5|([^\s"'`,;]{8,}))/gi;

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
 * loses its base64 body.
 */
function redactPrivateKeys(text: string, bump: (kind: string) => void): string {
  let out = '';
  let last = 0;
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
    out += text.slice(last, begin.index) + '[REDACTED:private-key]';
    bump('private-key');
    last = stop;
    PEM_BEGIN.lastIndex = stop;
  }
  return out + text.slice(last);
}

export function redactSecrets(input: string): RedactionResult {
  const counts = new Map<string, number>();
  const bump = (kind: string) => counts.set(kind, (counts.get(kind) ?? 0) + 1);
  let text = redactPrivateKeys(input, bump);
  for (const rule of RULES) {
    text = text.replace(rule.pattern, (match: string, ...groups: unknown[]) => {
      bump(rule.kind);
      if (rule.group === 0) return `[REDACTED:${rule.kind}]`;
      const secret = groups[rule.group - 1] as string;
      // The secret group ends the match, so everything before it is kept.
      return match.slice(0, match.length - secret.length) + `[REDACTED:${rule.kind}]`;
    });
  }
  text = text.replace(
    ASSIGNMENT,
    (match: string, key: string, _name: string, keyQuote: string, sep: string, quote?: string, quoted?: string, bare?: string) => {
      const value = quoted ?? bare ?? '';
      if (quoted !== undefined ? PLACEHOLDER.test(quoted) || value.startsWith('[REDACTED:') : !looksLikeCredential(value)) {
        return match;
      }
      const kind = assignmentKind(key);
      bump(kind);
      const replaced = `[REDACTED:${kind}]`;
      return quoted !== undefined ? `${key}${keyQuote}${sep}${quote}${replaced}${quote}` : `${key}${keyQuote}${sep}${replaced}`;
    },
  );
  return { text, counts };
}

/** `2 anthropic-api-key, 1 password` */
export function summarizeRedactions(counts: ReadonlyMap<string, number>): string {
  return [...counts].map(([kind, n]) => `${n} ${kind}`).join(', ');
}
