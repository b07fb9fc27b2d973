import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isoDate, quoteBlock, renderTemplate, TemplateError } from '../../../src/core/session/templates';

const TEMPLATES = path.resolve(__dirname, '../../../../media/templates');

describe('templates', () => {
  it('fills placeholders and drops the leading documentation comment', () => {
    const out = renderTemplate('<!--\n  about {{a}}\n-->\nHello {{name}}, {{name}}!\n', { name: 'Ann' });
    assert.equal(out, 'Hello Ann, Ann!\n');
  });

  it('never expands placeholders inside values (a goal may contain braces)', () => {
    assert.equal(renderTemplate('{{a}} {{b}}', { a: '{{b}}', b: 'x' }), '{{b}} x');
  });

  it('names every missing placeholder', () => {
    assert.throws(() => renderTemplate('{{a}} {{b}} {{a}}', {}), (e: unknown) => e instanceof TemplateError && e.message === 'The template has no value for {{a}}, {{b}}.');
  });

  it('quotes free text as a blockquote, line by line', () => {
    assert.equal(quoteBlock('  line 1\n\n# not a heading\n'), '> line 1\n>\n> # not a heading');
  });

  it('formats the local date as YYYY-MM-DD', () => {
    assert.equal(isoDate(new Date(2026, 0, 5, 23, 59)), '2026-01-05');
  });

  describe('the shipped templates', () => {
    const expected: Record<string, string[]> = {
      'session-routine.md': ['date', 'progress', 'nextFeature', 'commitStep'],
      'progress.md': ['date', 'goal', 'features', 'startup'],
      'startup.md': ['date', 'detected'],
      'initializer-prompt.md': ['date', 'goal'],
    };
    for (const [name, keys] of Object.entries(expected)) {
      it(`${name} uses exactly ${keys.join(', ')} and renders without leftovers`, () => {
        const template = fs.readFileSync(path.join(TEMPLATES, name), 'utf8');
        const values = Object.fromEntries(keys.map((k) => [k, `<${k}>`]));
        const out = renderTemplate(template, values);
        for (const k of keys) assert.ok(out.includes(`<${k}>`), `${name} does not use {{${k}}}`);
        assert.doesNotMatch(out, /\{\{|<!--/);
        assert.throws(() => renderTemplate(template, Object.fromEntries(keys.slice(1).map((k) => [k, 'x']))), TemplateError);
      });
    }

    it('the session routine covers the whole routine of the multi-session pattern', () => {
      const routine = fs.readFileSync(path.join(TEMPLATES, 'session-routine.md'), 'utf8');
      for (const step of [/view `\/memories` with the memory tool/, /run its test command/, /read `\/memories\/progress\.md`/, /`\/memories\/features\.json`/, /ONE feature/, /end-to-end/, /set `"passes": true` for that feature alone/, /append a new section at the END of `\/memories\/progress\.md`/]) {
        assert.match(routine, step);
      }
    });
  });
});
