/**
 * Formats secretlint's recommended rules do not cover, ported by pattern from gitleaks' default
 * configuration (config/gitleaks.toml, MIT, https://github.com/gitleaks/gitleaks; read at commit
 * b58d3f1). Each rule names the gitleaks rule id it comes from. Changes made in porting:
 * - Go's inline `(?i)` becomes explicit character classes (Node 20's RegExp has no modifiers).
 * - gitleaks' trailing `(?:[\x60'"\s;]|\\[nr]|$)` becomes a lookahead that the next character
 *   is not part of the token, so the span is the secret alone and a secret at the end of a
 *   sentence (`… sk_live_… .`) is still found.
 * - Every rule keeps gitleaks' `keywords`: a rule's regex only runs when one of them occurs in
 *   the lower-cased text (gitleaks does the same), which keeps the cost per write low.
 * - Where gitleaks relies on an entropy threshold against look-alikes, the ported regex keeps
 *   the fixed prefix that makes it specific; a few add a left boundary (noted).
 *
 * One format neither secretlint nor gitleaks has: the Azure Storage connection string's
 * `AccountKey=` (Microsoft's documented format: a 64-byte key in base64, 88 characters).
 */
import { KeywordSet } from './keywords';
import type { Finding } from './types';

interface PortedRule {
  /** gitleaks rule id (or `azure-storage-account-key`, see above). */
  id: string;
  kind: string;
  /** Lower-case substrings; the regex runs only when the text holds one of them. */
  keywords: readonly string[];
  /** Global regex; the secret is capture group 1 when there is one, else the whole match. */
  pattern: RegExp;
  source: 'gitleaks' | 'microsoft';
}

/** Not followed by another character of the token. */
const END_W = '(?![A-Za-z0-9_-])';
/** Not glued to a token on the left. */
const START = '(?<![A-Za-z0-9_-])';
/** gitleaks' assignment operator between a provider's name and its secret. */
const ASSIGN = `(?:[ \\t\\w.-]{0,20})[\\s'"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'"\\s=]{0,5}`;

function keyed(name: string): string {
  return `[\\w.-]{0,50}?(?:${name})${ASSIGN}`;
}

const g = (id: string, kind: string, keywords: string[], pattern: string, flags = ''): PortedRule => ({
  id,
  kind,
  keywords,
  pattern: new RegExp(pattern, `g${flags}`),
  source: 'gitleaks',
});

