import * as assert from 'node:assert/strict';
import { inlineCodeParts, markdownCode, plainText } from '../../../src/ui/inlineCode';

describe('inline code in feature texts', () => {
  it('splits code spans from text and drops their backticks in plain labels', () => {
    assert.deepEqual(inlineCodeParts('run `todo add milk` then `todo list`'), [
      { text: 'run ', code: false },
      { text: 'todo add milk', code: true },
      { text: ' then ', code: false },
      { text: 'todo list', code: true },
    ]);
    assert.equal(plainText('`npm test` passes'), 'npm test passes');
  });

  it('follows CommonMark: double-backtick spans hold single backticks; unmatched runs stay literal', () => {
    assert.deepEqual(inlineCodeParts('use `` a`b `` here'), [
      { text: 'use ', code: false },
      { text: 'a`b', code: true },
      { text: ' here', code: false },
    ]);
    assert.equal(plainText('a lone ` backtick'), 'a lone ` backtick');
    assert.equal(plainText('`open ``x`` y'), '`open x y');
    assert.equal(plainText('no code at all'), 'no code at all');
    assert.equal(plainText(''), '');
  });

  it('writes code back as markdown that keeps inner backticks', () => {
    assert.equal(markdownCode('npm test'), '`npm test`');
    assert.equal(markdownCode('a`b'), '``a`b``');
    assert.equal(markdownCode('`x'), '`` `x ``');
    for (const code of ['a`b', '``x', 'plain']) assert.deepEqual(inlineCodeParts(markdownCode(code)), [{ text: code, code: true }]);
  });
});
