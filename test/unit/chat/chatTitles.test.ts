import * as assert from 'node:assert/strict';
import { firstRealLine, routineTitle } from '../../../src/features/chat/chatTitles';

describe('chat titles of a routine: what the session did', () => {
  const label = 'Resume Session · next: F001';

  it('names the feature the session flipped, with its description, not the one that was next', () => {
    assert.equal(routineTitle(label, [{ id: 'F002', passes: true, description: 'Complete a todo with done <id>' }], 'Session done.'), 'Resume Session · F002 now passes: Complete a todo with done <id>');
    assert.equal(routineTitle(label, [{ id: 'F002', passes: true }, { id: 'F003', passes: true }, { id: 'F004', passes: true }], undefined), 'Resume Session · F002, F003 and 1 more now pass');
    assert.equal(routineTitle(label, [{ id: 'F003', passes: false }], undefined), 'Resume Session · F003 no longer passes');
  });

  it('without a flip, the first real line of the session\'s answer; nothing said: undefined (the chip stays)', () => {
    const answer = 'Session done.\n\n- **Fixed** `complete()` in `src/todo.js` (it compared against `id - 1`).\n- Tests: 3 / 3 passing.';
    assert.equal(routineTitle(label, [], answer), 'Resume Session · Fixed complete() in src/todo.js (it compared against id - 1).');
    assert.equal(routineTitle(label, [], 'Done.\nOK'), undefined);
    assert.equal(routineTitle('Initialize Project Memory · draft the feature list', [], '## Drafted 5 features for the CLI'), 'Initialize Project Memory · Drafted 5 features for the CLI');
  });

  it('a real line has three words and is not a filler heading; links keep their text', () => {
    assert.equal(firstRealLine('# Summary\n\nAll done!\nSee [the log](progress.md) for details'), 'See the log for details');
    assert.equal(firstRealLine('ok\n\n'), undefined);
  });
});
