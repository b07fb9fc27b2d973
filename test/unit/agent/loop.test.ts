import * as assert from 'node:assert/strict';
import { messagesOf, recorder, sessionFor, useAgentTestBed } from './helpers';

describe('agent loop: memory sessions against the scripted API', () => {
  const bed = useAgentTestBed();

  it('continues another session\'s conversation when given its history (new client, same chat)', async () => {
    const server = await bed.serve([
      { content: [{ type: 'text', text: 'Noted.' }] },
      { content: [{ type: 'text', text: 'You said teal.' }] },
    ]);
    const first = sessionFor(server, bed.store.engine);
    await first.send('My colour is teal.', recorder().listener);
    const second = sessionFor(server, bed.store.engine, { model: 'another-model', conversation: first.conversation });
    const outcome = await second.send('What colour?', recorder().listener);

    assert.equal(outcome.ok, true);
    assert.equal(server.requests[1].body.model, 'another-model');
    assert.deepEqual(messagesOf(server.requests[1].body).map((m) => m.role), ['user', 'assistant', 'user']);
    assert.equal(second.conversation.length, 4);
    assert.equal(first.conversation.length, 2, 'the earlier session is not changed by the new one');
  });

  it('runs a multi-turn memory session and continues the chat on the next send', async () => {
    const server = await bed.serve([
      { content: [{ type: 'text', text: 'Let me check my memory.' }, { type: 'tool_use', id: 'toolu_1', input: { command: 'view', path: '/memories' } }] },
      { content: [{ type: 'tool_use', id: 'toolu_2', input: { command: 'create', path: '/memories/progress.md', file_text: '# Progress\n- started\n' } }] },
      { content: [{ type: 'text', text: 'Saved your progress.' }] },
      { content: [{ type: 'text', text: 'You started.' }] },
    ]);
    const session = sessionFor(server, bed.store.engine);
    const rec = recorder();
    const outcome = await session.send('Remember that I started.', rec.listener);

    assert.equal(outcome.ok, true);
    assert.equal(outcome.turns, 3);
    assert.equal(outcome.stop_reason, 'end_turn');
    assert.equal(bed.store.read('progress.md'), '# Progress\n- started\n');
    assert.equal(rec.of('text').map((e) => e.text).join(''), 'Let me check my memory.Saved your progress.');
    assert.deepEqual(
      rec.of('tool_end').map((e) => [e.id, e.command, e.path, e.is_error, e.summary]),
      [
        ['toolu_1', 'view', '/memories', false, 'viewed /memories (0 entries)'],
        ['toolu_2', 'create', '/memories/progress.md', false, 'created /memories/progress.md'],
      ],
    );
    assert.deepEqual(rec.of('tool_end')[1].touched, { kind: 'write', path: '/memories/progress.md', version: 1 });
    assert.equal(rec.of('usage').length, 3);
    assert.deepEqual(rec.events.at(-1), { type: 'done', stop_reason: 'end_turn' });

    // The tool_result sent back is exactly the engine's content, with the model's id.
    const third = messagesOf(server.requests[2].body);
    const results = third[4].content as Array<Record<string, unknown>>;
    assert.equal(results[0].tool_use_id, 'toolu_2');
    assert.equal(results[0].is_error, false);
    assert.equal(results[0].content, 'File created successfully at: /memories/progress.md');

    // History: user, assistant, tool results, assistant, tool results, final assistant.
    assert.deepEqual(session.conversation.map((m) => m.role), ['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    const again = await session.send('What did I do?', rec.listener);
    assert.equal(again.ok, true);
    const fourth = messagesOf(server.requests[3].body);
    assert.equal(fourth.length, 7);
    assert.deepEqual((fourth[6].content as Array<Record<string, unknown>>)[0].text, 'What did I do?');
    assert.equal(session.conversation.length, 8);

    session.reset();
    assert.equal(session.conversation.length, 0);
  });

  it('runs two edits of one file in one turn in order, and both land', async () => {
    const server = await bed.serve([
      { content: [{ type: 'tool_use', id: 'toolu_c', input: { command: 'create', path: '/memories/notes.md', file_text: 'alpha\nbeta\n' } }] },
      {
        content: [
          { type: 'tool_use', id: 'toolu_e1', input: { command: 'str_replace', path: '/memories/notes.md', old_str: 'alpha', new_str: 'ALPHA' } },
          { type: 'tool_use', id: 'toolu_e2', input: { command: 'str_replace', path: '/memories/notes.md', old_str: 'beta', new_str: 'BETA' } },
        ],
      },
      { content: [{ type: 'text', text: 'Done.' }] },
    ]);
    const rec = recorder();
    const outcome = await sessionFor(server, bed.store.engine).send('Edit the notes.', rec.listener);
    assert.equal(outcome.ok, true);
    assert.equal(bed.store.read('notes.md'), 'ALPHA\nBETA\n');
    // One user message with both results, in the model's order.
    const last = messagesOf(server.requests[2].body).at(-1)!;
    assert.equal(last.role, 'user');
    const results = last.content as Array<Record<string, unknown>>;
    assert.deepEqual(results.map((r) => [r.type, r.tool_use_id, r.is_error]), [
      ['tool_result', 'toolu_e1', false],
      ['tool_result', 'toolu_e2', false],
    ]);
    // tool_start/tool_end strictly alternate: the second call started after the first ended.
    const order = rec.events.filter((e) => e.type === 'tool_start' || e.type === 'tool_end').map((e) => `${e.type}:${(e as { id: string }).id}`);
    assert.deepEqual(order, ['tool_start:toolu_c', 'tool_end:toolu_c', 'tool_start:toolu_e1', 'tool_end:toolu_e1', 'tool_start:toolu_e2', 'tool_end:toolu_e2']);
  });

  it('returns a traversal attempt to the model as is_error without touching anything outside the store', async () => {
    const server = await bed.serve([
      { content: [{ type: 'tool_use', id: 'toolu_t', input: { command: 'view', path: '/memories/../../../etc/passwd' } }] },
      { content: [{ type: 'text', text: 'I cannot read that.' }] },
    ]);
    const rec = recorder();
    const outcome = await sessionFor(server, bed.store.engine).send('Read /etc/passwd', rec.listener);
    assert.equal(outcome.ok, true);
    const [end] = rec.of('tool_end');
    assert.equal(end.is_error, true);
    const result = (messagesOf(server.requests[1].body).at(-1)!.content as Array<Record<string, unknown>>)[0];
    assert.equal(result.is_error, true);
    assert.equal(end.summary, String(result.content).split('\n')[0].trim());
    assert.doesNotMatch(String(result.content), /root:|\/tmp\/|agent-test-/);
  });

  it('answers unknown tools and malformed inputs with an error result instead of failing the send', async () => {
    const server = await bed.serve([
      {
        content: [
          { type: 'tool_use', id: 'toolu_x', name: 'bash', input: { command: 'ls' } },
          { type: 'tool_use', id: 'toolu_y', input: { command: 'explode' } },
        ],
      },
      { content: [{ type: 'text', text: 'ok' }] },
    ]);
    const rec = recorder();
    const outcome = await sessionFor(server, bed.store.engine).send('go', rec.listener);
    assert.equal(outcome.ok, true);
    assert.deepEqual(rec.of('tool_end').map((e) => e.is_error), [true, true]);
    assert.match(rec.of('tool_end')[0].summary, /there is no tool named "bash"; the tools available are memory\./);
  });

  it('answers a tool call cut off by max_tokens without running it, and lets the model go on', async () => {
    const server = await bed.serve([
      { content: [{ type: 'tool_use', id: 'toolu_cut', input: { command: 'create', path: '/memories/half.md', file_text: 'half' } }], stop_reason: 'max_tokens' },
      { content: [{ type: 'text', text: 'Retrying later.' }] },
    ]);
    const rec = recorder();
    const outcome = await sessionFor(server, bed.store.engine).send('go', rec.listener);
    assert.equal(outcome.ok, true);
    assert.equal(rec.of('tool_start').length, 0);
    assert.throws(() => bed.store.read('half.md'));
    const results = messagesOf(server.requests[1].body).at(-1)!.content as Array<Record<string, unknown>>;
    assert.deepEqual([results[0].tool_use_id, results[0].is_error], ['toolu_cut', true]);
    assert.match(String(results[0].content), /^Not run: the response ended \(stop_reason max_tokens\)/);
  });

  it('keeps going after pause_turn without adding a message', async () => {
    const server = await bed.serve([
      { content: [{ type: 'text', text: 'Working' }], stop_reason: 'pause_turn' },
      { content: [{ type: 'text', text: ' done.' }] },
    ]);
    const outcome = await sessionFor(server, bed.store.engine).send('go', () => undefined);
    assert.equal(outcome.ok, true);
    assert.equal(outcome.turns, 2);
    assert.equal(messagesOf(server.requests[1].body).at(-1)!.role, 'assistant');
  });

  it('stops at max turns with the tool results in history, and the next send continues from there', async () => {
    const view = { content: [{ type: 'tool_use' as const, input: { command: 'view', path: '/memories' } }] };
    const server = await bed.serve([view, view, { content: [{ type: 'text', text: 'Continuing.' }] }]);
    const session = sessionFor(server, bed.store.engine, { maxTurns: 2 });
    const rec = recorder();
    const outcome = await session.send('loop', rec.listener);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.error?.kind, 'max_turns');
    assert.match(outcome.error!.message, /2 model turns/);
    assert.equal(server.requests.length, 2);
    assert.equal(session.conversation.at(-1)!.role, 'user');
    assert.deepEqual(rec.events.slice(-2).map((e) => e.type), ['error', 'done']);
    // The server rejects dangling tool_use; this send succeeding proves the history is valid.
    const next = await session.send('go on', () => undefined);
    assert.equal(next.ok, true);
    const last = messagesOf(server.requests[2].body).at(-1)!.content as Array<Record<string, unknown>>;
    assert.deepEqual(last.map((b) => b.type), ['tool_result', 'text']);
  });
});
