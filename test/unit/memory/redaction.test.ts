import * as assert from 'node:assert/strict';
import { redactSecrets, summarizeRedactions } from '../../../src/core/memory';

// Fake secrets are assembled at run time so no secret-shaped literal sits in the repository.
const j = (...parts: string[]) => parts.join('');
const ALNUM = 'aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY';

const POSITIVES: [string, string, string][] = [
  // [input, expected output, kind]
  [j('key: sk-', 'ant-api03-', ALNUM, '-_x'), 'key: [REDACTED:anthropic-api-key]', 'anthropic-api-key'],
  [j('OPENAI=sk-', ALNUM), 'OPENAI=[REDACTED:openai-api-key]', 'openai-api-key'],
  [j('use sk-', 'proj-', ALNUM, ALNUM, ' here'), 'use [REDACTED:openai-api-key] here', 'openai-api-key'],
  [j('gh', 'p_', 'A1'.repeat(18)), '[REDACTED:github-token]', 'github-token'],
  [j('gh', 'o_', 'b2'.repeat(18)), '[REDACTED:github-token]', 'github-token'],
  [j('gh', 's_', 'c3'.repeat(18)), '[REDACTED:github-token]', 'github-token'],
  [j('gh', 'u_', 'd4'.repeat(18)), '[REDACTED:github-token]', 'github-token'],
  [j('gh', 'r_', 'e5'.repeat(18)), '[REDACTED:github-token]', 'github-token'],
  [j('git', 'hub_pat_', '11ABCDEFG0', 'abcdefg_', ALNUM, ALNUM.toLowerCase()), '[REDACTED:github-token]', 'github-token'],
  [j('id AK', 'IA', 'IOSFODNN7EXAMPLF', '.'), 'id [REDACTED:aws-access-key-id].', 'aws-access-key-id'],
  [j('AS', 'IA', 'ZZZZZZZZZZZZZZZ9'), '[REDACTED:aws-access-key-id]', 'aws-access-key-id'],
  [j('aws_secret_access_key = ', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCY', 'EXAMPLEKEZ'), 'aws_secret_access_key = [REDACTED:aws-secret-access-key]', 'aws-secret-access-key'],
  [j('xo', 'xb-', '1234567890-abcdefghij'), '[REDACTED:slack-token]', 'slack-token'],
  [j('xo', 'xp-', 'aaaa-bbbb-cccc'), '[REDACTED:slack-token]', 'slack-token'],
  [j('AI', 'za', 'SyA-1234567890abcdefghijklmnopqrstu'), '[REDACTED:google-api-key]', 'google-api-key'],
  [j('Bearer ey', 'JhbGciOiJIUzI1NiJ9.ey', 'JzdWIiOiIxMjM0NTY3ODkwIn0.', 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'), 'Bearer [REDACTED:jwt]', 'jwt'],
  [j('-----BEGIN ', 'RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nabc\n-----END RSA ', 'PRIVATE KEY-----\nafter'), '[REDACTED:private-key]\nafter', 'private-key'],
  [j('-----BEGIN ', 'PRIVATE KEY-----\nMIIE\n-----END ', 'PRIVATE KEY-----'), '[REDACTED:private-key]', 'private-key'],
  ['password=hunter22', 'password=[REDACTED:password]', 'password'],
  ['DB_PASSWORD: "correct horse battery staple"', 'DB_PASSWORD: "[REDACTED:password]"', 'password'],
  ["secret: 'abc123xyz'", "secret: '[REDACTED:secret]'", 'secret'],
  ['token=9f8e7d6c5b4a', 'token=[REDACTED:token]', 'token'],
  ['api_key = q1w2e3r4t5y6', 'api_key = [REDACTED:api-key]', 'api-key'],
  ['"client_secret": "s3cr3t-value-1"', '"client_secret": "[REDACTED:secret]"', 'secret'],
  ['GITHUB_TOKEN=abcd1234efgh', 'GITHUB_TOKEN=[REDACTED:token]', 'token'],
];

const NEGATIVES = [
  'The password policy requires 12 characters.',
  'Remember: the secret to good notes is brevity.',
  'token: the next item in the lexer',
  'password = config.password',
  'const token = await fetchToken();',
  'max_tokens = 2048',
  'max_tokens: 1024',
  'token_count: 5',
  'password: "${DB_PASSWORD}"',
  'api_key: <your key here>',
  'token = process.env.GITHUB_TOKEN',
  'Use scikit-learn (sk-learn-compatible-estimators-are-nice).',
  'task-1234567890-abcdefghij is an id',
  'See https://example.com/ghp_guide and the AKIA prefix docs.',
  // AWS's documentation examples, which secretlint's AWS rule deliberately leaves alone.
  j('AK', 'IA', 'IOSFODNN7EXAMPLE'),
  'eyJ alone is not a token',
  'ASIA is a continent',
  'def check_password(pw): return pw == stored',
  '- [ ] rotate the api_key next week',
  'password: ********',
  '-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----',
];

describe('redactSecrets', () => {
  for (const [input, expected, kind] of POSITIVES) {
    it(`redacts a ${kind}: ${JSON.stringify(expected)}`, () => {
      const result = redactSecrets(input);
      assert.equal(result.text, expected);
      assert.deepEqual([...result.counts], [[kind, 1]]);
    });
  }

  for (const input of NEGATIVES) {
    it(`leaves ordinary text alone: ${JSON.stringify(input)}`, () => {
      const result = redactSecrets(input);
      assert.equal(result.text, input);
      assert.equal(result.counts.size, 0);
    });
  }

  it('counts several kinds and several of a kind, and summarises them', () => {
    const input = [j('a gh', 'p_', 'A1'.repeat(18)), j('b gh', 'p_', 'B2'.repeat(18)), 'password=hunter22', j('c AK', 'IA', 'IOSFODNN7EXAMPLF')].join('\n');
    const result = redactSecrets(input);
    assert.equal(result.text, 'a [REDACTED:github-token]\nb [REDACTED:github-token]\npassword=[REDACTED:password]\nc [REDACTED:aws-access-key-id]');
    assert.equal(summarizeRedactions(result.counts), '2 github-token, 1 password, 1 aws-access-key-id');
  });

  it('is idempotent: redacted text stays as it is', () => {
    const once = redactSecrets(POSITIVES.map(([input]) => input).join('\n')).text;
    const twice = redactSecrets(once);
    assert.equal(twice.text, once);
    assert.equal(twice.counts.size, 0);
  });

  it('redacts the body of a PEM private key whose END line is missing, and several keys', () => {
    const body = '\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKB';
    const truncated = redactSecrets(j('-----BEGIN ', 'OPENSSH PRIVATE KEY-----', body, '\n\nnext paragraph'));
    assert.equal(truncated.text, '[REDACTED:private-key]\n\nnext paragraph');
    const two = redactSecrets(j('a\n-----BEGIN ', 'EC PRIVATE KEY-----\nAAAA\n-----END EC ', 'PRIVATE KEY-----\nb\n-----BEGIN ', 'PRIVATE KEY-----\nBBBB\n-----END ', 'PRIVATE KEY-----\nc'));
    assert.equal(two.text, 'a\n[REDACTED:private-key]\nb\n[REDACTED:private-key]\nc');
    assert.deepEqual([...two.counts], [['private-key', 2]]);
  });

  // Regression guard against catastrophic backtracking: each input took minutes with the first
  // patterns; now they finish in well under a second (mocha's timeout fails a hang).
  const ADVERSARIAL: Record<string, string> = {
    'dotted words': 'a.'.repeat(250_000),
    'BEGIN lines without END': j('-----BEGIN ', 'PRIVATE KEY-----').repeat(20_000),
    'open quotes after keys': "token='abcdefg ".repeat(30_000),
    'sk- runs': 'sk-'.repeat(150_000),
    'JWT-like runs': 'eyJaaaaaaaaa.'.repeat(40_000),
  };
  for (const [name, input] of Object.entries(ADVERSARIAL)) {
    it(`stays linear on ${name} (${input.length} characters)`, function () {
      this.timeout(10_000);
      const result = redactSecrets(input);
      assert.ok(result.text.length > 0);
    });
  }
});
