import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { checkFeatureChecklistChange } from '../../../src/core/session/guards';
import type { ProposedChange } from '../../../src/core/memory/types';
import { formatFeatures, type Feature } from '../../../src/core/session/features';
import { allowedOpArb, applyAllowed, applyForbidden, featureListArb, forbiddenOpArb, layoutArb } from './arbitraries';

const PATH = '/memories/features.json';

function change(before: string | undefined, after: string | undefined, command: ProposedChange['command'] = 'str_replace'): ProposedChange {
  return { command, path: PATH, before, after };
}

const f = (id: string, passes = false): Feature => ({ id, category: 'functional', description: `does ${id}`, steps: [`check ${id}`], passes });

describe('feature checklist guard', () => {
  describe('random edit scripts', () => {
    it('allows every sequence of passes flips, valid appends and relayouts', () => {
      fc.assert(
        fc.property(featureListArb(), layoutArb, fc.array(fc.tuple(allowedOpArb, layoutArb), { maxLength: 12 }), (start, firstLayout, script) => {
          let list = start;
          let text = firstLayout(list);
          for (const [op, layout] of script) {
            const next = applyAllowed(list, op);
            if (!next) continue;
            const nextText = layout(next);
            assert.equal(checkFeatureChecklistChange(change(text, nextText)), undefined, `refused ${op.op}`);
            list = next;
            text = nextText;
          }
        }),
        { numRuns: 300 },
      );
    });

    it('allows several flips and appends at once (one create/overwrite of the whole file)', () => {
      fc.assert(
        fc.property(featureListArb(), fc.array(allowedOpArb, { maxLength: 8 }), layoutArb, (start, ops, layout) => {
          const end = ops.reduce((list, op) => applyAllowed(list, op) ?? list, start);
          assert.equal(checkFeatureChecklistChange(change(formatFeatures(start), layout(end), 'create')), undefined);
        }),
        { numRuns: 200 },
      );
    });

    it('refuses every removal, reorder, rewording, un-append and invalid result, also when mixed with allowed edits', () => {
      fc.assert(
        fc.property(
          featureListArb(),
          fc.array(allowedOpArb, { maxLength: 4 }),
          forbiddenOpArb,
          layoutArb,
          (start, allowed, forbidden, layout) => {
            const before = formatFeatures(start);
            // Allowed edits that do not append keep positions, so the forbidden op stays forbidden.
            const flipped = allowed.filter((op) => op.op !== 'append').reduce((list, op) => applyAllowed(list, op) ?? list, start);
            const after = applyForbidden(flipped, forbidden, layout);
            fc.pre(after !== undefined);
            const refusal = checkFeatureChecklistChange(change(before, after));
            assert.ok(refusal, `allowed ${forbidden.op}: ${after}`);
            assert.match(refusal, /Nothing was written|cannot be deleted/);
            assert.match(refusal, /Allowed changes to \/memories\/features\.json/);
          },
        ),
        { numRuns: 400 },
      );
    });

    it('allows creating any valid checklist of features not passing yet, and refuses an invalid one or one with a passing feature', () => {
      fc.assert(
        fc.property(featureListArb(), layoutArb, forbiddenOpArb, (list, layout, forbidden) => {
          const fresh = list.map((feature) => ({ ...feature, passes: false }));
          assert.equal(checkFeatureChecklistChange(change(undefined, layout(fresh), 'create')), undefined);
          if (list.some((feature) => feature.passes)) assert.match(checkFeatureChecklistChange(change(undefined, layout(list), 'create')) ?? '', /already passing/);
          if (forbidden.op === 'invalid' || forbidden.op === 'duplicateId') {
            const bad = applyForbidden(list, forbidden, layout);
            fc.pre(bad !== undefined);
            assert.ok(checkFeatureChecklistChange(change(undefined, bad, 'create')));
          }
        }),
        { numRuns: 200 },
      );
    });
  });

  describe('refusal sentences', () => {
    const before = formatFeatures([f('F001'), f('F002'), f('F003')]);

    it('names the removed feature', () => {
      const refusal = checkFeatureChecklistChange(change(before, formatFeatures([f('F001'), f('F003')])));
      assert.equal(
        refusal,
        'The change was refused: it would remove feature "F002". Nothing was written. Allowed changes to /memories/features.json: set "passes" of an existing feature (only after verifying it end-to-end) and append new features (with "passes": false) at the end of the array.',
      );
    });

    it('names a move with its positions', () => {
      const refusal = checkFeatureChecklistChange(change(before, formatFeatures([f('F002'), f('F001'), f('F003')])));
      assert.match(refusal ?? '', /would move feature "F001" from position 1 to position 2\./);
    });

    it('names the reworded fields', () => {
      const reworded = [f('F001'), { ...f('F002'), description: 'easier', steps: [] }, f('F003')];
      assert.match(checkFeatureChecklistChange(change(before, formatFeatures(reworded))) ?? '', /would change "description", "steps" of feature "F002"\./);
    });

    it('recognizes a changed id', () => {
      const renamed = [f('F001'), { ...f('F002'), id: 'F2' }, f('F003')];
      assert.match(checkFeatureChecklistChange(change(before, formatFeatures(renamed))) ?? '', /would change the id of feature "F002" to "F2"\./);
    });

    it('says why invalid JSON is refused', () => {
      const refusal = checkFeatureChecklistChange(change(before, before.replace(']', '')));
      assert.match(refusal ?? '', /^The change was refused because \/memories\/features\.json would be invalid: it is not valid JSON \(.+\)\. Nothing was written\./);
    });

    it('says a duplicate id is refused', () => {
      const refusal = checkFeatureChecklistChange(change(before, formatFeatures([f('F001'), f('F002'), f('F003'), f('F002')])));
      assert.match(refusal ?? '', /the id "F002" is used more than once/);
    });

    it('refuses deleting and moving the file', () => {
      for (const command of ['delete', 'rename'] as const) {
        assert.match(checkFeatureChecklistChange(change(before, undefined, command)) ?? '', /cannot be deleted, moved/);
      }
    });

    it('keeps sentences short whatever an id holds', () => {
      const long = 'x'.repeat(5000);
      const refusal = checkFeatureChecklistChange(change(formatFeatures([f(long)]), '[]')) ?? '';
      assert.ok(refusal.length < 500, `${refusal.length} characters`);
    });
  });

  it('lets any valid checklist replace one that was broken by hand', () => {
    assert.equal(checkFeatureChecklistChange(change('[{"id": "F001", oops', formatFeatures([f('F009')]))), undefined);
    assert.ok(checkFeatureChecklistChange(change('[{"id": "F001", oops', '[{"id": "F001"}]')));
  });

  it('allows flipping passes back to false (a regression found in a later session)', () => {
    assert.equal(checkFeatureChecklistChange(change(formatFeatures([f('F001', true)]), formatFeatures([f('F001', false)]))), undefined);
  });
});
