/**
 * Secret-detection benchmark: what redaction costs per write. Memory-sized notes (1, 10 and
 * 100 KB of markdown: prose, bullets, code, hashes, URLs, versions; deterministic), without
 * secrets (the common case) and with five planted; each timed with
 * - the baseline: the engine's nine hand-written patterns before issue 21 (bench/secrets/baseline.ts),
 * - redactSecrets: secretlint's rules run synchronously + gitleaks ports + the engine's own,
 * - secretlint's own async engine (`@secretlint/core` lintSource) with the same secretlint
 *   rules, for reference (why the engine drives the rules itself).
 * Interleaved in the same run; median of BENCH_REPS (default 7) passes of enough calls to take
 * ~50 ms each. Goal: a 10 KB note well under 1 ms of detection.
 */
import { lintSource } from '@secretlint/core';
import { creator as basicAuthRule } from '@secretlint/secretlint-rule-basicauth';
import { creator as databaseRule } from '@secretlint/secretlint-rule-database-connection-string';
import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import { redactSecrets } from '../../src/core/memory/redaction';
import { SECRETLINT_RULE_IDS } from '../../src/core/memory/secrets/secretlint';
import { PORTED_RULES } from '../../src/core/memory/secrets/gitleaks';
import { median, table } from '../engine/measure';
import { redactSecrets as baselineRedact } from './baseline';

let seed = 42;
function rand(): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
}
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(rand() * 16)]).join('');

const LINES: (() => string)[] = [
  () => `## ${pick(['Decisions', 'Progress', 'Open questions', 'Architecture', 'Conventions'])}`,
  () => `- The ${pick(['parser', 'store', 'watcher', 'queue', 'webview'])} ${pick(['retries on EBUSY', 'keeps one lock per store', 'drops stale entries after 30 days', 'renders markdown with highlight.js'])}; see commit ${hex(40)}.`,
  () => `- Requires node ${Math.floor(rand() * 10) + 18}.${Math.floor(rand() * 20)}.${Math.floor(rand() * 9)} and typescript 5.${Math.floor(rand() * 9)}.${Math.floor(rand() * 9)}.`,
  () => `  const ${pick(['token', 'password', 'result', 'value'])} = await ${pick(['fetchToken', 'readConfig', 'load'])}(options); // ${pick(['colour #ff00aa', 'uuid 3b241101-e2bb-4255-8caf-4136c566a962', 'see https://example.com/docs?id=42'])}`,
  () => `The ${pick(['password', 'token', 'secret'])} policy is documented in ${pick(['SECURITY.md', 'docs/auth.md'])}; rotate keys every 90 days and never paste them here.`,
  () => `- integrity sha512-${Buffer.from(hex(64), 'hex').toString('base64')}`,
  () => `Set ANTHROPIC_API_KEY and GITHUB_TOKEN in the environment, never in the repo (${hex(7)}).`,
  () => '',
];

function note(bytes: number): string {
  let out = '# Project memory\n\n';
  while (out.length < bytes) out += pick(LINES)() + '\n';
  return out.slice(0, bytes);
}

const j = (...p: string[]) => p.join('');
/** [line, the secret in it] */
const PLANTED: [string, string][] = [
  [j('glp', 'at-', 'aB3dE5fG7hJ9kL1mN2pQ'), 'aB3dE5fG7hJ9kL1mN2pQ'],
  [j('sk_', 'live_', 'aB3dE5fG7hJ9kL1mN2pQ4rS6'), 'aB3dE5fG7hJ9kL1mN2pQ4rS6'],
  [j('postgres://admin:', 'S3cr3tPassw0rd', '@db.example.com/app'), 'S3cr3tPassw0rd'],
  [j('gh', 'p_', 'A1'.repeat(18)), 'A1'.repeat(18)],
  [j('DB_PASSWORD=', 'hunter22xyz'), 'hunter22xyz'],
];

function withSecrets(text: string): string {
  const lines = text.split('\n');
  PLANTED.forEach(([s], i) => lines.splice(Math.floor(((i + 1) * lines.length) / (PLANTED.length + 1)), 0, s));
  return lines.join('\n');
}

const secretlintConfig = {
  rules: [
    ...(recommendedRules as unknown as { meta: { id: string } }[])
      .filter((r) => SECRETLINT_RULE_IDS.includes(r.meta.id) && r.meta.id !== databaseRule.meta.id && r.meta.id !== basicAuthRule.meta.id)
      .map((r) => ({ id: r.meta.id, rule: r, options: r.meta.id.endsWith('-aws') ? { enableIDScanRule: true } : {} })),
    { id: databaseRule.meta.id, rule: databaseRule },
    { id: basicAuthRule.meta.id, rule: basicAuthRule },
  ],
};

/** Microseconds per call: median of `reps` passes, each of enough calls to take ~50 ms. */
async function time(fn: () => unknown | Promise<unknown>, reps: number): Promise<number> {
  let calls = 1;
  for (;;) {
    const t = performance.now();
    for (let i = 0; i < calls; i++) await fn();
    if (performance.now() - t > 50) break;
    calls *= 2;
  }
  const passes: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t = performance.now();
    for (let i = 0; i < calls; i++) await fn();
    passes.push(((performance.now() - t) * 1000) / calls);
  }
  return median(passes);
}

export async function run(): Promise<void> {
  const reps = Number(process.env.BENCH_REPS ?? 7);
  console.log(`rules: ${SECRETLINT_RULE_IDS.length} secretlint rules, ${PORTED_RULES.length} gitleaks/Microsoft ports, 3 engine rules; baseline: 9 hand-written patterns`);
  console.log('');
  const rows: (string | number)[][] = [];
  let tenKb = Number.NaN;
  for (const kb of [1, 10, 100]) {
    for (const planted of [false, true]) {
      const text = planted ? withSecrets(note(kb * 1024)) : note(kb * 1024);
      const size = text.length / 1024;
      // Sanity: the planted secrets are found by the new detection.
      if (planted && PLANTED.some(([, s]) => redactSecrets(text).text.includes(s))) throw new Error('a planted secret was not redacted');
      if (!planted && redactSecrets(text).counts.size > 0) throw new Error(`false positive in the benign note: ${[...redactSecrets(text).counts.keys()].join(', ')}`);
      const source = { content: text, filePath: '/memories/note.md', contentType: 'text' as const };
      const base = await time(() => baselineRedact(text), reps);
      const now = await time(() => redactSecrets(text), reps);
      const async = await time(() => lintSource({ source, options: { config: secretlintConfig as never } }), reps);
      if (kb === 10 && !planted) tenKb = now;
      rows.push([
        `${kb} KB ${planted ? '+5 secrets' : 'benign'}`,
        base.toFixed(1),
        now.toFixed(1),
        (now / size).toFixed(2),
        `${(now / base).toFixed(1)}×`,
        async.toFixed(1),
        `${(async / now).toFixed(1)}×`,
      ]);
    }
  }
  console.log(table(['note', 'baseline µs', 'redactSecrets µs', 'µs/KB', 'vs baseline', 'secretlint lintSource µs', 'lintSource vs ours'], rows));
  const verdict = tenKb < 1000 ? 'MET' : 'MISSED';
  console.log(`goal: a 10 KB note well under 1 ms of detection: ${(tenKb / 1000).toFixed(3)} ms — ${verdict} (${(1000 / tenKb).toFixed(1)}× under)`);
}