export const PORTED_RULES: readonly PortedRule[] = [
  // stripe-access-token
  g('stripe-access-token', 'stripe-api-key', ['sk_test', 'sk_live', 'sk_prod', 'rk_test', 'rk_live', 'rk_prod'], `\\b(?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99}${END_W}`),
  // pypi-upload-token
  g('pypi-upload-token', 'pypi-token', ['pypi-ageichlwas5vcmc'], `pypi-AgEIcHlwaS5vcmc[\\w-]{50,1000}`),
  // digitalocean-pat, digitalocean-access-token, digitalocean-refresh-token
  g('digitalocean-pat', 'digitalocean-token', ['dop_v1_', 'doo_v1_', 'dor_v1_'], `\\bdo[por]_v1_[a-f0-9]{64}${END_W}`),
  // sendgrid-api-token (secretlint's sendgrid rule allows one '-' or '_' in the second part only)
  g('sendgrid-api-token', 'sendgrid-api-key', ['sg.'], `\\bSG\\.[a-zA-Z0-9=_.-]{66}${END_W}`),
  // twilio-api-key (plus a left boundary: `SK` inside a longer word is not a key)
  g('twilio-api-key', 'twilio-api-key', ['sk'], `${START}SK[0-9a-fA-F]{32}(?![0-9a-zA-Z])`),
  // mailgun-private-api-token
  g('mailgun-private-api-token', 'mailgun-api-key', ['key-'], `${START}key-[a-f0-9]{32}(?![a-zA-Z0-9])`),
  // mailgun-pub-key
  g('mailgun-pub-key', 'mailgun-api-key', ['pubkey-'], `${START}pubkey-[a-f0-9]{32}(?![a-zA-Z0-9])`),
  // mailgun-signing-key
  g('mailgun-signing-key', 'mailgun-signing-key', ['mailgun'], `${keyed('mailgun')}([a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8})${END_W}`, 'i'),
  // gcp-api-key
  g('gcp-api-key', 'google-api-key', ['aiza'], `\\bAIza[\\w-]{35}${END_W}`),
  // jwt
  g('jwt', 'jwt', ['eyj'], `\\bey[a-zA-Z0-9_-]{17,}\\.ey[a-zA-Z0-9/\\\\_-]{17,}\\.(?:[a-zA-Z0-9/\\\\_-]{10,}={0,2})?`),
  // postman-api-token
  g('postman-api-token', 'postman-api-key', ['pmak-'], `\\bPMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}${END_W}`),
  // square-access-token
  g('square-access-token', 'square-token', ['sq0atp-', 'eaaa'], `\\b(?:EAAA|sq0atp-)[\\w-]{22,60}${END_W}`),
  // doppler-api-token
  g('doppler-api-token', 'doppler-token', ['dp.pt.'], `dp\\.pt\\.[a-zA-Z0-9]{43}`),
  // pulumi-api-token
  g('pulumi-api-token', 'pulumi-token', ['pul-'], `\\bpul-[a-f0-9]{40}${END_W}`),
  // flyio-access-token
  g('flyio-access-token', 'flyio-token', ['fo1_', 'fm1', 'fm2_'], `\\b(?:fo1_[\\w-]{43}|fm1[ar]_[a-zA-Z0-9+/]{100,}={0,3}|fm2_[a-zA-Z0-9+/]{100,}={0,3})`),
  // planetscale-api-token, planetscale-password
  g('planetscale-api-token', 'planetscale-token', ['pscale_tkn_', 'pscale_pw_'], `\\bpscale_(?:tkn|pw)_[\\w=.-]{32,64}${END_W}`),
  // telegram-bot-api-token
  g('telegram-bot-api-token', 'telegram-bot-token', ['telegr'], `${keyed('telegr')}([0-9]{5,16}:A[a-zA-Z0-9_-]{34})${END_W}`, 'i'),
  // new-relic-user-api-key
  g('new-relic-user-api-key', 'new-relic-api-key', ['nrak-'], `\\bNRAK-[a-zA-Z0-9]{27}${END_W}`),
  // dynatrace-api-token
  g('dynatrace-api-token', 'dynatrace-token', ['dt0c01.'], `dt0c01\\.[a-zA-Z0-9]{24}\\.[a-zA-Z0-9]{64}`),
  // alibaba-access-key-id
  g('alibaba-access-key-id', 'alibaba-access-key-id', ['ltai'], `\\bLTAI[a-zA-Z0-9]{20}${END_W}`),
  // mailchimp-api-key
  g('mailchimp-api-key', 'mailchimp-api-key', ['mailchimp'], `${keyed('MailchimpSDK.initialize|mailchimp')}([a-f0-9]{32}-us\\d\\d)${END_W}`, 'i'),
  // shippo-api-token
  g('shippo-api-token', 'shippo-token', ['shippo_'], `\\bshippo_(?:live|test)_[a-fA-F0-9]{40}${END_W}`),
  // flutterwave-secret-key
  g('flutterwave-secret-key', 'flutterwave-secret-key', ['flwseck_test'], `FLWSECK_TEST-[a-hA-H0-9]{32}-X`),
  // age-secret-key
  g('age-secret-key', 'age-secret-key', ['age-secret-key-1'], `AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`),
  // azure-ad-client-secret
  g('azure-ad-client-secret', 'azure-client-secret', ['q~'], `(?:^|[\\\\'"\\x60\\s>=:(,)])([a-zA-Z0-9_~.]{3}\\dQ~[a-zA-Z0-9_~.-]{31,34})(?=$|[\\\\'"\\x60\\s<),])`),
  // heroku-api-key-v2
  g('heroku-api-key-v2', 'heroku-api-key', ['hrku-aa'], `\\bHRKU-AA[0-9a-zA-Z_-]{58}${END_W}`),
  // atlassian-api-token (the ATATT3 form; the keyword-and-24-hex form relies on entropy)
  g('atlassian-api-token', 'atlassian-api-token', ['atatt3'], `\\bATATT3[A-Za-z0-9_=-]{186}${END_W}`),
  // sentry-user-token
  g('sentry-user-token', 'sentry-token', ['sntryu_'], `\\bsntryu_[a-f0-9]{64}${END_W}`),
  // sentry-org-token
  g('sentry-org-token', 'sentry-token', ['sntrys_'], `\\bsntrys_eyJpYXQiO[a-zA-Z0-9+/]{10,200}(?:LCJyZWdpb25fdXJs|InJlZ2lvbl91cmwi|cmVnaW9uX3VybCI6)[a-zA-Z0-9+/]{10,200}={0,2}_[a-zA-Z0-9+/]{43}(?![a-zA-Z0-9+/])`),
  // rubygems-api-token
  g('rubygems-api-token', 'rubygems-token', ['rubygems_'], `\\brubygems_[a-f0-9]{48}${END_W}`),
  // clojars-api-token
  g('clojars-api-token', 'clojars-token', ['clojars_'], `CLOJARS_[a-zA-Z0-9]{60}`, 'i'),
  // prefect-api-token
  g('prefect-api-token', 'prefect-token', ['pnu_'], `\\bpnu_[a-zA-Z0-9]{36}${END_W}`),
  // readme-api-token
  g('readme-api-token', 'readme-token', ['rdme_'], `\\brdme_[a-z0-9]{70}${END_W}`),
  // scalingo-api-token
  g('scalingo-api-token', 'scalingo-token', ['tk-us-'], `\\btk-us-[\\w-]{48}${END_W}`),
  // easypost-api-token
  g('easypost-api-token', 'easypost-token', ['ezak'], `\\bEZAK[a-zA-Z0-9]{54}\\b`),
  // duffel-api-token
  g('duffel-api-token', 'duffel-token', ['duffel_'], `duffel_(?:test|live)_[a-zA-Z0-9_=-]{43}`),
  // adobe-client-secret
  g('adobe-client-secret', 'adobe-client-secret', ['p8e-'], `\\bp8e-[a-zA-Z0-9]{32}${END_W}`),
  // openshift-user-token
  g('openshift-user-token', 'openshift-token', ['sha256~'], `\\bsha256~[\\w-]{43}${END_W}`),
  // artifactory-api-key
  g('artifactory-api-key', 'artifactory-api-key', ['akcp'], `\\bAKCp[A-Za-z0-9]{69}\\b`),
  // infracost-api-token
  g('infracost-api-token', 'infracost-token', ['ico-'], `\\bico-[a-zA-Z0-9]{32}${END_W}`),
  // sendinblue-api-token
  g('sendinblue-api-token', 'brevo-api-key', ['xkeysib-'], `\\bxkeysib-[a-f0-9]{64}-[a-zA-Z0-9]{16}${END_W}`),
  // harness-api-key
  g('harness-api-key', 'harness-api-key', ['pat.', 'sat.'], `${START}(?:pat|sat)\\.[a-zA-Z0-9_-]{22}\\.[a-zA-Z0-9]{24}\\.[a-zA-Z0-9]{20}${END_W}`),
  // sourcegraph-access-token (the sgp_ forms; gitleaks' bare 40-hex alternative would take every git SHA)
  g('sourcegraph-access-token', 'sourcegraph-token', ['sgp_'], `\\bsgp_(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}\\b`),
  // frameio-api-token
  g('frameio-api-token', 'frameio-token', ['fio-u-'], `fio-u-[a-zA-Z0-9_=-]{64}`),
  // shopify-shared-secret is in secretlint's shopify rule; grafana-api-key (eyJrIjoi…) is not:
  g('grafana-api-key', 'grafana-token', ['eyjrijoi'], `\\beyJrIjoi[A-Za-z0-9]{70,400}={0,3}(?![A-Za-z0-9=])`, 'i'),
  // cloudflare-origin-ca-key
  g('cloudflare-origin-ca-key', 'cloudflare-origin-ca-key', ['v1.0-'], `\\bv1\\.0-[a-f0-9]{24}-[a-f0-9]{146}${END_W}`),
  // slack-webhook-url also covers workflow and trigger URLs (secretlint: services only)
  g('slack-webhook-url', 'slack-webhook', ['hooks.slack.com'], `(?:https?://)?hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56}`),
  {
    id: 'azure-storage-account-key',
    kind: 'azure-storage-key',
    keywords: ['accountkey='],
    pattern: /AccountKey=([A-Za-z0-9+/]{86}==)/gi,
    source: 'microsoft',
  },
];

/** Every ported rule's keywords. */
export const PORTED_KEYWORDS: readonly string[] = PORTED_RULES.flatMap((r) => r.keywords);
const KEYWORDS = new KeywordSet(PORTED_KEYWORDS);

/**
 * Findings of every ported rule whose keyword occurs in `text` (`lower`: it in lower case;
 * `present`: the keywords of PORTED_KEYWORDS it holds, when the caller has them).
 */
export function portedFindings(text: string, lower: string = text.toLowerCase(), present: ReadonlySet<string> = KEYWORDS.foundIn(lower)): Finding[] {
  const found: Finding[] = [];
  if (present.size === 0) return found;
  for (const rule of PORTED_RULES) {
    if (!rule.keywords.some((k) => present.has(k))) continue;
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(text); m !== null; m = rule.pattern.exec(text)) {
      if (m[0].length === 0) {
        rule.pattern.lastIndex++;
        continue;
      }
      const secret = m[1] ?? m[0];
      const start = m.index + m[0].lastIndexOf(secret);
      found.push({ start, end: start + secret.length, kind: rule.kind, rule: `${rule.source}:${rule.id}` });
    }
  }
  return found;
}
