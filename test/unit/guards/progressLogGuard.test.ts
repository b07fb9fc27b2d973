import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { checkProgressLogChange } from '../../../src/core/session/guards';
import type { ProposedChange } from '../../../src/core/memory/types';

const PATH = '/memories/progress.md';
const change = (before: string | undefined, after: string | undefined, command: ProposedChange['command'] = 'str_replace'): ProposedChange => ({ command, path: PATH, before, after });

const lineArb = fc.string({ maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, ' '));
const logArb = fc.array(lineArb, { minLength: 1, maxLength: 12 }).chain((lines) =>
  fc.boolean().map((finalNewline) => lines.join('\n') + (finalNewline ? '\n' : '')),
);

describe('progress log guard', () => {
  it('allows every append: more lines, new sections, text after a missing final newline', () => {
    fc.assert(
      fc.property(logArb, fc.array(lineArb, { maxLength: 6 }), (before, added) => {
        const after = before + added.map((l) => `${l}\n`).join('');
        assert.equal(checkProgressLogChange(change(before, after, 'insert')), undefined);
        assert.equal(checkProgressLogChange(change(before, `${before.replace(/\n$/, '')}\n\n## 2026-12-01: next\n`)), undefined);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses every change to earlier text, even with an append after it', () => {
    fc.assert(
      fc.property(logArb, fc.nat(), fc.string({ minLength: 1, maxLength: 5 }), lineArb, (before, at, replacement, appended) => {
        const history = before.replace(/\n$/, '');
        fc.pre(history.length > 0);
        const i = at % history.length;
        // A replacement that starts with the same character would only extend the text.
        fc.pre(replacement[0] !== history[i]);
        const rewritten = history.slice(0, i) + replacement + history.slice(i + 1) + '\n' + appended;
        const refusal = checkProgressLogChange(change(before, rewritten));
        assert.ok(refusal, `allowed rewriting at ${i}`);
        assert.match(refusal, /append-only and earlier entries must stay exactly as they are\. Nothing was written\./);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses truncating the log', () => {
    fc.assert(
      fc.property(logArb, fc.nat(), (before, keep) => {
        const history = before.replace(/\n$/, '');
        fc.pre(history.length > 0);
        assert.ok(checkProgressLogChange(change(before, history.slice(0, keep % history.length))));
      }),
    );
  });

  it('allows creating the log and a change that changes nothing', () => {
    assert.equal(checkProgressLogChange(change(undefined, '# Progress log\n', 'create')), undefined);
    assert.equal(checkProgressLogChange(change('# Log\n', '# Log\n')), undefined);
    assert.equal(checkProgressLogChange(change('# Log\r\n', '# Log\r\nmore\r\n')), undefined);
  });

  it('refuses deleting or moving the log', () => {
    for (const command of ['delete', 'rename'] as const) {
      assert.equal(
        checkProgressLogChange(change('# Log\n', undefined, command)),
        '/memories/progress.md is the append-only progress log and cannot be deleted or moved. Add a new dated section at its end instead.',
      );
    }
  });
});
