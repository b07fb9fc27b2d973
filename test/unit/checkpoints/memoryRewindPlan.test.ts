import * as assert from 'node:assert/strict';
import { planMemoryRewind } from '../../../src/core/checkpoints';
import type { HistoryEntry, HistoryOp } from '../../../src/core/memory';

let next = 0;
const v = (op: HistoryOp, path: string, sha256: string, oldPath?: string): HistoryEntry => ({
  version: ++next,
  time: next,
  op,
  path,
  oldPath,
  author: { name: 'chat' },
  sha256,
  size: 1,
  blob: sha256,
});

describe('planMemoryRewind (pure)', () => {
  it('restores edits, removes creations, brings back deletions, undoes renames; unchanged-again files are left', () => {
    next = 0;
    const history = [v('create', 'a.md', 'A1'), v('create', 'b.md', 'B1'), v('create', 'c.md', 'C1'), v('create', 'd.md', 'D1')];
    const position = 4;
    history.push(
      v('str_replace', 'a.md', 'A2'),
      v('delete', 'b.md', 'B1'),
      v('rename', 'c2.md', 'C1', 'c.md'),
      v('create', 'new.md', 'N1'),
      v('edit', 'd.md', 'D2'),
      v('edit', 'd.md', 'D1'), // back to what it was: nothing to do
      v('create', 'tmp.md', 'T'),
      v('delete', 'tmp.md', 'T'), // came and went: nothing to do
    );
    assert.deepEqual(planMemoryRewind(history, position), [
      { rel: 'c2.md', action: 'remove' },
      { rel: 'new.md', action: 'remove' },
      { rel: 'a.md', action: 'restore', version: 1 },
      { rel: 'b.md', action: 'restore', version: 2 },
      { rel: 'c.md', action: 'restore', version: 3 },
    ]);
    assert.deepEqual(planMemoryRewind(history, history.length), []);
  });

  it('a version whose content retention pruned is reported, not guessed', () => {
    next = 0;
    const history = [v('create', 'a.md', 'A1'), v('edit', 'a.md', 'A2')];
    assert.deepEqual(planMemoryRewind(history, 1, (version) => version !== 1), [{ rel: 'a.md', action: 'unavailable' }]);
  });
});
