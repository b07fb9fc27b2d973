/**
 * Planted secrets for the redaction tests: one per format, each with the kind its placeholder
 * names, and benign random-looking strings that must come through unchanged. Secrets are
 * assembled at run time from a seeded generator, so no secret-shaped literal sits in the
 * repository (and scanners of this repository have nothing to flag).
 */
import { createHash } from 'node:crypto';

let seed = 0x5eed;
function rand(): number {
  // mulberry32
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
function from(chars: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += chars[Math.floor(rand() * chars.length)];
  return s;
}
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const DIGITS = '0123456789';
const an = (n: number) => from(LOWER + UPPER + DIGITS, n);
const hex = (n: number) => from('0123456789abcdef', n);
const w = (n: number) => from(LOWER + UPPER + DIGITS + '_-', n);
const b64 = (n: number) => from(LOWER + UPPER + DIGITS + '+/', n);
const upperNum = (n: number) => from(UPPER + DIGITS, n);
const digits = (n: number) => from(DIGITS, n);
/** A password with both letters and digits (what a real one looks like). */
const pw = () => `${an(10)}7x${an(4)}`;
const j = (...parts: string[]) => parts.join('');
const b64url = (s: string) => Buffer.from(s).toString('base64url');

export interface SecretFormat {
  name: string;
  /** The line written to memory (the secret, or the secret with the key naming it). */
  line: string;
  /** The part that must never reach disk. */
  secret: string;
  /** The placeholder's kind: `[REDACTED:<kind>]`. */
  kind: string;
}

function f(name: string, kind: string, secret: string, line: (s: string) => string = (s) => s): SecretFormat {
  return { name, kind, secret, line: line(secret) };
}

const pem = j('-----BEGIN ', 'RSA PRIVATE', ' KEY-----\n', b64(64), '\n', b64(64), '\n', b64(40), '==\n-----END ', 'RSA PRIVATE', ' KEY-----');

export const SECRET_FORMATS: readonly SecretFormat[] = [
  // The 16 formats issue 21 found reaching the disk.
  f('GitLab personal access token', 'gitlab-token', j('glp', 'at-', w(20))),
  f('Slack incoming webhook', 'slack-webhook', j('https://hooks.', 'slack.com/services/T', upperNum(10), '/B', upperNum(10), '/', an(24))),
  f('Stripe live secret key', 'stripe-api-key', j('sk_', 'live_', an(24))),
  f('PyPI upload token', 'pypi-token', j('pypi-', 'AgEIcHlwaS5vcmc', w(120))),
  f('Hugging Face token', 'huggingface-token', j('hf', '_', from(LOWER + UPPER, 34))),
  f('Docker personal access token', 'docker-token', j('dckr', '_pat_', w(27))),
  f('DigitalOcean personal access token', 'digitalocean-token', j('dop', '_v1_', hex(64))),
  f('Shopify access token', 'shopify-token', j('shp', 'at_', hex(32))),
  f('SendGrid API key', 'sendgrid-api-key', j('SG', '.', w(22), '.', w(43))),
  f('Twilio API key', 'twilio-api-key', j('S', 'K', hex(32))),
  f('Databricks token', 'databricks-token', j('da', 'pi', hex(32))),
  f('PostgreSQL URL with a password', 'database-connection-string', pw(), (s) => `postgres://admin:${s}@db.example.com:5432/app`),
  f('URL with basic-auth credentials', 'basic-auth', an(16), (s) => `https://deploy:${s}@git.example.com/team/repo.git`),
  f('Azure storage connection string', 'azure-storage-key', j(b64(86), '=='), (s) => `DefaultEndpointsProtocol=https;AccountName=notesacct;AccountKey=${s};EndpointSuffix=core.windows.net`),
  f('Mailgun private API key', 'mailgun-api-key', j('ke', 'y-', hex(32))),
  f('Linear API key', 'linear-api-key', j('lin', '_api_', an(40))),
  // Formats the old patterns already knew.
  f('Anthropic API key', 'anthropic-api-key', j('sk-', 'ant-api03-', w(93), 'AA')),
  f('OpenAI project key', 'openai-api-key', j('sk-', 'proj-', an(74), 'T3Blbk', 'FJ', an(74))),
  f('GitHub classic token', 'github-token', j('gh', 'p_', an(36))),
  f('GitHub fine-grained token', 'github-token', j('github', '_pat_', an(22), '_', an(59))),
  f('AWS access key id', 'aws-access-key-id', j('AK', 'IA', upperNum(16))),
  f('AWS secret access key', 'aws-secret-access-key', b64(40), (s) => `aws_secret_access_key = ${s}`),
  f('Slack bot token', 'slack-token', j('xo', 'xb-', digits(12), '-', digits(13), '-', an(24))),
  f('Google API key', 'google-api-key', j('AI', 'za', w(35))),
  f('JSON web token', 'jwt', j(b64url('{"alg":"HS256","typ":"JWT"}'), '.', b64url('{"sub":"1234567890","name":"Ada","iat":1516239022}'), '.', w(43))),
  f('PEM private key', 'private-key', pem),
  f('password assignment', 'password', pw(), (s) => `DB_PASSWORD=${s}`),
  // More of secretlint's rules.
  f('npm access token', 'npm-token', j('np', 'm_', an(36))),
  f('MongoDB URL with a password', 'database-connection-string', pw(), (s) => `mongodb+srv://app:${s}@cluster0.example.net/notes`),
  f('MySQL URL with a password', 'database-connection-string', pw(), (s) => `mysql://root:${s}@localhost:3306/app`),
  f('Grafana service account token', 'grafana-token', j('gl', 'sa_', an(32), '_', hex(8))),
  f('Groq API key', 'groq-api-key', j('gs', 'k_', an(52))),
  f('Notion integration token', 'notion-token', j('nt', 'n_', digits(11), an(35))),
  f('HashiCorp Vault service token', 'vault-token', j('hv', 's.', w(95))),
  f('Vercel token', 'vercel-token', j('vc', 'p_', an(40))),
  f('Figma token', 'figma-token', j('fi', 'gd_', w(40))),
  // Ported from gitleaks' default configuration.
  f('Postman API key', 'postman-api-key', j('PM', 'AK-', hex(24), '-', hex(34))),
  f('Square access token', 'square-token', j('sq0', 'atp-', w(22))),
  f('Doppler token', 'doppler-token', j('dp', '.pt.', an(43))),
  f('Pulumi token', 'pulumi-token', j('pu', 'l-', hex(40))),
  f('PlanetScale token', 'planetscale-token', j('pscale', '_tkn_', an(43))),
  f('New Relic user key', 'new-relic-api-key', j('NR', 'AK-', upperNum(27))),
  f('Dynatrace token', 'dynatrace-token', j('dt0', 'c01.', upperNum(24), '.', an(64))),
  f('Alibaba access key id', 'alibaba-access-key-id', j('LT', 'AI', an(20))),
  f('Shippo token', 'shippo-token', j('shippo', '_live_', hex(40))),
  f('age secret key', 'age-secret-key', j('AGE-SECRET', '-KEY-1', from('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58))),
  f('Heroku API key', 'heroku-api-key', j('HR', 'KU-AA', w(58))),
  f('Sentry user token', 'sentry-token', j('sntr', 'yu_', hex(64))),
  f('RubyGems token', 'rubygems-token', j('ruby', 'gems_', hex(48))),
  f('Brevo (Sendinblue) key', 'brevo-api-key', j('xkey', 'sib-', hex(64), '-', an(16))),
  f('Telegram bot token', 'telegram-bot-token', j(digits(10), ':A', w(34)), (s) => `telegram_bot: ${s}`),
  f('Mailchimp API key', 'mailchimp-api-key', j(hex(32), '-us12'), (s) => `mailchimp key = ${s}`),
  f('Azure AD client secret', 'azure-client-secret', j(an(3), '8Q~', w(34).replace(/-/g, '.')), (s) => `client secret "${s}"`),
];

export interface BenignString {
  name: string;
  text: string;
}

const sha = (alg: string, s: string) => createHash(alg).update(s).digest();

/** Random-looking strings developers write in notes that are not secrets. */
export const BENIGN_STRINGS: readonly BenignString[] = [
  { name: 'git SHA', text: `Fixed in ${sha('sha1', 'commit').toString('hex')}` },
  { name: 'short git SHA', text: 'see 3f2a1b4 and 9c0d7e2' },
  { name: 'UUID', text: 'session id 3b241101-e2bb-4255-8caf-4136c566a962' },
  { name: 'sha256 hex', text: `sha256: ${sha('sha256', 'file').toString('hex')}` },
  { name: 'sha512 hex', text: sha('sha512', 'file').toString('hex') },
  { name: 'npm integrity', text: `"integrity": "sha512-${sha('sha512', 'tarball').toString('base64')}"` },
  { name: 'sha1 integrity', text: `integrity sha1-${sha('sha1', 'old').toString('base64')}` },
  { name: 'data URI', text: `![dot](data:image/png;base64,${Buffer.from(sha('sha512', 'png')).toString('base64')}${Buffer.from(sha('sha256', 'png')).toString('base64')})` },
  { name: 'environment variable names', text: 'Set ANTHROPIC_API_KEY, GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY and DATABASE_URL before running.' },
  { name: 'env var reference', text: 'password: ${DB_PASSWORD}' },
  { name: 'version numbers', text: 'Requires node 20.19.0, typescript 5.9.3-beta.2 and vscode ^1.101.0' },
  { name: 'colours', text: 'colors: #ff00aa, #1e1e1e, rgb(12, 34, 56), hsl(210 40% 50%)' },
  { name: 'URL without credentials', text: 'https://github.com/secretlint/secretlint/blob/master/packages/README.md?tab=readme#rules' },
  { name: 'database URL without a password', text: 'postgres://db.example.com:5432/app' },
  { name: 'base64 of prose', text: Buffer.from('the quick brown fox jumps over the lazy dog, twice over').toString('base64') },
  { name: 'docker image digest', text: `node@sha256:${sha('sha256', 'image').toString('hex')}` },
  { name: 'long identifiers', text: 'MemoryEngineOptionsResolver.resolveQuotaRecheckMilliseconds(default)' },
  { name: 'npm package with scope', text: '@secretlint/secretlint-rule-preset-recommend@12.0.0' },
  { name: 'hex colour table', text: '| a | #AABBCC |\n| b | #001122 |' },
  { name: 'placeholder key', text: 'api_key: <your key here>' },
  { name: 'test names with sk-', text: 'Use scikit-learn (sk-learn-compatible-estimators-are-nice).' },
  { name: 'public key', text: j('-----BEGIN ', 'PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END ', 'PUBLIC KEY-----') },
];

/** All formats in one note, one per line. */
export function allSecretsNote(): string {
  return SECRET_FORMATS.map((s) => `- ${s.name}: ${s.line}`).join('\n') + '\n';
}
