import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/core/agent/events';
import { actionsFor, ChatTranscript, type ChatPatch } from '../../../src/webviews/chatTranscript';
import type { ChatEntry } from '../../../src/webviews/protocol';

const usage = { input_tokens: 100, cache_read_input_tokens: 80, cache_creation_input_tokens: 20, output_tokens: 7 };

function run(t: ChatTranscript, events: AgentEvent[]): ChatPatch[] {
  return events.flatMap((e) => t.apply(e));
}

/** Applies patches the way the webview does, to check that patches and snapshots agree. */
function replay(patches: ChatPatch[]): ChatEntry[] {
  let entries: ChatEntry[] = [];
  for (const p of patches) {
    if (p.type === 'snapshot') entries = p.snapshot.entries.map((e) => ({ ...e }));
    else if (p.type === 'entry') {
      const i = entries.findIndex((e) => e.id === p.entry.id);
      if (i >= 0) entries[i] = { ...p.entry };
      else entries.push({ ...p.entry });
    } else if (p.type === 'text') {
      const e = entries.find((x) => x.id === p.id);
      if (e?.kind === 'assistant') e.markdown += p.text;
    } else if (p.type === 'remove') entries = entries.filter((e) => e.id !== p.id);
  }
  return entries;
}

describe('chat transcript', () => {
  it('folds a tool-using answer into user, text, card, usage and text entries', () => {
    const t = new ChatTranscript();
    const patches = [
      ...t.begin('remember my name'),
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
      ['user', 'assistant', 'usage', 'tool', 'assistant', 'usage'],
    );
    assert.deepEqual(entries[1], { kind: 'assistant', id: entries[1].id, markdown: 'Let me note that.', streaming: false });
    const card = entries[3];
    assert.equal(card.kind, 'tool');
    assert.deepEqual({ ...card, id: '' }, { kind: 'tool', id: '', command: 'create', path: '/memories/name.md', status: 'ok', summary: 'created /memories/name.md' });
    assert.equal(status.running, false);
    assert.equal(status.requests, 2);
    assert.deepEqual(status.totals, { input_tokens: 200, cache_read_input_tokens: 160, cache_creation_input_tokens: 40, output_tokens: 14 });
    assert.deepEqual(replay(patches), entries, 'the patches rebuild exactly the snapshot');
    assert.ok(patches.some((p) => p.type === 'text'), 'text after the first delta streams as deltas');
  });

  it('updates a running card in place and marks failed calls', () => {
    const t = new ChatTranscript();
    t.begin('x');
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
    t.begin('x');
    run(t, [
      { type: 'tool_end', id: 'r', command: 'rename', path: '/memories/a.md', is_error: false, summary: 'renamed', touched: { kind: 'rename', path: '/memories/a.md', newPath: '/memories/b.md' } },
    ]);
    const card = t.snapshot().entries[1];
    assert.equal(card.kind === 'tool' && card.path, '/memories/b.md');
  });

  it('keeps cards of separate sends apart even when a server reuses tool ids', () => {
    const t = new ChatTranscript();
    for (const prompt of ['one', 'two']) {
      t.begin(prompt);
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
      ...t.begin('x'),
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
    t.begin('x');
    run(t, [
      { type: 'error', kind: 'missing_key', message: 'No Anthropic API key is set.' },
      { type: 'done', stop_reason: null },
    ]);
    const error = t.snapshot().entries.at(-1);
    assert.deepEqual(error && { ...error, id: '' }, { kind: 'error', id: '', message: 'No Anthropic API key is set.', actions: ['setApiKey'] });

    t.begin('y');
    run(t, [
      { type: 'text', text: 'partial' },
      { type: 'error', kind: 'cancelled', message: 'Stopped: the request was cancelled.' },
      { type: 'done', stop_reason: null },
    ]);
    const last = t.snapshot().entries.slice(-2);
    assert.equal(last[0].kind === 'assistant' && last[0].streaming, false, 'stopped text is no longer streaming');
    assert.equal(last[1].kind, 'notice');
    assert.equal(t.snapshot().status.running, false);
  });

  it('maps every error kind to what the user can do', () => {
    assert.deepEqual(actionsFor('auth'), ['setApiKey']);
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
    t.begin('x');
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
    t.begin('question');
    run(t, [{ type: 'error', kind: 'network', message: 'offline' }, { type: 'done', stop_reason: null }]);
    t.begin('question', false);
    const kinds = t.snapshot().entries.map((e) => e.kind);
    assert.deepEqual(kinds, ['user', 'error', 'notice']);
    assert.equal(t.snapshot().status.running, true);
  });

  it('hands out copies, so callers cannot change its state', () => {
    const t = new ChatTranscript();
    t.begin('x');
    const snap = t.snapshot();
    (snap.entries[0] as { text: string }).text = 'changed';
    assert.equal((t.snapshot().entries[0] as { text: string }).text, 'x');
  });
});
