import * as assert from 'node:assert/strict';
import type { BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { INTERRUPTED_TOOL_RESULT, restoreConversation, trimConversation } from '../../../src/core/agent/conversationRepair';
import type { MemoryToolExecutor, MemoryToolResult } from '../../../src/core/memory/types';
import { messagesOf, recorder, sessionFor, useAgentTestBed } from './helpers';

type Block = Record<string, unknown>;

/** The API's rules the repair promises: user first, every tool_use answered right after, no stray result. */
function assertValid(history: readonly BetaMessageParam[]): void {
  assert.equal(history[0]?.role, 'user', 'the user speaks first');
  history.forEach((m, i) => {
    const blocks = (typeof m.content === 'string' ? [] : m.content) as unknown as Block[];
    assert.ok(typeof m.content === 'string' || blocks.length > 0, `message ${i} is not empty`);
    const before = history[i - 1];
    const asked = new Set(
      before?.role === 'assistant' && typeof before.content !== 'string' ? (before.content as unknown as Block[]).filter((b) => b.type === 'tool_use').map((b) => b.id) : [],
    );
    const answered = blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id);
    if (m.role === 'user') assert.deepEqual(new Set(answered), asked, `message ${i} answers exactly the calls of message ${i - 1}`);
    else assert.equal(asked.size, 0, `message ${i - 1}'s calls are answered before message ${i}`);
  });
  const last = history.at(-1);
  if (last?.role === 'assistant' && typeof last.content !== 'string') {
    assert.ok(!(last.content as unknown as Block[]).some((b) => b.type === 'tool_use'), 'no dangling tool_use at the end');
  }
}

const ask = (text: string): BetaMessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const call = (id: string, text?: string): BetaMessageParam => ({
  role: 'assistant',
  content: [...(text ? [{ type: 'text' as const, text }] : []), { type: 'tool_use', id, name: 'memory', input: { command: 'view', path: '/memories' } }],
});
const result = (id: string): Block => ({ type: 'tool_result', tool_use_id: id, content: 'ok', is_error: false });

describe('stored chat history: restored valid', () => {
  const bed = useAgentTestBed();

  it('answers a tool_use cut off at the end of the history with an "interrupted" error result', () => {
    const history = restoreConversation([ask('hi'), call('toolu_1', 'Looking.')]);
    assert.ok(history);
    assertValid(history);
    assert.deepEqual(history.at(-1), {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: INTERRUPTED_TOOL_RESULT, is_error: true }],
    });
  });

  it('adds only the missing results, drops results that answer no call, and keeps the user\'s text after the results', () => {
    const twoCalls: BetaMessageParam = {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'a', name: 'memory', input: {} },
        { type: 'tool_use', id: 'b', name: 'memory', input: {} },
      ],
    };
    const history = restoreConversation([
      ask('hi'),
      twoCalls,
      { role: 'user', content: [{ type: 'text', text: 'and then?' }, result('a'), result('stray')] as never },
    ]);
    assert.ok(history);
    assertValid(history);
    const last = history.at(-1)?.content as unknown as Block[];
    assert.deepEqual(last.map((b) => [b.type, b.tool_use_id ?? b.text]), [['tool_result', 'a'], ['tool_result', 'b'], ['text', 'and then?']]);
    assert.equal(last[1].content, INTERRUPTED_TOOL_RESULT);
  });

  it('puts the results in before a following assistant message, drops a leading assistant message and empty messages', () => {
    const history = restoreConversation([call('x'), ask('first'), call('toolu_2'), { role: 'assistant', content: [] }, { role: 'assistant', content: 'Next.' }]);
    assert.ok(history);
    assertValid(history);
    assert.deepEqual(history.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
  });

  it('refuses what is not a history at all', () => {
    assert.equal(restoreConversation(undefined), undefined);
    assert.equal(restoreConversation({ messages: [] }), undefined);
    assert.equal(restoreConversation([{ role: 'system', content: 'x' }]), undefined);
    assert.equal(restoreConversation([{ role: 'user', content: [{ text: 'no type' }] }]), undefined);
    assert.deepEqual(restoreConversation([]), []);
  });

  it('a history saved while a tool call ran (the window reloaded) goes back to the API valid, and Claude continues it', async () => {
    const server = await bed.serve([
      { content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', id: 'toolu_hang', input: { command: 'view', path: '/memories' } }] },
      { content: [{ type: 'text', text: 'Picking up again.' }] },
    ]);
    // The memory call never finishes: the state the chat saves while it runs is the state a reload leaves.
    let saved: unknown;
    let release: (r: MemoryToolResult) => void = () => undefined;
    const hanging: MemoryToolExecutor = {
      execute: () => {
        saved = JSON.parse(JSON.stringify(first.conversation));
        return new Promise((resolve) => (release = resolve));
      },
    };
    const first = sessionFor(server, hanging);
    const running = first.send('What do you remember?', recorder().listener);
    while (saved === undefined) await new Promise((r) => setImmediate(r));
    assert.deepEqual((saved as BetaMessageParam[]).map((m) => m.role), ['user', 'assistant'], 'saved mid-call: the tool_use has no result yet');

    const history = restoreConversation(saved);
    assert.ok(history);
    assertValid(history);
    const next = sessionFor(server, bed.store.engine, { conversation: history });
    const outcome = await next.send('Go on.', recorder().listener);
    assert.equal(outcome.ok, true, outcome.error?.message);
    const sent = messagesOf(server.requests[1].body);
    assert.deepEqual(sent.map((m) => m.role), ['user', 'assistant', 'user']);
    const blocks = sent[2].content as unknown as Block[];
    assert.deepEqual(blocks.map((b) => b.type), ['tool_result', 'text'], 'the interrupted result, then the new message');
    assert.equal(blocks[0].is_error, true);

    release({ is_error: false, content: 'late' });
    await running;
  });

  it('without the repair the same saved history is refused by the API (the test above would fail)', async () => {
    const server = await bed.serve([{ content: [{ type: 'text', text: 'unused' }] }]);
    const next = sessionFor(server, bed.store.engine, { conversation: [ask('hi'), call('toolu_1')] });
    const outcome = await next.send('Go on.', recorder().listener);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.error?.kind, 'bad_request');
  });

  it('trims a long history to its latest exchanges, cut only where the user typed, never between a call and its result', () => {
    const history: BetaMessageParam[] = [];
    for (let i = 0; i < 20; i++) {
      history.push(ask(`question ${i} ${'x'.repeat(200)}`), call(`t${i}`), { role: 'user', content: [result(`t${i}`)] as never }, { role: 'assistant', content: 'ok' });
    }
    const full = JSON.stringify(history).length;
    assert.deepEqual(trimConversation(history, full), history, 'a history that fits is kept whole');
    const trimmed = trimConversation(history, Math.floor(full / 3));
    assert.ok(JSON.stringify(trimmed).length <= full / 3);
    assert.ok(trimmed.length >= 8 && trimmed.length < history.length);
    assertValid(trimmed);
    assert.match(JSON.stringify(trimmed[0]), /question/);
    assert.deepEqual(trimConversation(history, 10), [], 'nothing fits: Claude starts without it');
  });
});
