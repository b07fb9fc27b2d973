// A memory write card's diff (issue 19): one changed word is one changed line with that word
// marked, not the whole block out and in; unchanged runs fold to a little context.
import * as assert from 'node:assert/strict';
import { changeRows } from '../../../src/features/chat/shared/changeRows';

describe('memory write card: line diff with word highlights', () => {
  it('a false → true flip in a 9-line block is one line out, one in, the word marked, context folded', () => {
    const block = (passes: string) =>
      ['  {', '    "id": "F002",', '    "category": "functional",', '    "description": "complete marks a todo done",', '    "steps": [', '      "run the CLI"', '    ],', `    "passes": ${passes}`, '  },'].join('\n');
    const { rows, added, removed } = changeRows(block('false'), block('true'));
    assert.equal(added, 1);
    assert.equal(removed, 1);
    assert.deepEqual(rows, [
      { kind: 'fold', count: 5 },
      { kind: 'ctx', text: '      "run the CLI"' },
      { kind: 'ctx', text: '    ],' },
      { kind: 'del', text: '    "passes": false', parts: [{ text: '    "passes": ', changed: false }, { text: 'false', changed: true }] },
      { kind: 'ins', text: '    "passes": true', parts: [{ text: '    "passes": ', changed: false }, { text: 'true', changed: true }] },
      { kind: 'ctx', text: '  },' },
    ]);
  });

  it('a create is all added lines; a different line is a replacement without word marks', () => {
    assert.deepEqual(changeRows('', 'a\nb\n'), { rows: [{ kind: 'ins', text: 'a' }, { kind: 'ins', text: 'b' }], added: 2, removed: 0 });
    const { rows } = changeRows('alpha\n', 'omega\n');
    assert.deepEqual(rows, [{ kind: 'del', text: 'alpha' }, { kind: 'ins', text: 'omega' }]);
  });

  it('a missing final newline is no change; an added line between others is shown with its context', () => {
    assert.deepEqual(changeRows('x\ny', 'x\ny\n'), { rows: [{ kind: 'fold', count: 2 }], added: 0, removed: 0 });
    const { rows, added, removed } = changeRows('1\n2\n3\n4\n5\n6\n7\n', '1\n2\n3\n4\nnew\n5\n6\n7\n');
    assert.equal(added, 1);
    assert.equal(removed, 0);
    assert.deepEqual(rows, [{ kind: 'fold', count: 2 }, { kind: 'ctx', text: '3' }, { kind: 'ctx', text: '4' }, { kind: 'ins', text: 'new' }, { kind: 'ctx', text: '5' }, { kind: 'ctx', text: '6' }, { kind: 'fold', count: 1 }]);
  });
});
