import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/core/agent/events';
import {
  ChatTranscript, INTERRUPTED_CARD, INTERRUPTED_TEXT, parseSavedConversation,
} from '../../../src/features/chat/chatTranscript';

const MODEL = 'claude-sonnet-4-5';
const usage = { input_tokens: 100, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 10 };

function read(id: string, path: string, target: 'file' | 'directory' = 'file'): AgentEvent[] {
  return [
    { type: 'tool_start', id, command: 'view', path },
    { type: 'tool_end', id, command: 'view', path, is_error: false, summary: `viewed ${path}`, touched: { kind: 'read', path }, detail: { kind: 'memoryRead', target } },
  ];
}

function play(t: ChatTranscript, events: AgentEvent[]): void {
  for (const e of events) t.apply(e);
}

describe('chat transcript: the "Read N memory files" note', () => {
  it('appears after the first answer\'s reads, before Claude goes on, and counts later reads of that answer', () => {
    const t = new ChatTranscript();
    t.begin('Where were we?', MODEL);
    play(t, [
      { type: 'text', text: 'Reading memory first.' },
      ...read('a', '/memories', 'directory'),
      ...read('b', '/memories/progress.md'),
      ...read('c', '/memories/startup.md'),
      { type: 'usage', usage },
      { type: 'turn_end', stop_reason: 'tool_use' },
      { type: 'text', text: 'We were on F003.' },
      ...read('d', '/memories/features.json'),
      ...read('e', '/memories/progress.md'),
      { type: 'usage', usage },
      { type: 'done', stop_reason: 'end_turn' },
    ]);
    const entries = t.snapshot().entries;
    assert.deepEqual(entries.map((e) => e.kind), ['user', 'assistant', 'tool', 'tool', 'tool', 'reads', 'assistant', 'tool', 'tool', 'usage']);
    const note = entries[5];
    assert.ok(note.kind === 'reads');
    assert.equal(note.text, 'Read 3 memory files: progress.md, startup.md, features.json');
    assert.deepEqual(note.paths, ['/memories/progress.md', '/memories/startup.md', '/memories/features.json']);
  });

  it('only for the first message of a conversation; none when no file was read', () => {
    const t = new ChatTranscript();
    t.begin('hi', MODEL);
    play(t, [...read('a', '/memories', 'directory'), { type: 'text', text: 'Empty.' }, { type: 'usage', usage }, { type: 'done', stop_reason: 'end_turn' }]);
    t.begin('and now?', MODEL);
    play(t, [...read('b', '/memories/notes.md'), { type: 'text', text: 'Read it.' }, { type: 'usage', usage }, { type: 'done', stop_reason: 'end_turn' }]);
    assert.equal(t.snapshot().entries.filter((e) => e.kind === 'reads').length, 0);
  });

  it('is saved and restored with the rest of the conversation', () => {
    const t = new ChatTranscript();
    t.begin('hi', MODEL);
    play(t, [...read('a', '/memories/progress.md'), { type: 'done', stop_reason: 'end_turn' }]);
    const back = new ChatTranscript();
    back.restore(parseSavedConversation(JSON.parse(JSON.stringify(t.saved()))) ?? assert.fail('not parsed'));
    assert.deepEqual(back.snapshot().entries.find((e) => e.kind === 'reads'), t.snapshot().entries.find((e) => e.kind === 'reads'));
  });
});

describe('chat transcript: saved and restored', () => {
  it('an answer saved while running comes back stopped: partial text kept, running card interrupted, question gone, usage line', () => {
    const t = new ChatTranscript();
    t.begin('Run the tests', MODEL);
    play(t, [
      { type: 'text', text: 'Running them' },
      { type: 'usage', usage },
      { type: 'tool_start', id: 'b', tool: 'bash', command: 'run', path: 'npm test' },
    ]);
    t.setApproval('b', { kind: 'command', toolUseId: 'b', command: 'npm test', prefixes: ['npm test'] }, 'pending');
    const saved = JSON.parse(JSON.stringify(t.saved()));
    assert.equal(saved.send.requests, 1, 'the running send\'s usage is saved with it');

    const back = new ChatTranscript();
    back.restore(parseSavedConversation(saved) ?? assert.fail('not parsed'));
    const entries = back.snapshot().entries;
    assert.deepEqual(entries.map((e) => e.kind), ['user', 'assistant', 'tool', 'notice', 'usage']);
    const [, text, card, notice] = entries;
    assert.ok(text.kind === 'assistant' && !text.streaming && text.markdown === 'Running them');
    assert.ok(card.kind === 'tool' && card.status === 'error' && card.summary === INTERRUPTED_CARD && card.approval === undefined);
    assert.ok(notice.kind === 'notice' && notice.text === INTERRUPTED_TEXT);
    assert.equal(back.status().running, false);
    assert.equal(back.status().requests, 1);
    assert.equal(back.saved().send, undefined, 'saved again, it is no longer running');
  });

  it('refuses what is not a saved conversation', () => {
    assert.equal(parseSavedConversation(undefined), undefined);
    assert.equal(parseSavedConversation({ entries: [{ kind: 'nope', id: 'e1' }], totals: usage, requests: 0 }), undefined);
    assert.equal(parseSavedConversation({ entries: [{ kind: 'notice', id: '<b>', text: '' }], totals: usage, requests: 0 }), undefined);
    assert.ok(parseSavedConversation({ entries: [], totals: usage, requests: 0, costUsd: 0 }));
  });
});
