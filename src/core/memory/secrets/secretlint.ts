/**
 * secretlint's rules, run synchronously on a string. The rules come from the maintained packages
 * (`@secretlint/secretlint-rule-preset-recommend`, `-database-connection-string`, `-basicauth`);
 * only the driver is ours. `@secretlint/core`'s `lintSource` runs the same rule objects but is
 * async and costs ~8× more per call (events, profiler marks, message clean-up: bench/secrets), and
 * detection runs on every memory write, inside the store lock. The rules' `file()` handlers for
 * text are synchronous: each one scans `source.content` with its regexes and calls
 * `context.report({ message, range })`, which is all this driver provides.
 *
 * Left out on purpose: `filter-comments` (a `secretlint-disable` comment in memory, which the
 * model or a cloned repository writes, must not turn redaction off) and `gcp` (it reads `.p12` /
 * `.json` files from disk by path; PEM keys are found by `privatekey` and the engine's own scan).
 */
import { creator as basicAuthRule } from '@secretlint/secretlint-rule-basicauth';
import { creator as databaseRule } from '@secretlint/secretlint-rule-database-connection-string';
import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import { KeywordSet } from './keywords';
import type { Finding } from './types';

const PREFIX = '@secretlint/secretlint-rule-';

/** Our placeholder kind per rule (and per message where one rule finds several things). */
const KINDS: Readonly<Record<string, string>> = {
  'aws/AWSAccessKeyID': 'aws-access-key-id',
  'aws/AWSSecretAccessKey': 'aws-secret-access-key',
  privatekey: 'private-key',
  npm: 'npm-token',
  basicauth: 'basic-auth',
  'slack/IncomingWebhook': 'slack-webhook',
  slack: 'slack-token',
  sendgrid: 'sendgrid-api-key',
  shopify: 'shopify-token',
  github: 'github-token',
  gitlab: 'gitlab-token',
  grafana: 'grafana-token',
  openai: 'openai-api-key',
  anthropic: 'anthropic-api-key',
  groq: 'groq-api-key',
  huggingface: 'huggingface-token',
  linear: 'linear-api-key',
  notion: 'notion-token',
  '1password': '1password-token',
  'database-connection-string': 'database-connection-string',
  'hashicorp-vault': 'vault-token',
  vercel: 'vercel-token',
  databricks: 'databricks-token',
  docker: 'docker-token',
  figma: 'figma-token',
};

/** Messages that are not secrets (the option that would scan for AWS account ids is off, see above). */
const IGNORED_MESSAGES = new Set(['aws/AWSAccountID']);
const EXCLUDED_RULES = new Set(['filter-comments', 'gcp']);
/** Rules the preset bundles a copy of, taken from their own (maintained) packages instead. */
const OWN_PACKAGE = [databaseRule, basicAuthRule];
/**
 * The AWS access key id scan, from secretlint's aws rule (its `reportAWSAccessKey`, the same
 * regex and built-in ignore). The rule runs it only with `enableIDScanRule`, which also turns on
 * its AWS *account id* scan: an account id is an identifier people write in notes, not a secret,
 * and that scan was the costliest regex on ordinary notes (bench/secrets). So the rule runs with
 * the option off (its secret-access-key scan) and the key id scan runs here.
 */
const AWS_ACCESS_KEY_ID = /\b(A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z0-9]{16}\b/g;
const AWS_ACCESS_KEY_ID_GATE: readonly string[] = ['akia', 'a3t', 'agpa', 'aida', 'aroa', 'aipa', 'anpa', 'anva', 'asia'];
const AWS_BUILTIN_IGNORED = new Set(['AKIAIOSFODNN7EXAMPLE']);
const AWS_RULE_ID = '@secretlint/secretlint-rule-aws';

/**
 * Substrings (lower case) without which a rule cannot match: the rule is skipped when the text
 * has none of them. Only for the rules that cost the most on ordinary notes (bench/secrets); each
 * list is read off the rule's own regexes, and a unit test checks that gated and ungated runs
 * find the same secrets in every test format.
 */
const GATES: Readonly<Record<string, readonly string[]>> = {
  aws: ['secret'],
  linear: ['lin_api_'],
  'hashicorp-vault': ['hvs.', 'hvb.', 'hvr.'],
  shopify: ['shppa_', 'shpca_', 'shpat_', 'shpss_'],
  npm: ['npm_', '_authtoken', 'x-oauth-basic'],
  slack: ['xox', 'xapp', 'hooks.slack.com'],
  openai: ['t3blbkfj'],
  basicauth: ['://'],
  'database-connection-string': ['://'],
};

/** Every keyword the gates here look for (findSecrets looks for them with the ported rules' in one pass). */
export const SECRETLINT_KEYWORDS: readonly string[] = [...Object.values(GATES).flat(), ...AWS_ACCESS_KEY_ID_GATE];
const GATE_KEYWORDS = new KeywordSet(SECRETLINT_KEYWORDS);

