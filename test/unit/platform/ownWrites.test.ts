import * as assert from 'node:assert/strict';
import { OwnWrites } from '../../../src/platform/ownWrites';

const STORE = 'file:///ws/.claude-memories';

describe('OwnWrites (the echo of this window\'s writes)', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => (now = 1_000));

  it('a noted write is an echo only after the write signal fired', () => {
    const own = new OwnWrites(clock);
    own.note(`${STORE}/notes.md`);
    assert.equal(own.whose(`${STORE}/notes.md`), 'unannounced', 'before the signal the watcher event still counts');
    own.signalled();
    assert.equal(own.whose(`${STORE}/notes.md`), 'announced');
    assert.equal(own.whose(`${STORE}/other.md`), undefined, 'another file is news');
    assert.equal(own.whose(`${STORE}/notes.md.bak`), undefined, 'a name that merely starts the same is news');
  });

  it('a change noted after the signal waits for the next one', () => {
    const own = new OwnWrites(clock);
    own.note(`${STORE}/a.md`);
    own.signalled();
    own.note(`${STORE}/b.md`);
    assert.equal(own.whose(`${STORE}/a.md`), 'announced');
    assert.equal(own.whose(`${STORE}/b.md`), 'unannounced');
  });

  it('a deleted or renamed folder covers what was below it', () => {
    const own = new OwnWrites(clock);
    own.note(`${STORE}/old`, 'subtree');
    assert.equal(own.whose(`${STORE}/old/deep/file.md`), 'unannounced');
    own.signalled();
    assert.equal(own.whose(`${STORE}/old/deep/file.md`), 'announced');
    assert.equal(own.whose(`${STORE}/older.md`), undefined);
    own.note(`${STORE}/notes.md`);
    assert.equal(own.whose(`${STORE}/notes.md/child`), undefined, 'a file write covers only itself');
  });

  it('a report that comes long after the write is news again', () => {
    const own = new OwnWrites(clock);
    own.note(`${STORE}/notes.md`);
    own.signalled();
    now += 2_500;
    assert.equal(own.whose(`${STORE}/notes.md`), undefined);
  });
});
