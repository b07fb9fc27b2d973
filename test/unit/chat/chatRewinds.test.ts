import * as assert from 'node:assert/strict';
import type { CheckpointStore, RewindPlan } from '../../../src/core/checkpoints';
import { ChatRewinds } from '../../../src/features/chat/chatRewinds';
import { ChatTranscript, type ChatPatch } from '../../../src/features/chat/chatTranscript';
import { fakePort, FakeEdits, type FakePort } from './fakeChatPort';

const plan: RewindPlan = { checkpointId: 7, files: [{ path: 'src/a.ts', change: 'restore' }], notRestored: [], leftIgnored: [], memory: [{ rel: 'progress.md', action: 'restore', version: 3 }] };

/** A checkpoint store that numbers its checkpoints and rewinds to `plan`. */
function fakeCheckpoints(): CheckpointStore & { created: Array<{ prompt: string; session?: string }>; rewound: number[]; rewindOptions: unknown[] } {
  const created: Array<{ prompt: string; session?: string }> = [];
  const rewound: number[] = [];
  const rewindOptions: unknown[] = [];
  return {
    created,
    rewound,
    rewindOptions,
    create: async (what: { prompt: string; session?: string }) => {
      created.push({ prompt: what.prompt, session: what.session });
      return { id: created.length, time: 0, kind: 'chat', prompt: what.prompt, skipped: [], commit: 'abc' };
    },
    preview: async (id: number) => ({ ...plan, checkpointId: id }),
    rewind: async (id: number, opts: unknown) => {
      rewound.push(id);
      rewindOptions.push(opts);
      return { ...plan, checkpointId: id, backup: { id: 99, time: 0, kind: 'rewind', prompt: '', skipped: [], commit: 'def' } };
    },
  } as unknown as CheckpointStore & { created: Array<{ prompt: string; session?: string }>; rewound: number[]; rewindOptions: unknown[] };
}

function rig(port: FakePort = fakePort()) {
  const transcript = new ChatTranscript();
  const edits = new FakeEdits();
  const patches: ChatPatch[] = [];
  const state = { answering: false, saves: 0, summary: [] as string[], summaryNote: undefined as string | undefined };
  const checkpoints = fakeCheckpoints();
  port.checkpointStore = checkpoints;
  const rewinds = new ChatRewinds(port, {
    transcript,
    edits,
    emit: (p) => void patches.push(...p),
    answering: () => state.answering,
    idle: async () => undefined,
    currentStore: () => port.store(undefined),
    chatId: () => 'chat-1',
    saveNow: async () => void (state.saves += 1),
    changes: {
      refresh: async () => void state.summary.push('refresh'),
      rewound: async (checkpoint) => void state.summary.push(`rewound ${checkpoint}`),
      checkpointTaken: async (_folder, checkpoint, entryId, text) => void state.summary.push(`checkpoint ${checkpoint} ${entryId} ${text}`),
      takeNote: () => {
        const note = state.summaryNote;
        state.summaryNote = undefined;
        return note;
      },
      saved: () => ({ decisions: [], untold: [{ kind: 'file', path: 'summary-state', change: 'modified' }] }),
      restore: async (saved) => void state.summary.push(`restore ${saved?.untold?.[0]?.path}`),
    },
  });
  return { rewinds, transcript, edits, patches, state, checkpoints, port };
}

/** A message shown with its checkpoint, as a send does. */
async function sent(r: ReturnType<typeof rig>, text: string, label?: string): Promise<string> {
  r.transcript.begin(text, 'claude-test-model', label ? { label } : {});
  await r.rewinds.recordCheckpoint(r.port.folders[0], text, label);
  r.transcript.end();
  const user = r.transcript.snapshot().entries.filter((e) => e.kind === 'user').at(-1)!;
  return user.id;
}

/** An answer whose edit card created src/new.ts (undoable); returns the card's entry id. */
function createdFileCard(r: ReturnType<typeof rig>): string {
  r.transcript.begin('edit', 'claude-test-model');
  r.transcript.apply({ type: 'tool_end', id: 'e', tool: 'str_replace_based_edit_tool', command: 'create', path: 'src/new.ts', is_error: false, summary: 'created', detail: { kind: 'edit', path: 'src/new.ts', before: undefined, after: 'x' } });
  const card = r.transcript.entryIdOf('e')!;
  r.edits.record(card, { folder: r.port.folders[0], path: 'src/new.ts', before: undefined, after: 'x' });
  return card;
}

