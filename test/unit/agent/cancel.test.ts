import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { MemoryToolExecutor } from '../../../src/core/memory/types';
import { messagesOf, recorder, sessionFor, useAgentTestBed } from './helpers';

const create = (id: string) => ({ type: 'tool_use' as const, id, input: { command: 'create', path: `/memories/${id}.md`, file_text: id } });

describe('agent loop: cancellation', () => {
  const bed = useAgentTestBed();

  it('lets the running tool call finish, runs no further one, and leaves a valid history', async () => {
    const server = await bed.serve([
      { content: [create('toolu_a'), create('toolu_b')] },
      { content: [{ type: 'text', text: 'Resumed.' }] },
    ]);
    const controller = new AbortController();
    // Cancels while the first call is inside the engine (after it has started its write).
    const memory: MemoryToolExecutor = {
      execute: async (input, signal) => {
        const running = bed.store.engine.execute(input, signal);
        await new Promise((r) => setImmediate(r));
        controller.abort();
        return running;
      },
    };
    const session = sessionFor(server, memory);
    const rec = recorder();
    const outcome = await session.send('make two files', rec.listener, controller.signal);

    assert.equal(outcome.ok, false);
    assert.equal(outcome.error?.kind, 'cancelled');
    assert.deepEqual(rec.events.slice(-2).map((e) => e.type), ['error', 'done']);
    assert.equal(bed.store.read('toolu_a.md'), 'toolu_a');
    assert.equal(fs.existsSync(path.join(bed.store.storeDir, 'toolu_b.md')), false);
    assert.deepEqual(rec.of('tool_start').map((e) => e.id), ['toolu_a']);
    assert.equal(server.requests.length, 1);

    // Both calls are answered in history: the skipped one as a cancelled error.
    const results = session.conversation.at(-1)!.content as Array<{ tool_use_id: string; is_error: boolean; content: string }>;
    assert.deepEqual(results.map((r) => [r.tool_use_id, r.is_error]), [['toolu_a', false], ['toolu_b', true]]);
    assert.match(results[1].content, /Cancelled by the user/);

    // The server rejects a dangling tool_use, so a successful next send proves consistency.
    const next = await session.send('go on', () => undefined);
    assert.equal(next.ok, true);
    const sent = messagesOf(server.requests[1].body);
    assert.deepEqual((sent.at(-1)!.content as Array<Record<string, unknown>>).map((b) => b.type), ['tool_result', 'tool_result', 'text']);
  });

  it('stops a stream at once and leaves the history as it was before the send', async () => {
    const server = await bed.serve([
      { content: [{ type: 'text', text: 'A long answer that never ends' }, create('toolu_late')], faults: [{ type: 'hang', afterEvents: 3 }] },
      { content: [{ type: 'text', text: 'Fresh answer.' }] },
    ]);
    const controller = new AbortController();
    const session = sessionFor(server, bed.store.engine);
    const rec = recorder();
    const outcome = await session.send('hi', (e) => {
      rec.listener(e);
      if (e.type === 'text') controller.abort();
    }, controller.signal);
    assert.equal(outcome.error?.kind, 'cancelled');
    assert.equal(session.conversation.length, 0);
    assert.equal(rec.of('tool_start').length, 0);
    assert.equal(server.requests.length, 1);

    const next = await session.send('hi again', () => undefined);
    assert.equal(next.ok, true);
    assert.equal(messagesOf(server.requests[1].body).length, 1);
  });

  it('does nothing when the signal has already fired', async () => {
    const server = await bed.serve([{ content: [{ type: 'text', text: 'x' }] }]);
    const controller = new AbortController();
    controller.abort();
    const outcome = await sessionFor(server, bed.store.engine).send('hi', () => undefined, controller.signal);
    assert.equal(outcome.error?.kind, 'cancelled');
    assert.equal(server.requests.length, 0);
  });
});
