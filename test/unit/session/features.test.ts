import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { formatFeatures, parseFeatures, summarizeFeatures, withFeaturePasses, type Feature } from '../../../src/core/session/features';
import { featureListArb, layoutArb } from '../guards/arbitraries';

const f = (id: string, passes = false): Feature => ({ id, category: 'ui', description: `does ${id}`, steps: ['open it'], passes });

describe('features.json model', () => {
  it('parses a valid checklist, keeping hand-added properties', () => {
    const parsed = parseFeatures('[{"id":"F1","category":"ui","description":"d","steps":[],"passes":true,"owner":"ann"}]');
    assert.ok(parsed.ok);
    assert.equal(parsed.features[0].owner, 'ann');
  });

  it('reports the first problem in one sentence', () => {
    const cases: [string, RegExp][] = [
      ['', /^it is not valid JSON/],
      ['{}', /^it must be a JSON array of feature objects$/],
      ['[1]', /^item 1 is not an object$/],
      ['[{"id":"","category":"c","description":"d","steps":[],"passes":false}]', /^item 1 needs a non-empty string "id"$/],
      ['[{"id":"a","category":"c","description":"d","steps":[1],"passes":false}]', /^item 1 needs "steps" as an array of strings$/],
      ['[{"id":"a","category":"c","description":"d","steps":[],"passes":"no"}]', /^item 1 needs "passes" as true or false$/],
      [JSON.stringify([f('a'), f('b'), f('a')]), /^the id "a" is used more than once/],
    ];
    for (const [text, problem] of cases) {
      const parsed = parseFeatures(text);
      assert.ok(!parsed.ok, text);
      assert.match(parsed.problem, problem);
    }
  });

  it('summarizes passing count and the next failing feature in list order', () => {
    const s = summarizeFeatures([f('a', true), f('b'), f('c', true), f('d')]);
    assert.deepEqual([s.passing, s.total, s.nextFailing?.id], [2, 4, 'b']);
    assert.equal(summarizeFeatures([f('a', true)]).nextFailing, undefined);
  });

  it('ticks one feature and changes only its line, in any layout', () => {
    fc.assert(
      fc.property(featureListArb(1), layoutArb, fc.nat(), (list, layout, at) => {
        const text = layout(list);
        const target = list[at % list.length];
        const updated = withFeaturePasses(text, target.id, !target.passes);
        const parsed = parseFeatures(updated);
        assert.ok(parsed.ok);
        const expected: unknown = JSON.parse(JSON.stringify(list.map((x) => (x.id === target.id ? { ...x, passes: !x.passes } : x))));
        assert.deepEqual(parsed.features, expected);
        const changedLines = updated.split('\n').filter((line, i) => line !== text.split('\n')[i]);
        assert.ok(changedLines.length <= 1, `changed lines: ${changedLines.join(' | ')}`);
        assert.equal(updated.split('\n').length, text.split('\n').length);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses to tick in an invalid file or an unknown feature', () => {
    assert.throws(() => withFeaturePasses('[', 'a', true), /features\.json cannot be updated: it is not valid JSON/);
    assert.throws(() => withFeaturePasses(formatFeatures([f('a')]), 'zz', true), /no feature with the id "zz"/);
  });
});