interface SecretlintRule {
  meta: { id: string; type: string };
  create(context: unknown, options: unknown): { file?: (source: unknown) => unknown };
}

interface Report {
  message: { messageId?: string; data?: Record<string, unknown> } | string;
  range: readonly [number, number];
}

function shortId(rule: SecretlintRule): string {
  return rule.meta.id.startsWith(PREFIX) ? rule.meta.id.slice(PREFIX.length) : rule.meta.id;
}

const RULES: readonly SecretlintRule[] = (() => {
  const own = new Set(OWN_PACKAGE.map((r) => (r as unknown as SecretlintRule).meta.id));
  const preset = (recommendedRules as unknown as SecretlintRule[]).filter((r) => !own.has(r.meta.id));
  return [...preset, ...(OWN_PACKAGE as unknown as SecretlintRule[])].filter(
    (r) => r.meta.type === 'scanner' && !EXCLUDED_RULES.has(shortId(r)),
  );
})();

/** The rule ids this driver runs (bench/secrets compares them with secretlint's own engine). */
export const SECRETLINT_RULE_IDS: readonly string[] = RULES.map((r) => r.meta.id);

/** One report's kind, or undefined when the message is not a secret. */
function kindOf(rule: string, messageId: string | undefined): string | undefined {
  const key = `${rule}/${messageId ?? ''}`;
  if (IGNORED_MESSAGES.has(key)) return undefined;
  return KINDS[key] ?? KINDS[rule] ?? `${rule}-secret`;
}

/** Line/column helpers some rules call for their messages (never on the hot path). */
function positionOf(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: index - start };
}

/**
 * Where the secret really is. A report's range is the match, except where a rule reports a
 * capture group with the range of the whole match (secretlint's AWS secret-key rule: the range
 * starts at `aws_secret_access_key` and is as long as the key, so it would miss the key's tail).
 * The message data holds the secret itself: when it differs from the range, it is looked for
 * from the range's start, and its own span is redacted.
 */
function secretRange(text: string, report: Report): [number, number] {
  const [start, end] = report.range;
  const data = typeof report.message === 'string' ? undefined : report.message.data;
  if (data === undefined) return [start, end];
  const slice = text.slice(start, end);
  for (const value of Object.values(data)) {
    if (typeof value !== 'string' || value.length < 4 || value === slice) continue;
    const at = text.indexOf(value, start);
    if (at !== -1 && at <= end) return [at, at + value.length];
  }
  return [start, end];
}

/**
 * Findings of every secretlint rule in `text`, in report order. `lower` is `text` in lower case
 * (for the gates); `gated: false` runs every rule whatever the text holds (for the test);
 * `present`: the keywords of SECRETLINT_KEYWORDS the text holds, when the caller has them.
 */
export function secretlintFindings(
  text: string,
  lower: string = text.toLowerCase(),
  gated = true,
  present: ReadonlySet<string> | undefined = gated ? GATE_KEYWORDS.foundIn(lower) : undefined,
): Finding[] {
  const found: Finding[] = [];
  const source = {
    content: text,
    filePath: undefined,
    ext: '',
    contentType: 'text',
    indexToPosition: (index: number) => positionOf(text, index),
    positionToIndex: () => 0,
    locationToRange: () => [0, 0],
  };
  for (const rule of RULES) {
    const id = shortId(rule);
    const gate = GATES[id];
    if (present !== undefined && gate !== undefined && !gate.some((k) => present.has(k))) continue;
    const context = {
      report(report: Report) {
        const messageId = typeof report.message === 'string' ? undefined : report.message.messageId;
        const kind = kindOf(id, messageId);
        if (kind === undefined) return;
        const [start, end] = secretRange(text, report);
        found.push({ start, end, kind, rule: rule.meta.id });
      },
      ignore() {},
      // The message text is never used (it would repeat the secret): only its id and data.
      createTranslator: () => (messageId: string, data?: Record<string, unknown>) => ({ messageId, message: messageId, data }),
      sharedOptions: {},
    };
    const handler = rule.create(context, {});
    handler.file?.(source);
  }
  awsAccessKeyIds(text, present, found);
  return found;
}

function awsAccessKeyIds(text: string, present: ReadonlySet<string> | undefined, found: Finding[]): void {
  if (present !== undefined && !AWS_ACCESS_KEY_ID_GATE.some((k) => present.has(k))) return;
  for (const m of text.matchAll(AWS_ACCESS_KEY_ID)) {
    if (AWS_BUILTIN_IGNORED.has(m[0])) continue;
    found.push({ start: m.index, end: m.index + m[0].length, kind: KINDS['aws/AWSAccessKeyID'], rule: AWS_RULE_ID });
  }
}
