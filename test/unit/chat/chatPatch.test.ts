import * as assert from 'node:assert/strict';
import { applyChatPatch, indexOfEntry } from '../../../src/features/chat/shared/chatPatch';
import { MAX_CARD_OUTPUT_CHARS, emptyTokenUsage, type ChatEntry, type ExtensionToWebview } from '../../../src/features/chat/shared/protocol';

const user: ChatEntry = { kind: 'user', id: 'u1', text: 'hello' };
const answer: ChatEntry = { kind: 'assistant', id: 'a1', markdown: 'Hi', streaming: true };
const card: ChatEntry = { kind: 'tool', id: 't1', tool: 'bash', command: 'npm test', status: 'running' };
const status = { running: false, totals: emptyTokenUsage(), requests: 0 };

/** Applies `patches` in order from `start`. */
function apply(start: readonly ChatEntry[], ...patches: ExtensionToWebview[]): readonly ChatEntry[] {
  return patches.reduce(applyChatPatch, start);
}

describe('applying chat patches to an entry list', () => {
  it('a snapshot replaces the list; an entry is added at the end or replaces the one with its id, in place', () => {
    const list = apply([{ kind: 'user', id: 'old', text: 'gone' }], { type: 'snapshot', snapshot: { entries: [user, answer], status } });
    assert.deepEqual(list, [user, answer]);
    assert.deepEqual(apply(list, { type: 'entry', entry: card }), [user, answer, card]);
    const done: ChatEntry = { ...answer, streaming: false };
    assert.deepEqual(apply(list, { type: 'entry', entry: card }, { type: 'entry', entry: done }), [user, done, card]);
  });

  it('text goes on the end of an assistant entry; output on a tool card, of which only the last MAX_CARD_OUTPUT_CHARS are kept', () => {
    const list = apply([user, answer, card], { type: 'text', id: 'a1', text: ' there' }, { type: 'text', id: 'a1', text: '!' }, { type: 'output', id: 't1', text: 'line 1\n' });
    assert.deepEqual(list[1], { ...answer, markdown: 'Hi there!' });
    assert.deepEqual(list[2], { ...card, output: 'line 1\n' });
    const long = apply(list, { type: 'output', id: 't1', text: 'x'.repeat(MAX_CARD_OUTPUT_CHARS) });
    const output = long[2].kind === 'tool' ? long[2].output! : '';
    assert.equal(output.length, MAX_CARD_OUTPUT_CHARS);
    assert.equal(output, 'x'.repeat(MAX_CARD_OUTPUT_CHARS), 'the start is dropped, the end kept');
  });

  it('remove drops the entry; patches for an unknown id or the wrong kind, and messages without entries, change nothing', () => {
    const list: readonly ChatEntry[] = [user, answer, card];
    assert.deepEqual(apply(list, { type: 'remove', id: 'a1' }), [user, card]);
    for (const patch of [
      { type: 'remove', id: 'nope' },
      { type: 'text', id: 'nope', text: 'x' },
      { type: 'text', id: 't1', text: 'x' },
      { type: 'output', id: 'a1', text: 'x' },
      { type: 'status', status },
      { type: 'draft', text: 'q', reason: 'r' },
      { type: 'focusInput' },
      { type: 'changes' },
    ] satisfies ExtensionToWebview[]) {
      assert.equal(applyChatPatch(list, patch), list, `${patch.type} returns the same list`);
    }
  });

  it('never changes the list or the entries it is given', () => {
    const entries: ChatEntry[] = [user, { ...answer }, { ...card }];
    const frozen = structuredClone(entries);
    apply(entries, { type: 'text', id: 'a1', text: 'more' }, { type: 'output', id: 't1', text: 'out' }, { type: 'entry', entry: { ...user, text: 'edited' } }, { type: 'remove', id: 'u1' });
    assert.deepEqual(entries, frozen);
  });

  it('finds an entry by id from the end', () => {
    assert.equal(indexOfEntry([user, answer, card], 't1'), 2);
    assert.equal(indexOfEntry([user, answer, card], 'u1'), 0);
    assert.equal(indexOfEntry([], 'u1'), -1);
  });
});
