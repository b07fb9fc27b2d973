import * as assert from 'node:assert/strict';
import { rewindNote } from '../../../src/core/checkpoints';
import { ChatTranscript } from '../../../src/features/chat/chatTranscript';
import { parseWebviewMessage, type ChatEntry } from '../../../src/features/chat/shared/protocol';

describe('rewind marks in the transcript, the protocol and the note for Claude', () => {
  it('the checkpoint goes on the last user message; a rewind marks it and every row after it, and only those', () => {
    const t = new ChatTranscript();
    t.begin('first', 'm');
    t.setCheckpoint(1);
    t.end();
    t.begin('second', 'm');
    const patches = t.setCheckpoint(2);
    assert.deepEqual(
      patches.map((p) => (p.type === 'entry' ? [p.entry.kind, (p.entry as Extract<ChatEntry, { kind: 'user' }>).checkpoint] : p.type)),
      [['user', 2]],
    );
    t.notice('a later row');
    const entries = t.snapshot().entries;
    const second = entries.find((e) => e.kind === 'user' && e.text === 'second')!;
    t.markRewound(second.id, 'Rewound to before this message: 1 file changed back.');
    const after = t.snapshot().entries;
    const index = after.findIndex((e) => e.id === second.id);
    assert.ok(after.slice(0, index).every((e) => e.rewound === undefined), 'rows before the message stay');
    assert.ok(after.slice(index).every((e) => e.rewound === true), 'the message and the rows after it are marked');
    const marked = after[index] as Extract<ChatEntry, { kind: 'user' }>;
    assert.equal(marked.rewoundHere, 'Rewound to before this message: 1 file changed back.');
    assert.equal(marked.checkpoint, 2);
    assert.deepEqual(t.markRewound('e999', 'x'), []);
  });

  it('the webview may only ask to rewind (or undo a rewind of) a row id', () => {
    for (const type of ['rewind', 'undoRewind']) {
      assert.deepEqual(parseWebviewMessage({ type, entryId: 'e3' }), { type, entryId: 'e3' });
      for (const entryId of [undefined, 3, '../e3', 'e3; rm', '']) assert.equal(parseWebviewMessage({ type, entryId }), undefined, `${type} ${String(entryId)}`);
    }
  });

  it('a files-only rewind marks only the message; Undo unfolds what its rewind folded, not what a later rewind folded', () => {
    const t = new ChatTranscript();
    const ids: string[] = [];
    for (const text of ['one', 'two', 'three']) {
      t.begin(text, 'm');
      t.setCheckpoint(ids.length + 1);
      ids.push(t.snapshot().entries.at(-1)!.id);
      t.notice(`after ${text}`);
      t.end();
    }
    t.markRewound(ids[0], 'Files rewound.', { fold: false, undo: { backup: 9 } });
    assert.ok(t.snapshot().entries.every((e) => e.rewound === undefined), 'files only folds nothing');
    t.unmarkRewound(ids[0]);
    t.markRewound(ids[2], 'Rewound three.', { fold: true, undo: { backup: 10, conversation: true } });
    t.markRewound(ids[1], 'Rewound two.', { fold: true, undo: { backup: 11, conversation: true } });
    const folded = (): string[] => t.snapshot().entries.filter((e) => e.rewound).map((e) => (e.kind === 'user' ? e.text : e.kind === 'notice' ? e.text : e.kind));
    assert.deepEqual(folded(), ['two', 'after two', 'three', 'after three']);
    t.unmarkRewound(ids[1]);
    assert.deepEqual(folded(), ['three', 'after three'], 'the later rewind keeps its rows folded');
    const two = t.snapshot().entries.find((e) => e.id === ids[1]);
    assert.equal(two?.kind === 'user' && (two.rewoundHere ?? two.rewindUndo ?? two.rewound), undefined);
    assert.equal(t.dropRewindUndo().length, 1, 'the one Undo left (three) goes when a message is sent');
  });

  it('Claude is told which message was rewound to and which files changed back, in one bracketed note', () => {
    const note = rewindNote('Fix the\nlogin   form', {
      files: [
        { path: 'src/login.ts', change: 'restore' },
        { path: 'tmp.txt', change: 'remove' },
      ],
      memory: [{ rel: 'progress.md', action: 'restore', version: 3 }],
    });
    assert.match(note, /^\[Note from the editor: the user rewound the workspace and memory to how they were before their message "Fix the login form" \(2 files, 1 memory file\)\./);
    assert.match(note, /Files changed back: src\/login\.ts, tmp\.txt\./);
    assert.ok(note.endsWith(']'));
  });
});
