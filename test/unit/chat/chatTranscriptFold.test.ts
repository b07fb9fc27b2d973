import * as assert from 'node:assert/strict';
import { ChatTranscript, UNFOLDED_OUTPUTS } from '../../../src/features/chat/chatTranscript';
import { parseWebviewMessage } from '../../../src/features/chat/shared/protocol';

/** A conversation of `n` messages, each with one command card whose output has 200 lines. */
function longChat(n: number): ChatTranscript {
  const t = new ChatTranscript();
  for (let i = 0; i < n; i++) {
    t.begin(`message ${i}`, 'claude-sonnet-4-5');
    t.apply({ type: 'tool_start', id: `c${i}`, tool: 'bash', command: 'run', path: 'seq 1 200' });
    t.apply({ type: 'tool_output', id: `c${i}`, text: Array.from({ length: 200 }, (_, k) => `line ${k} of ${i}`).join('\n') });
    t.apply({ type: 'tool_end', id: `c${i}`, tool: 'bash', command: 'run', path: 'seq 1 200', is_error: false, summary: 'exit 0' });
    t.apply({ type: 'text', text: `answer ${i}` });
    t.apply({ type: 'done', stop_reason: 'end_turn' });
  }
  return t;
}

describe('chat transcript: old card outputs folded out of the view', () => {
  it(`a view gets every row, the last ${UNFOLDED_OUTPUTS} outputs, and only the line count of older ones; nothing is dropped from the chat`, () => {
    const t = longChat(40);
    const full = t.snapshot();
    const view = t.viewSnapshot();
    assert.equal(view.entries.length, full.entries.length, 'every row');
    assert.deepEqual(view.entries.map((e) => e.id), full.entries.map((e) => e.id));
    const cards = view.entries.filter((e) => e.kind === 'tool');
    const withOutput = cards.filter((e) => e.kind === 'tool' && e.output !== undefined);
    assert.equal(withOutput.length, UNFOLDED_OUTPUTS);
    assert.deepEqual(withOutput.map((e) => e.id), cards.slice(-UNFOLDED_OUTPUTS).map((e) => e.id), 'the newest ones');
    for (const card of cards.slice(0, -UNFOLDED_OUTPUTS)) assert.equal(card.kind === 'tool' && card.foldedOutput, 200);
    assert.ok(JSON.stringify(view).length < JSON.stringify(full).length / 2, 'the view is much lighter');
    // The chat itself (what is saved) keeps every output.
    assert.ok(t.saved().entries.every((e) => e.kind !== 'tool' || e.output?.split('\n').length === 200));
  });

  it('Show Output sends the card again with its output; the webview may ask only with a plain entry id', () => {
    const t = longChat(20);
    const first = t.viewSnapshot().entries.find((e) => e.kind === 'tool');
    assert.ok(first?.kind === 'tool' && first.foldedOutput === 200 && first.output === undefined);
    const [patch] = t.unfolded(first.id);
    assert.ok(patch?.type === 'entry' && patch.entry.kind === 'tool');
    assert.equal(patch.entry.kind === 'tool' && patch.entry.output?.split('\n').length, 200);
    assert.deepEqual(t.unfolded('e99999'), []);
    assert.deepEqual(parseWebviewMessage({ type: 'unfoldOutput', entryId: first.id }), { type: 'unfoldOutput', entryId: first.id });
    assert.equal(parseWebviewMessage({ type: 'unfoldOutput', entryId: '../x' }), undefined);
  });
});
