import * as assert from 'node:assert/strict';
import { findSecrets, redactDeep, redactSecrets } from '../../../src/core/memory';
import { secretlintFindings } from '../../../src/core/memory/secrets/secretlint';
import { BENIGN_STRINGS, SECRET_FORMATS, allSecretsNote } from '../../support/secretFormats';

describe('secret formats (secretlint rules, gitleaks ports, the engine’s own)', () => {
  it('has at least 40 formats and 15 benign strings', () => {
    assert.ok(SECRET_FORMATS.length >= 40, `${SECRET_FORMATS.length} formats`);
    assert.ok(BENIGN_STRINGS.length >= 15, `${BENIGN_STRINGS.length} benign strings`);
  });

  for (const format of SECRET_FORMATS) {
    it(`redacts a ${format.name} as [REDACTED:${format.kind}]`, () => {
      for (const text of [format.line, `note\n${format.line}\n`, `${format.name}: ${format.line}.`]) {
        const result = redactSecrets(text);
        assert.ok(!result.text.includes(format.secret), `secret left in ${JSON.stringify(result.text)}`);
        assert.equal(result.text, text.replace(format.secret, `[REDACTED:${format.kind}]`));
        assert.deepEqual([...result.counts], [[format.kind, 1]]);
      }
    });
  }

  for (const benign of BENIGN_STRINGS) {
    it(`leaves a ${benign.name} alone`, () => {
      const result = redactSecrets(benign.text);
      assert.deepEqual(findSecrets(benign.text), []);
      assert.equal(result.text, benign.text);
    });
  }

  it('redacts every format in one note, and a second pass changes nothing', () => {
    const note = allSecretsNote();
    const once = redactSecrets(note);
    for (const format of SECRET_FORMATS) assert.ok(!once.text.includes(format.secret), format.name);
    const total = [...once.counts.values()].reduce((a, b) => a + b, 0);
    assert.equal(total, SECRET_FORMATS.length);
    const twice = redactSecrets(once.text);
    assert.equal(twice.text, once.text);
    assert.equal(twice.counts.size, 0);
  });

  it('redactDeep redacts every string of a record and keeps the record without secrets as it is', () => {
    const clean = { a: ['x', { b: 'y' }], n: 1 };
    assert.equal(redactDeep(clean), clean);
    const secret = SECRET_FORMATS[0].secret;
    const out = redactDeep({ list: [{ text: `key ${secret}` }], n: 2, [secret]: true });
    assert.ok(!JSON.stringify(out).includes(secret));
    assert.deepEqual(out, { list: [{ text: `key [REDACTED:${SECRET_FORMATS[0].kind}]` }], n: 2, [`[REDACTED:${SECRET_FORMATS[0].kind}]`]: true });
  });

  it('the gates that skip costly secretlint rules change nothing: gated and ungated runs agree on every format', () => {
    for (const text of [allSecretsNote(), ...SECRET_FORMATS.map((f) => f.line), ...BENIGN_STRINGS.map((b) => b.text)]) {
      assert.deepEqual(secretlintFindings(text), secretlintFindings(text, text.toLowerCase(), false), text.slice(0, 80));
    }
  });
});
