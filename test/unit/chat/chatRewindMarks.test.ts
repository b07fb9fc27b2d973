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

  it('the webview may only ask to rewind a row id', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'rewind', entryId: 'e3' }), { type: 'rewind', entryId: 'e3' });
    for (const entryId of [undefined, 3, '../e3', 'e3; rm', '']) assert.equal(parseWebviewMessage({ type: 'rewind', entryId }), undefined, String(entryId));
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
