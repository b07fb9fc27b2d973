/**
 * The implicit current-file chip (issue 32, finding 14): it follows the active editor, is shown
 * as implicit, and is a toggle: off, it stays on screen and is not sent; another file's chip is
 * on again.
 */
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { ChatAttachments } from '../../../src/features/chat/chatAttachments';

const uri = (path: string) => ({ toString: () => `file://${path}`, path }) as unknown as vscode.Uri;

describe('chat attachments: the implicit current-file chip', () => {
  it('is a toggle: off it is shown and not sent, on again with a click or another file', () => {
    const a = new ChatAttachments((u) => u.path.slice(1));
    a.follow(uri('/todo.js'), undefined);
    const [chip] = a.list();
    assert.equal(chip.current, true);
    assert.equal(a.toggle(chip.id), true);
    assert.deepEqual(a.list().map((c) => [c.label, c.off]), [['todo.js', true]], 'still shown, marked off');
    assert.deepEqual(a.take(), [], 'not sent while off');
    a.follow(uri('/todo.js'), undefined);
    assert.equal(a.list()[0].off, true, 'the same file keeps it off');
    assert.equal(a.toggle(a.list()[0].id), true);
    assert.deepEqual(a.take().map((c) => c.label), ['todo.js'], 'on again: sent');
    a.toggle(a.list()[0].id);
    a.follow(uri('/README.md'), undefined);
    assert.deepEqual(a.list().map((c) => [c.label, c.off]), [['README.md', undefined]], 'another file: on');
    assert.equal(a.toggle('a-not-the-current-one'), false);
  });

  it('removing the implicit chip turns it off rather than hiding it; an added file is removed', () => {
    const a = new ChatAttachments((u) => u.path.slice(1));
    a.follow(uri('/todo.js'), undefined);
    const added = a.add(uri('/notes.md'));
    assert.equal(a.remove(a.list()[0].id), true);
    assert.deepEqual(a.list().map((c) => [c.label, c.off]), [['todo.js', true], ['notes.md', undefined]]);
    assert.equal(a.remove(added.id), true);
    assert.deepEqual(a.list().map((c) => c.label), ['todo.js']);
  });
});
