/**
 * Every stop_reason against the scripted API: what the send reports, what stays in the history,
 * and (by sending again to a server that rejects what the real API rejects) that the history is
 * still valid afterwards.
 */
import * as assert from 'node:assert/strict';
import type { MockStep } from '../../support/mockMessagesApi';
import { messagesOf, recorder, sessionFor, useAgentTestBed } from './helpers';

const say = (text: string, stop_reason?: string): MockStep => ({ content: [{ type: 'text', text }], ...(stop_reason ? { stop_reason } : {}) });

describe('agent loop: stop reasons', () => {
  const bed = useAgentTestBed();

  it('end_turn: a finished answer, kept in the history', async () => {
    const server = await bed.serve([say('All done.')]);
    const session = sessionFor(server, bed.store.engine);
    const rec = recorder();
    const outcome = await session.send('hi', rec.listener);
    assert.deepEqual([outcome.ok, outcome.stop_reason, outcome.turns, outcome.error], [true, 'end_turn', 1, undefined]);
    assert.deepEqual(session.conversation.map((m) => m.role), ['user', 'assistant']);
    assert.equal(rec.of('error').length, 0);
  });

  it('tool_use: runs the call, sends its result and finishes on the next end_turn', async () => {
    const server = await bed.serve([
      { content: [{ type: 'tool_use', id: 'toolu_1', input: { command: 'create', path: '/memories/a.md', file_text: 'a\n' } }] },
      say('Saved.'),
    ]);
    const outcome = await sessionFor(server, bed.store.engine).send('save', () => undefined);
    assert.deepEqual([outcome.ok, outcome.stop_reason, outcome.turns], [true, 'end_turn', 2]);
    assert.equal(bed.store.read('a.md'), 'a\n');
    const results = messagesOf(server.requests[1].body).at(-1)!.content as Array<Record<string, unknown>>;
    assert.deepEqual([results[0].type, results[0].tool_use_id, results[0].is_error], ['tool_result', 'toolu_1', false]);
  });

  it('max_tokens without a tool call: ends as a cut-off (not ok), keeps the partial answer, and the chat can go on', async () => {
    const server = await bed.serve([say('The first half of a long ans', 'max_tokens'), say('wer, and the rest.')]);
    const session = sessionFor(server, bed.store.engine, { maxTokens: 64 });
    const rec = recorder();
    const outcome = await session.send('explain', rec.listener);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.stop_reason, 'max_tokens');
    assert.equal(outcome.error?.kind, 'max_tokens');
    assert.match(outcome.error!.message, /cut off at max_tokens \(64 output tokens per response\)/);
    assert.deepEqual(rec.events.slice(-3).map((e) => e.type), ['turn_end', 'error', 'done']);
    assert.equal(server.requests.length, 1, 'a cut-off is not silently re-requested');
    assert.deepEqual(session.conversation.map((m) => m.role), ['user', 'assistant']);

    const next = await session.send('continue', () => undefined);
    assert.equal(next.ok, true);
    assert.deepEqual(messagesOf(server.requests[1].body).map((m) => m.role), ['user', 'assistant', 'user']);
  });

  it('max_tokens with a tool call: the cut call is answered unrun and the loop continues to the answer', async () => {
    const server = await bed.serve([
      { content: [{ type: 'tool_use', id: 'toolu_cut', input: { command: 'create', path: '/memories/half.md', file_text: 'ha' } }], stop_reason: 'max_tokens' },
      say('I will write it in smaller pieces.'),
    ]);
    const rec = recorder();
    const outcome = await sessionFor(server, bed.store.engine).send('write', rec.listener);
    assert.deepEqual([outcome.ok, outcome.stop_reason, outcome.turns], [true, 'end_turn', 2]);
    assert.equal(rec.of('tool_start').length, 0, 'a cut-off call is never run');
    assert.throws(() => bed.store.read('half.md'));
    const results = messagesOf(server.requests[1].body).at(-1)!.content as Array<Record<string, unknown>>;
    assert.deepEqual([results[0].tool_use_id, results[0].is_error], ['toolu_cut', true]);
  });

  it('refusal: ends as a refusal and takes the refused send out of the history (tools it ran before stay done)', async () => {
    const server = await bed.serve([
      say('Earlier answer.'),
      { content: [{ type: 'tool_use', id: 'toolu_r', input: { command: 'create', path: '/memories/r.md', file_text: 'r\n' } }] },
      say('I can', 'refusal'),
      say('Sure.'),
    ]);
    const session = sessionFor(server, bed.store.engine);
    await session.send('first', () => undefined);
    const rec = recorder();
    const outcome = await session.send('something refused', rec.listener);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.stop_reason, 'refusal');
    assert.equal(outcome.error?.kind, 'refusal');
    assert.match(outcome.error!.message, /declined/);
    assert.equal(bed.store.read('r.md'), 'r\n', 'memory changes made before the refusal are kept');
    assert.deepEqual(session.conversation.map((m) => m.role), ['user', 'assistant'], 'back to the history before the refused send');

    const next = await session.send('something else', () => undefined);
    assert.equal(next.ok, true);
    const sent = messagesOf(server.requests[3].body);
    assert.equal(sent.length, 3);
    assert.doesNotMatch(JSON.stringify(sent), /something refused|I can/);
  });

  it('refusal in a response that also has a tool call: the call is not run', async () => {
    const server = await bed.serve([
      { content: [{ type: 'tool_use', id: 'toolu_x', input: { command: 'create', path: '/memories/x.md', file_text: 'x' } }], stop_reason: 'refusal' },
    ]);
    const rec = recorder();
    const session = sessionFor(server, bed.store.engine);
    const outcome = await session.send('go', rec.listener);
    assert.equal(outcome.error?.kind, 'refusal');
    assert.equal(rec.of('tool_start').length, 0);
    assert.throws(() => bed.store.read('x.md'));
    assert.equal(session.conversation.length, 0);
  });

  it('pause_turn: sends the paused content back and continues until end_turn', async () => {
    const server = await bed.serve([say('Working', 'pause_turn'), say(' done.')]);
    const session = sessionFor(server, bed.store.engine);
    const outcome = await session.send('go', () => undefined);
    assert.deepEqual([outcome.ok, outcome.stop_reason, outcome.turns], [true, 'end_turn', 2]);
    assert.equal(messagesOf(server.requests[1].body).at(-1)!.role, 'assistant');
    assert.deepEqual(session.conversation.map((m) => m.role), ['user', 'assistant', 'assistant']);
  });

  for (const [name, content] of [
    ['no content blocks', []],
    ['only an empty text block', [{ type: 'text' as const, text: '' }]],
    ['only whitespace text', [{ type: 'text' as const, text: ' \n ' }]],
  ] as const) {
    it(`empty response (${name}): reported as empty, never put in the history, and the next send is valid`, async () => {
      const server = await bed.serve([{ content: [...content] }, say('Here I am.')]);
      const session = sessionFor(server, bed.store.engine);
      const outcome = await session.send('hello?', () => undefined);
      assert.equal(outcome.ok, false);
      assert.equal(outcome.error?.kind, 'empty_response');
      assert.deepEqual(session.conversation.map((m) => m.role), ['user']);

      // The scripted server refuses empty messages and blank text blocks, as the API does.
      const next = await session.send('are you there?', () => undefined);
      assert.equal(next.ok, true, next.error?.message);
      const sent = messagesOf(server.requests[1].body);
      assert.deepEqual(sent.map((m) => m.role), ['user']);
      assert.deepEqual((sent[0].content as Array<Record<string, unknown>>).map((b) => b.text), ['hello?', 'are you there?']);
    });
  }

  it('an empty response after tool calls ends the send as finished, and is not kept', async () => {
    const server = await bed.serve([
      { content: [{ type: 'text', text: '' }, { type: 'tool_use', id: 'toolu_v', input: { command: 'view', path: '/memories' } }] },
      { content: [] },
      say('ok'),
    ]);
    const session = sessionFor(server, bed.store.engine);
    const outcome = await session.send('look', () => undefined);
    assert.deepEqual([outcome.ok, outcome.turns, outcome.error], [true, 2, undefined]);
    assert.deepEqual(session.conversation.map((m) => m.role), ['user', 'assistant', 'user']);
    // The blank text block in front of the call was dropped too (the API refuses it in a request).
    assert.deepEqual((session.conversation[1].content as Array<{ type: string }>).map((b) => b.type), ['tool_use']);
    const next = await session.send('and now?', () => undefined);
    assert.equal(next.ok, true, next.error?.message);
  });

  it('model_context_window_exceeded: ends as a cut-off of its own kind', async () => {
    const server = await bed.serve([say('Partial', 'model_context_window_exceeded')]);
    const outcome = await sessionFor(server, bed.store.engine).send('go', () => undefined);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.error?.kind, 'context_window');
  });
});