describe('chat rewinds: checkpoints, Rewind and Undo', () => {
  it('records a checkpoint for each message, named after the chat', async () => {
    const r = rig();
    const id = await sent(r, 'first');
    assert.deepEqual(r.checkpoints.created, [{ prompt: 'first', session: 'chat-1' }]);
    const user = r.transcript.snapshot().entries.find((e) => e.id === id);
    assert.equal(user?.kind === 'user' && user.checkpoint, 1);
    assert.deepEqual(r.state.summary, [`checkpoint 1 ${id} first`], 'the change summary hears of it');
  });

  it('a failed checkpoint is logged and does not stand in the way', async () => {
    const r = rig();
    r.checkpoints.create = async () => {
      throw new Error('git is busy');
    };
    await sent(r, 'first');
    assert.ok(r.port.logs.includes('warn: no checkpoint for this message: git is busy'));
  });

  it('previews, then rewinds: the message is marked, its text goes back to the composer, Claude is told once, the chat is saved', async () => {
    const r = rig();
    const id = await sent(r, 'refactor a.ts');
    const preview = await r.rewinds.previewRewind(id);
    assert.deepEqual(preview, { ok: true, plan: { ...plan, checkpointId: 1 }, message: 'refactor a.ts' });
    assert.deepEqual(r.checkpoints.rewound, [], 'a preview changes nothing');
    const done = await r.rewinds.rewind(id);
    assert.equal(done.ok, true);
    assert.deepEqual(r.checkpoints.rewound, [1]);
    assert.equal(r.state.summary.at(-1), 'rewound 1');
    const user = r.transcript.snapshot().entries.find((e) => e.id === id);
    assert.equal(user?.kind === 'user' && user.rewoundHere, 'Rewound to before this message: 1 file and 1 memory file changed back.');
    // Into the composer only if it is empty: the webview asks before it touches a draft.
    assert.deepEqual(r.patches.filter((p) => p.type === 'draft'), [{ type: 'draft', text: 'refactor a.ts', reason: 'Rewound: your message is back here to edit and send again.', ask: true }]);
    assert.equal(r.state.saves, 1);
    assert.match(r.rewinds.takeNote() ?? '', /the user rewound the workspace and memory to how they were before their message "refactor a\.ts"/);
    assert.equal(r.rewinds.takeNote(), undefined, 'told once');
    assert.deepEqual(await r.rewinds.rewind(id), { ok: false, reason: 'This message was rewound already.' });
  });

  it('a built-in routine (Resume Session) is named by its chip: the checkpoint, the summary and the preview; the routine never goes back to the composer', async () => {
    const r = rig();
    const routine = 'We are resuming work on this project (2026-12-03). Follow this routine exactly. 1. Get your bearings…';
    const id = await sent(r, routine, 'Resume Session · next: F001');
    assert.deepEqual(r.checkpoints.created, [{ prompt: 'Resume Session · next: F001', session: 'chat-1' }]);
    assert.deepEqual(r.state.summary, [`checkpoint 1 ${id} Resume Session · next: F001`]);
    const preview = await r.rewinds.previewRewind(id);
    assert.equal(preview.ok && preview.message, 'Resume Session · next: F001');
    const done = await r.rewinds.rewind(id);
    assert.equal(done.ok && done.message, 'Resume Session · next: F001');
    const drafts = r.patches.filter((p) => p.type === 'draft');
    assert.deepEqual(drafts, [{ type: 'draft', text: '', reason: 'Rewound to before "Resume Session · next: F001". Its routine is not put back here: run it again when you want to.' }]);
  });

  it('files only: the files go back, the conversation stays unfolded and the composer untouched; Claude is told the conversation goes on', async () => {
    const r = rig();
    const id = await sent(r, 'refactor a.ts');
    r.transcript.notice('a later row');
    const done = await r.rewinds.rewind(id, { files: true, conversation: false });
    assert.equal(done.ok, true);
    assert.deepEqual(r.checkpoints.rewound, [1]);
    const entries = r.transcript.snapshot().entries;
    assert.ok(entries.every((e) => e.rewound === undefined), 'nothing folded');
    const user = entries.find((e) => e.id === id);
    assert.equal(user?.kind === 'user' && user.rewoundHere, 'Files rewound to before this message: 1 file and 1 memory file changed back.');
    assert.deepEqual(user?.kind === 'user' && user.rewindUndo, { backup: 99 });
    assert.deepEqual(r.patches.filter((p) => p.type === 'draft'), []);
    assert.match(r.rewinds.takeNote() ?? '', /the conversation goes on from here/);
  });

  it('conversation only: no file changes; the rows fold, the message comes back; Claude is told files and memory were NOT changed back', async () => {
    const r = rig();
    const id = await sent(r, 'refactor a.ts');
    r.transcript.notice('a later row');
    const done = await r.rewinds.rewind(id, { files: false, conversation: true });
    assert.equal(done.ok, true);
    assert.deepEqual(r.checkpoints.rewound, [], 'no files rewound');
    assert.deepEqual(r.state.summary.filter((s) => s.startsWith('rewound')), []);
    const user = r.transcript.snapshot().entries.find((e) => e.id === id);
    assert.equal(user?.kind === 'user' && user.rewoundHere, 'Conversation rewound to before this message; files and memory stay as they are.');
    assert.deepEqual(user?.kind === 'user' && user.rewindUndo, { conversation: true });
    assert.ok(r.transcript.snapshot().entries.slice(-1)[0].rewound, 'the rows after it fold');
    assert.match(r.rewinds.takeNote() ?? '', /rewound the conversation to before their message "refactor a\.ts".*Files and memory were NOT changed back/);
  });

  it('the branch is moved only when asked, with the commit the preview showed; the rewound line names the commit', async () => {
    const r = rig();
    const git = { branch: 'main', direction: 'back' as const, commits: [{ id: 'e8da554', subject: 'Add remove()' }], total: 1, movable: true, ref: 'refs/heads/main', from: 'b'.repeat(40), to: 'a'.repeat(40) };
    const base = r.checkpoints.rewind.bind(r.checkpoints);
    r.checkpoints.rewind = (async (id: number, opts: unknown) => ({ ...(await base(id, opts as never)), git, branchMoved: true })) as typeof r.checkpoints.rewind;
    const id = await sent(r, 'add remove()');
    await r.rewinds.rewind(id, { files: true, conversation: true, moveBranch: { from: git.from } });
    assert.deepEqual(r.checkpoints.rewindOptions, [{ moveBranch: { from: git.from } }]);
    const user = r.transcript.snapshot().entries.find((e) => e.id === id);
    assert.equal(user?.kind === 'user' && user.rewoundHere, 'Rewound to before this message: 1 file and 1 memory file changed back. Branch main moved back: 1 commit left it (kept in the reflog): e8da554 Add remove().');
    assert.deepEqual(user?.kind === 'user' && user.rewindUndo, { backup: 99, branch: true, conversation: true });
    assert.match(r.rewinds.takeNote() ?? '', /The branch main was moved back to the commit it was on then: the 1 commit made since \(e8da554 Add remove\(\)\) are off the branch/);
  });

  it('Undo Rewind: back to the backup checkpoint (with the branch when it moved), the rows unfold, Claude is told nothing; gone once a message is sent', async () => {
    const r = rig();
    const id = await sent(r, 'refactor a.ts');
    r.transcript.notice('a later row');
    await r.rewinds.rewind(id);
    const undone = await r.rewinds.undoRewind(id);
    assert.equal(undone.ok, true);
    assert.deepEqual(r.checkpoints.rewound, [1, 99], 'the files go back to the state just before the rewind');
    assert.deepEqual(r.checkpoints.rewindOptions[1], {});
    const entries = r.transcript.snapshot().entries;
    assert.ok(entries.every((e) => e.rewound === undefined), 'every row shows again');
    const user = entries.find((e) => e.id === id);
    assert.equal(user?.kind === 'user' && (user.rewoundHere ?? user.rewindUndo), undefined);
    assert.equal(r.rewinds.takeNote(), undefined, 'Claude never heard of the rewind');
    assert.equal(r.state.summary.at(-1), 'restore summary-state', 'the change summary is back as it was before the rewind');
    // Rewind again, send: the Undo goes.
    await r.rewinds.rewind(id);
    assert.match(r.rewinds.takeNote() ?? '', /rewound the workspace/);
    const after = r.transcript.snapshot().entries.find((e) => e.id === id);
    assert.equal(after?.kind === 'user' && after.rewindUndo, undefined);
    assert.deepEqual(await r.rewinds.undoRewind(id), { ok: false, reason: 'This rewind cannot be undone any more (a message was sent after it).' });
  });

  it('Undo Rewind puts back what the rewind set aside: an edit undone on its card before it is still told to Claude', async () => {
    const r = rig();
    const id = await sent(r, 'make a file');
    const card = createdFileCard(r);
    assert.deepEqual(await r.rewinds.undoEdit(card), { ok: true });
    await r.rewinds.rewind(id);
    assert.equal((await r.rewinds.undoRewind(id)).ok, true);
    assert.match(r.rewinds.takeNote() ?? '', /- src\/new\.ts: the file you created was removed\./);
  });

  it('refuses while Claude answers, and for a message without a checkpoint', async () => {
    const r = rig();
    const id = await sent(r, 'q');
    r.state.answering = true;
    assert.deepEqual(await r.rewinds.rewind(id), { ok: false, reason: 'Stop the running answer first: Claude may still be changing files.' });
    assert.deepEqual(await r.rewinds.previewRewind('nope'), { ok: false, reason: 'This message has no checkpoint to rewind to.' });
    assert.deepEqual(r.checkpoints.rewound, []);
  });

  it('an undone edit is marked on its card and told to Claude with the next message; a failed undo is not', async () => {
    const r = rig();
    const card = createdFileCard(r);
    r.edits.undoResult = { ok: false, reason: 'src/new.ts changed since.' };
    assert.deepEqual(await r.rewinds.undoEdit(card), { ok: false, reason: 'src/new.ts changed since.' });
    assert.equal(r.rewinds.takeNote(), undefined);
    assert.deepEqual(r.state.summary, [], 'a failed undo changes nothing to summarise');
    r.edits.undoResult = { ok: true };
    assert.deepEqual(await r.rewinds.undoEdit(card), { ok: true });
    assert.deepEqual(r.state.summary, ['refresh'], 'the change summary reads the undone file again');
    const entry = r.transcript.snapshot().entries.find((e) => e.id === card);
    assert.equal(entry?.kind === 'tool' && entry.edit?.undone, true);
    assert.match(r.rewinds.takeNote() ?? '', /- src\/new\.ts: the file you created was removed\./);
    assert.equal(r.rewinds.takeNote(), undefined);
  });

  it('the next message tells Claude of the undone edits and, after them, of the rows undone in the change summary, once', async () => {
    const r = rig();
    const card = createdFileCard(r);
    assert.deepEqual(await r.rewinds.undoEdit(card), { ok: true });
    r.state.summaryNote = 'The user undid these changes in the change summary:\n- src/b.ts: changed back';
    const note = r.rewinds.takeNote() ?? '';
    assert.match(note, /- src\/new\.ts: the file you created was removed\.\]\n\nThe user undid these changes in the change summary:\n- src\/b\.ts: changed back$/);
    assert.equal(r.rewinds.takeNote(), undefined, 'told once');
    r.state.summaryNote = 'only the summary';
    assert.equal(r.rewinds.takeNote(), 'only the summary');
  });

  it('a new conversation forgets the undone edits', async () => {
    const r = rig();
    r.transcript.begin('edit', 'claude-test-model');
    r.transcript.apply({ type: 'tool_end', id: 'e', tool: 'str_replace_based_edit_tool', command: 'str_replace', path: 'a.ts', is_error: false, summary: 'edited', detail: { kind: 'edit', path: 'a.ts', before: 'a', after: 'b' } });
    const card = r.transcript.entryIdOf('e')!;
    r.edits.record(card, { folder: r.port.folders[0], path: 'a.ts', before: 'a', after: 'b' });
    await r.rewinds.undoEdit(card);
    r.rewinds.forgetUndoneEdits();
    assert.equal(r.rewinds.takeNote(), undefined);
  });
});
