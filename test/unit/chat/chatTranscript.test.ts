import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/core/agent/events';
import { actionsFor, ChatTranscript, retryText, STOPPED_TEXT, WAITING_TEXT, type ChatPatch } from '../../../src/features/chat/chatTranscript';
import { applyChatPatch } from '../../../src/features/chat/shared/chatPatch';
import type { ChatEntry } from '../../../src/features/chat/shared/protocol';

const MODEL = 'claude-sonnet-4-5';
const usage = { input_tokens: 100, cache_read_input_tokens: 80, cache_creation_input_tokens: 20, output_tokens: 7 };

function run(t: ChatTranscript, events: AgentEvent[]): ChatPatch[] {
  return events.flatMap((e) => t.apply(e));
}

/**
 * The entries a webview holds after `patches` (applyChatPatch, as its model does), each received as
 * a copy as postMessage delivers it: patches and snapshots must agree.
 */
function replay(patches: ChatPatch[]): readonly ChatEntry[] {
  return patches.reduce<readonly ChatEntry[]>((entries, p) => applyChatPatch(entries, structuredClone(p)), []);
}

describe('chat transcript', () => {
  it('folds a tool-using answer into user, text, card, usage and text entries', () => {
    const t = new ChatTranscript();
    const patches = [
      ...t.begin('remember my name', MODEL),
      ...run(t, [
        { type: 'text', text: 'Let me ' },
        { type: 'text', text: 'note that.' },
        { type: 'usage', usage },
        { type: 'tool_start', id: 'toolu_1', command: 'create', path: '/memories/name.md' },
        { type: 'tool_end', id: 'toolu_1', command: 'create', path: '/memories/name.md', is_error: false, summary: 'created /memories/name.md', touched: { kind: 'write', path: '/memories/name.md' } },
        { type: 'turn_end', stop_reason: 'tool_use' },
        { type: 'text', text: 'Done.' },
        { type: 'usage', usage },
        { type: 'turn_end', stop_reason: 'end_turn' },
        { type: 'done', stop_reason: 'end_turn' },
      ]),
    ];
    const { entries, status } = t.snapshot();
    assert.deepEqual(
      entries.map((e) => e.kind),
      ['user', 'assistant', 'tool', 'assistant', 'usage'],
      'one usage line per answer, after it',
    );
    assert.deepEqual(entries[1], { kind: 'assistant', id: entries[1].id, markdown: 'Let me note that.', streaming: false });
    const card = entries[2];
    assert.equal(card.kind, 'tool');
    assert.deepEqual({ ...card, id: '' }, { kind: 'tool', id: '', command: 'create', path: '/memories/name.md', status: 'ok', summary: 'created /memories/name.md' });
    assert.equal(status.running, false);
    assert.equal(status.requests, 2);
    assert.deepEqual(status.totals, { input_tokens: 200, cache_read_input_tokens: 160, cache_creation_input_tokens: 40, output_tokens: 14 });
    const line = entries[4];
    assert.equal(line.kind, 'usage');
    if (line.kind === 'usage') {
      assert.deepEqual(line.usage, status.totals);
      assert.equal(line.requests, 2);
      assert.equal(line.model, MODEL);
      // Sonnet: $3 in, $15 out per MTok; cache writes 1.25x, reads 0.1x of the input price.
      const expected = (200 * 3 + 40 * 3 * 1.25 + 160 * 3 * 0.1 + 14 * 15) / 1_000_000;
      assert.ok(Math.abs((line.costUsd ?? NaN) - expected) < 1e-12, `${line.costUsd} ≈ ${expected}`);
      assert.ok(Math.abs((status.costUsd ?? NaN) - expected) < 1e-12, 'the session total is the sum of the answers');
    }
    assert.deepEqual(replay(patches), entries, 'the patches rebuild exactly the snapshot');
    assert.ok(patches.some((p) => p.type === 'text'), 'text after the first delta streams as deltas');
  });

  it('updates a running card in place and marks failed calls', () => {
    const t = new ChatTranscript();
    t.begin('x', MODEL);
    run(t, [{ type: 'tool_start', id: 'a', command: 'delete', path: '/memories/x' }]);
    const running = t.snapshot().entries[1];
    assert.equal(running.kind === 'tool' && running.status, 'running');
    run(t, [{ type: 'tool_end', id: 'a', command: 'delete', path: '/memories/x', is_error: true, summary: 'The path /memories/x does not exist.' }]);
    const tools = t.snapshot().entries.filter((e) => e.kind === 'tool');
    assert.equal(tools.length, 1);
    assert.equal(tools[0].kind === 'tool' && tools[0].status, 'error');
  });

  it('shows a renamed file under its new path', () => {
    const t = new ChatTranscript();
    t.begin('x', MODEL);
    run(t, [
      { type: 'tool_end', id: 'r', command: 'rename', path: '/memories/a.md', is_error: false, summary: 'renamed', touched: { kind: 'rename', path: '/memories/a.md', newPath: '/memories/b.md' } },
    ]);
    const card = t.snapshot().entries[1];
    assert.equal(card.kind === 'tool' && card.path, '/memories/b.md');
  });

  it('keeps a memory write\'s history version on its card (the History link), never a failed call\'s', () => {
    const t = new ChatTranscript();
    t.begin('x', MODEL);
    run(t, [
      { type: 'tool_end', id: 'w', command: 'str_replace', path: '/memories/a.md', is_error: false, summary: 'edited', touched: { kind: 'write', path: '/memories/a.md', version: 7 } },
      { type: 'tool_end', id: 'f', command: 'str_replace', path: '/memories/a.md', is_error: true, summary: 'no match', touched: { kind: 'write', path: '/memories/a.md', version: 8 } },
      { type: 'tool_end', id: 'v', command: 'view', path: '/memories/a.md', is_error: false, summary: 'viewed', touched: { kind: 'read', path: '/memories/a.md' } },
    ]);
    const versions = t.snapshot().entries.slice(1).map((e) => (e.kind === 'tool' ? e.version : 'not a card'));
    assert.deepEqual(versions, [7, undefined, undefined]);
  });

  it('keeps cards of separate sends apart even when a server reuses tool ids', () => {
    const t = new ChatTranscript();
    for (const prompt of ['one', 'two']) {
      t.begin(prompt, MODEL);
      run(t, [
        { type: 'tool_end', id: 'toolu_1', command: 'view', path: '/memories', is_error: false, summary: 'viewed' },
        { type: 'done', stop_reason: 'end_turn' },
      ]);
    }
    assert.equal(t.snapshot().entries.filter((e) => e.kind === 'tool').length, 2);
  });

  it('drops the partial text of a response whose stream is retried', () => {
    const t = new ChatTranscript();
    const patches = [
      ...t.begin('x', MODEL),
      ...run(t, [
        { type: 'text', text: 'half an ans' },
        { type: 'retry', attempt: 1, message: 'broke' },
        { type: 'text', text: 'A whole answer.' },
        { type: 'done', stop_reason: 'end_turn' },
      ]),
    ];
    const texts = t.snapshot().entries.filter((e) => e.kind === 'assistant').map((e) => e.kind === 'assistant' && e.markdown);
    assert.deepEqual(texts, ['A whole answer.']);
    assert.ok(patches.some((p) => p.type === 'remove'));
    assert.deepEqual(replay(patches), t.snapshot().entries);
  });

  it('turns errors into entries with the right actions, and cancellation into a notice', () => {
    const t = new ChatTranscript();
    t.begin('x', MODEL);
    run(t, [
      { type: 'error', kind: 'missing_key', message: 'No Anthropic API key is set.' },
      { type: 'done', stop_reason: null },
    ]);
    const error = t.snapshot().entries.at(-1);
    assert.deepEqual(error && { ...error, id: '' }, { kind: 'error', id: '', message: 'No Anthropic API key is set.', actions: ['setApiKey'] });

    t.begin('y', MODEL);
    run(t, [
      { type: 'text', text: 'partial' },
      { type: 'error', kind: 'cancelled', message: 'Stopped: the request was cancelled.' },
      { type: 'done', stop_reason: null },
    ]);
    const last = t.snapshot().entries.slice(-2);
    assert.equal(last[0].kind === 'assistant' && last[0].streaming, false, 'stopped text is no longer streaming');
    assert.equal(last[1].kind, 'notice');
    // Stop's line says the workspace edits and commands' effects are kept too, not only memory.
    assert.equal(last[1].kind === 'notice' && last[1].text, STOPPED_TEXT);
    assert.match(STOPPED_TEXT, /file edits, what its commands did and memory changes/);
    assert.equal(t.snapshot().status.running, false);
  });

  it('maps every error kind to what the user can do', () => {
    assert.deepEqual(actionsFor('auth'), ['setApiKey', 'retry'], 'a rejected key keeps the question: Retry');
    assert.deepEqual(actionsFor('overloaded'), ['retry']);
    assert.deepEqual(actionsFor('network'), ['retry']);
    assert.deepEqual(actionsFor('not_found'), ['openSettings']);
    assert.deepEqual(actionsFor('cancelled'), []);
    // Stop reasons: a cut-off can go on (Retry sends "continue") or get a bigger limit; a refusal
    // or a full context window is not retried as is.
    assert.deepEqual(actionsFor('max_tokens'), ['retry', 'openSettings']);
    assert.deepEqual(actionsFor('empty_response'), ['retry']);
    assert.deepEqual(actionsFor('refusal'), []);
    assert.deepEqual(actionsFor('context_window'), []);
  });

  it('clears everything on a new chat but keeps the disabled reason', () => {
    const t = new ChatTranscript();
    t.setDisabledReason('untrusted');
    t.begin('x', MODEL);
    run(t, [{ type: 'usage', usage }, { type: 'done', stop_reason: 'end_turn' }]);
    const [patch] = t.clear();
    assert.equal(patch.type, 'snapshot');
    assert.deepEqual(t.snapshot().entries, []);
    assert.equal(t.snapshot().status.requests, 0);
    assert.equal(t.snapshot().status.totals.input_tokens, 0);
    assert.equal(t.snapshot().status.disabledReason, 'untrusted');
  });

  it('reports a disabled reason change once', () => {
    const t = new ChatTranscript();
    assert.equal(t.setDisabledReason('no folder').length, 1);
    assert.equal(t.setDisabledReason('no folder').length, 0);
    assert.equal(t.setDisabledReason(undefined)[0].type, 'status');
  });

  it('shows a retried prompt once, with a line saying it was sent again', () => {
    const t = new ChatTranscript();
    t.begin('question', MODEL);
    run(t, [{ type: 'error', kind: 'network', message: 'offline' }, { type: 'done', stop_reason: null }]);
    t.begin('question', MODEL, { show: false });
    const kinds = t.snapshot().entries.map((e) => e.kind);
    assert.deepEqual(kinds, ['user', 'error', 'notice']);
    assert.equal(t.snapshot().status.running, true);
  });

  it('hands out copies, so callers cannot change its state', () => {
    const t = new ChatTranscript();
    t.begin('x', MODEL);
    const snap = t.snapshot();
    (snap.entries[0] as { text: string }).text = 'changed';
    assert.equal((t.snapshot().entries[0] as { text: string }).text, 'x');
  });

  it('says it is waiting between the send and the first token, between turns, and during SDK retries', () => {
    const t = new ChatTranscript();
    t.begin('x', MODEL);
    assert.equal(t.status().working, WAITING_TEXT, 'waiting right after the send');
    const retry = run(t, [{ type: 'api_retry', reason: 'overloaded', attempt: 1, maxRetries: 2, delayMs: 4000 }]);
    assert.equal(retry.length, 1);
    assert.equal(t.status().working, 'Overloaded — retrying in 4 s (attempt 1 of 2)');
    run(t, [{ type: 'text', text: 'Hi' }]);
    assert.equal(t.status().working, undefined, 'the streaming answer shows itself');
    run(t, [{ type: 'tool_start', id: 't', command: 'view', path: '/memories' }]);
    assert.equal(t.status().working, undefined, 'a running card shows itself');
    run(t, [{ type: 'tool_end', id: 't', command: 'view', path: '/memories', is_error: false, summary: 'viewed' }]);
    assert.equal(t.status().working, WAITING_TEXT, 'waiting for the next turn');
    assert.deepEqual(run(t, [{ type: 'turn_end', stop_reason: 'tool_use' }]).filter((p) => p.type === 'status'), [], 'no patch when nothing changed');
    run(t, [{ type: 'done', stop_reason: 'end_turn' }]);
    assert.equal(t.status().working, undefined);
    assert.equal(t.status().running, false);
  });

  it('words each kind of retry, with at least one second', () => {
    assert.equal(retryText('rate_limit', 250, 2, 2), 'Rate limited — retrying in 1 s (attempt 2 of 2)');
    assert.equal(retryText('network', 8000, 1, 3), 'Connection failed — retrying in 8 s (attempt 1 of 3)');
  });

  it('shows a built-in prompt as a chip with its text, and the chips that went with a message', () => {
    const t = new ChatTranscript();
    t.begin('# The whole routine\n...', MODEL, { label: 'Resume Session · next: F003' });
    t.end();
    t.begin('look at this', MODEL, { attachments: ['app.ts:3-9'] });
    const [chip, plain] = t.snapshot().entries;
    assert.deepEqual({ ...chip, id: '' }, { kind: 'user', id: '', text: '# The whole routine\n...', label: 'Resume Session · next: F003' });
    assert.deepEqual({ ...plain, id: '' }, { kind: 'user', id: '', text: 'look at this', attachments: ['app.ts:3-9'] });
  });

  it('leaves the cost out when the model has no known price', () => {
    const t = new ChatTranscript();
    t.begin('x', 'some-other-model');
    run(t, [{ type: 'usage', usage }, { type: 'done', stop_reason: 'end_turn' }]);
    const line = t.snapshot().entries.at(-1);
    assert.equal(line?.kind === 'usage' && line.costUsd, undefined);
    assert.equal(t.status().costUsd, undefined);
  });

  it('shows what a memory write changed on its card', () => {
    const t = new ChatTranscript();
    t.begin('x', MODEL);
    run(t, [
      {
        type: 'tool_end',
        id: 'a',
        command: 'str_replace',
        path: '/memories/p.md',
        is_error: false,
        summary: 'edited /memories/p.md',
        detail: { kind: 'memory', change: { type: 'str_replace', old: 'teal', new: 'green' } },
      },
      { type: 'tool_end', id: 'b', tool: 'bash', command: 'run', path: 'npm test', is_error: false, summary: 'ran npm test' },
    ]);
    const [, memory, bash] = t.snapshot().entries;
    assert.deepEqual(memory.kind === 'tool' && memory.change, { type: 'str_replace', old: 'teal', new: 'green' });
    assert.equal(memory.kind === 'tool' && memory.tool, undefined, 'memory is the default tool');
    assert.equal(bash.kind === 'tool' && bash.tool, 'bash');
  });

  it('holds a message that waits for a key, and restores a conversation set aside', () => {
    const t = new ChatTranscript();
    t.setKeyState('missing');
    t.hold('hello');
    assert.equal(t.status().pendingKey, true);
    assert.equal(t.status().running, false);
    assert.deepEqual(t.snapshot().entries.map((e) => e.kind), ['user']);
    t.begin('hello', MODEL, { show: false });
    assert.equal(t.status().pendingKey, undefined, 'sent: no longer pending');
    run(t, [{ type: 'usage', usage }, { type: 'done', stop_reason: 'end_turn' }]);

    const saved = t.saved();
    t.clear();
    t.setHasPrevious(true);
    assert.equal(t.status().hasPrevious, true);
    const [patch] = t.restore(saved);
    assert.equal(patch.type, 'snapshot');
    assert.deepEqual(t.snapshot().entries, saved.entries);
    assert.equal(t.status().requests, 1);
    // New rows get ids that do not collide with the restored ones.
    t.notice('after');
    const ids = t.snapshot().entries.map((e) => e.id);
    assert.equal(new Set(ids).size, ids.length);
  });
});
