import * as assert from 'assert';
import type { ApprovalRequest } from '../../../src/core/agent/tools';
import { ChatAttention, describeWaiting } from '../../../src/features/chat/chatAttention';

const command = (id: string, text = 'npm test'): ApprovalRequest => ({ kind: 'command', toolUseId: id, command: text, prefixes: [text] });
const edit: ApprovalRequest = { kind: 'edit', toolUseId: 'e', path: 'src/todo.js', before: 'a', after: 'b' };
const network: ApprovalRequest = { kind: 'network', toolUseId: 'n', command: 'npm install', host: 'registry.npmjs.org', port: 443 };

describe('chat attention (a card waits while the chat is out of sight)', () => {
  it('out of sight: a badge with the count of waiting cards and one notification per new question', () => {
    const attention = new ChatAttention();
    const first = attention.update([command('a')], false);
    assert.deepStrictEqual(first.badge, { value: 1, tooltip: 'Claude is waiting for your answer on a card' });
    assert.strictEqual(first.notify, 'Claude is waiting for your permission to run "npm test".');
    // The same question again (another change of the waiting list): no second notification.
    assert.strictEqual(attention.update([command('a')], false).notify, undefined);
    const second = attention.update([command('a'), edit], false);
    assert.deepStrictEqual(second.badge, { value: 2, tooltip: 'Claude is waiting for your answers on 2 cards' });
    assert.strictEqual(second.notify, 'Claude is waiting for your permission to edit src/todo.js (2 cards wait).');
    // Answered: the badge goes.
    assert.deepStrictEqual(attention.update([], false), { badge: undefined, notify: undefined });
  });

  it('in sight: the badge counts, nothing pops up; a question seen there is not notified later', () => {
    const attention = new ChatAttention();
    assert.deepStrictEqual(attention.update([command('a')], true), { badge: { value: 1, tooltip: 'Claude is waiting for your answer on a card' }, notify: undefined });
    assert.strictEqual(attention.update([command('a')], false).notify, undefined);
    assert.match(attention.update([command('a'), network], false).notify ?? '', /to let "npm install" reach registry\.npmjs\.org:443/);
  });

  it('says a long or multi-line command on one short line', () => {
    const text = describeWaiting(command('x', `for f in *; do\n  echo "$f"\ndone ${'x'.repeat(100)}`));
    assert.ok(!text.includes('\n'));
    assert.ok(text.length < 80, text);
    assert.match(text, /…"$/);
  });
});
