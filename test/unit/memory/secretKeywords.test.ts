import * as assert from 'node:assert/strict';
import { KeywordSet } from '../../../src/core/memory/secrets/keywords';
import { PORTED_RULES } from '../../../src/core/memory/secrets/gitleaks';

describe('secret rule keywords (KeywordSet)', () => {
  const keywords = [...new Set(PORTED_RULES.flatMap((r) => r.keywords)), 'x', 'xox', 'xapp'];
  const set = new KeywordSet(keywords);
  const bruteForce = (lower: string) => new Set(keywords.filter((k) => lower.includes(k)));

  it('finds exactly the keywords a text holds, overlapping and nested ones too', () => {
    const texts = [
      '',
      'x',
      'plain prose about tasks and desks',
      'xoxapp', // 'xox' and 'xapp' overlap
      'sk_live_and sk_test_ in one line; pypi-ageichlwas5vcmc…',
      'the end: sk',
      ...PORTED_RULES.map((r) => `before ${r.keywords[0]} after`),
    ];
    let seed = 7;
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789_-.~: ';
    for (let n = 0; n < 200; n++) {
      let t = '';
      for (let i = 0; i < 300; i++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        t += seed % 17 === 0 ? keywords[seed % keywords.length] : alphabet[seed % alphabet.length];
      }
      texts.push(t);
    }
    for (const t of texts) assert.deepEqual([...set.foundIn(t)].sort(), [...bruteForce(t)].sort(), JSON.stringify(t.slice(0, 80)));
  });
});
