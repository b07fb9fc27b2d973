import * as assert from 'node:assert/strict';
import { SendQueue } from '../../../src/features/chat/sendQueue';

/** A promise and its resolve, to finish a job when the test says so. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('send queue (messages sent while an answer runs)', () => {
  it('runs sends one after the other, in the order sent, each starting only when the one before is over', async () => {
    const queue = new SendQueue();
    const log: string[] = [];
    const first = gate();
    const a = queue.run(async () => {
      log.push('a start');
      await first.promise;
      log.push('a end');
      return 'a';
    });
    const b = queue.run(async () => {
      log.push('b start');
      return 'b';
    });
    const c = queue.run(async () => {
      log.push('c start');
      return 'c';
    });
    assert.equal(queue.size, 3);
    await Promise.resolve();
    assert.deepEqual(log, ['a start'], 'b waits while a is still running (streaming or saving)');
    first.open();
    assert.deepEqual(await Promise.all([a, b, c]), ['a', 'b', 'c']);
    assert.deepEqual(log, ['a start', 'a end', 'b start', 'c start']);
    assert.equal(queue.size, 0);
  });

  it('a failed send does not drop the ones queued behind it', async () => {
    const queue = new SendQueue();
    const failed = queue.run(async () => {
      throw new Error('boom');
    });
    const next = queue.run(async () => 'sent');
    await assert.rejects(failed, /boom/);
    assert.equal(await next, 'sent');
  });

  it('idle() waits for sends queued while waiting', async () => {
    const queue = new SendQueue();
    const done: string[] = [];
    const g = gate();
    void queue.run(async () => {
      await g.promise;
      void queue.run(async () => void done.push('second'));
      done.push('first');
    });
    const idle = queue.idle();
    g.open();
    await idle;
    assert.deepEqual(done, ['first', 'second']);
  });
});
