import * as assert from 'node:assert/strict';
import type { BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { STATE_KEYS } from '../../../src/platform/ids';
import { ChatPersistence, MAX_SAVED_CONVERSATION_CHARS } from '../../../src/features/chat/chatPersistence';
import { ChatTranscript, type ChatPatch } from '../../../src/features/chat/chatTranscript';
import { chatArchive, fakeFolder, fakeMemento, fakePort, memoryBlobs, type FakePort } from './fakeChatPort';
import type { SummaryState } from '../../../src/features/chat/shared/changeSummary';

const history: BetaMessageParam[] = [
  { role: 'user', content: 'hello' },
  { role: 'assistant', content: 'Hi.' },
];

function rig(port: FakePort = fakePort()) {
  const transcript = new ChatTranscript();
  const patches: ChatPatch[] = [];
  const state = { running: false, history: history as readonly BetaMessageParam[], folder: undefined as string | undefined, summary: undefined as SummaryState | undefined };
  const persistence = new ChatPersistence(port, {
    transcript,
    emit: (p) => void patches.push(...p),
    isRunning: () => state.running,
    conversation: () => state.history,
    conversationFolder: () => state.folder,
    summaryState: () => state.summary,
  });
  return { persistence, transcript, patches, state, port };
}

/** Shows one exchange, as a send does. */
function answered(transcript: ChatTranscript, question: string): void {
  transcript.begin(question, 'claude-test-model');
  transcript.apply({ type: 'text', text: 'Hi.' });
  transcript.apply({ type: 'done', stop_reason: 'end_turn' });
  transcript.end();
}

describe('chat persistence (Chat History saves)', () => {
  it('an empty new chat is not saved; its first message titles it and it is saved as the current chat', async () => {
    const r = rig();
    await r.persistence.saveNow();
    assert.deepEqual(await r.port.archive.list(), [], 'nothing to save yet');
    assert.deepEqual(r.persistence.author(), { name: 'chat' });
    const store = r.port.store(undefined)!;
    r.persistence.countTurn(store, 'hello there');
    answered(r.transcript, 'hello there');
    await r.persistence.saveNow();
    const id = r.persistence.chatId!;
    assert.equal(await r.port.archive.current(), id);
    const saved = await r.port.archive.load(id);
    assert.equal(saved?.title, 'hello there');
    assert.equal(saved?.turns, 1);
    assert.equal(saved?.folder, store.folder.uri.toString());
    assert.equal(saved?.folderName, 'a');
    assert.deepEqual(saved?.history, history);
    assert.deepEqual(saved?.transcript.entries.map((e) => e.kind), r.transcript.saved().entries.map((e) => e.kind));
    assert.equal(saved?.running, undefined);
    assert.equal(saved?.transcript.changes, undefined, 'no change summary yet');
    r.state.summary = { base: { folder: store.folder.uri.toString(), checkpoint: 3, entryId: 'e1', message: 'hello there' }, decisions: [{ kind: 'file', path: 'src/a.ts', decision: 'kept', stamp: 's1' }] };
    await r.persistence.saveNow();
    assert.deepEqual((await r.port.archive.load(id))?.transcript.changes, r.state.summary, 'the change summary is saved with the chat');
    r.persistence.countTurn(store, 'second');
    assert.deepEqual(r.persistence.author(), { name: 'chat', session: id, turn: 2, title: 'hello there' }, 'the same chat, its second message');
  });

  it('a save during an answer is marked running (a reload shows it stopped); the session\'s folder wins', async () => {
    const r = rig(fakePort({ folders: [fakeFolder('a'), fakeFolder('b', 1)] }));
    r.persistence.countTurn(r.port.store(undefined)!, 'q');
    r.transcript.begin('q', 'claude-test-model');
    r.transcript.apply({ type: 'text', text: 'partial' });
    r.state.folder = 'file:///ws/b';
    await r.persistence.saveNow();
    const saved = await r.port.archive.load(r.persistence.chatId!);
    assert.equal(saved?.running, true);
    assert.equal(saved?.folder, 'file:///ws/b');
    assert.equal(saved?.folderName, 'b');
  });

  it('keeps the latest part of a long history that fits the cap', async () => {
    const r = rig();
    const long = 'x'.repeat(MAX_SAVED_CONVERSATION_CHARS / 2);
    r.state.history = [
      { role: 'user', content: `old ${long}` },
      { role: 'assistant', content: `old answer ${long}` },
      { role: 'user', content: 'new' },
      { role: 'assistant', content: 'new answer' },
    ];
    r.persistence.countTurn(r.port.store(undefined)!, 'q');
    answered(r.transcript, 'q');
    await r.persistence.saveNow();
    const saved = await r.port.archive.load(r.persistence.chatId!);
    assert.ok(saved && saved.history.length < 4, 'the oldest messages were left out');
    assert.deepEqual(saved?.history.at(-1), { role: 'assistant', content: 'new answer' });
  });

  it('scheduleSave saves at once when idle; after dispose nothing is written', async () => {
    const blobs = memoryBlobs();
    const r = rig(fakePort({ archive: chatArchive(blobs) }));
    r.persistence.scheduleSave();
    assert.equal(blobs.written.length, 0, 'no chat yet: nothing scheduled');
    r.persistence.countTurn(r.port.store(undefined)!, 'q');
    answered(r.transcript, 'q');
    const written = new Promise<void>((resolve) => (blobs.onWrite = resolve));
    r.persistence.scheduleSave();
    await written;
    assert.ok(blobs.written.length > 0);
    r.persistence.dispose();
    const before = blobs.written.length;
    await r.persistence.saveNow();
    assert.equal(blobs.written.length, before);
  });

  it('a failed write is logged and the chat goes on', async () => {
    const blobs = memoryBlobs();
    const r = rig(fakePort({ archive: chatArchive(blobs) }));
    r.persistence.countTurn(r.port.store(undefined)!, 'q');
    answered(r.transcript, 'q');
    blobs.failWrites = true;
    await r.persistence.saveNow();
    assert.ok(r.port.logs.some((l) => l.startsWith('error: could not save the chat: ')), r.port.logs.join('\n'));
  });

  it('loadLast brings back the current chat; adopt makes it the one saved; hasPrevious counts the others', async () => {
    const r = rig();
    r.persistence.countTurn(r.port.store(undefined)!, 'first chat');
    answered(r.transcript, 'first chat');
    await r.persistence.saveNow();
    const id = r.persistence.chatId!;
    const reloaded = rig(fakePort({ archive: r.port.archive }));
    const stored = await reloaded.persistence.loadLast();
    assert.equal(stored?.id, id);
    reloaded.persistence.adopt(stored!);
    assert.equal(reloaded.persistence.chatId, id);
    await reloaded.persistence.refreshHasPrevious();
    assert.equal(reloaded.transcript.snapshot().status.hasPrevious ?? false, false, 'no other chat');
    reloaded.persistence.forget();
    assert.equal(reloaded.persistence.chatId, undefined);
    await reloaded.persistence.refreshHasPrevious();
    assert.equal(reloaded.transcript.snapshot().status.hasPrevious, true, 'the restored chat is another one now');
  });

  it('migrates the conversation New Chat set aside in the workspace state into Chat History, once', async () => {
    const old = new ChatTranscript();
    answered(old, 'an old question');
    const state = fakeMemento({ [STATE_KEYS.previousChat]: { ...old.saved(), folder: 'file:///ws/a', history } });
    const r = rig(fakePort({ state }));
    assert.equal(await r.persistence.loadLast(), undefined, 'the legacy chat is not the current one');
    const chats = await r.port.archive.list();
    assert.equal(chats.length, 1);
    assert.equal(chats[0].title, 'an old question');
    assert.equal(chats[0].folderName, 'a');
    const migrated = await r.port.archive.load(chats[0].id);
    assert.deepEqual(migrated?.history, history);
    assert.equal(migrated?.turns, 1);
    assert.equal(state.values.has(STATE_KEYS.previousChat), false, 'the old key is cleared');
    await r.persistence.loadLast();
    assert.equal((await r.port.archive.list()).length, 1, 'not migrated twice');
  });

  it('an unreadable legacy conversation is dropped, not migrated', async () => {
    const state = fakeMemento({ [STATE_KEYS.previousChat]: { entries: 'not a transcript' } });
    const r = rig(fakePort({ state }));
    await r.persistence.loadLast();
    assert.deepEqual(await r.port.archive.list(), []);
    assert.equal(state.values.has(STATE_KEYS.previousChat), false);
  });
});
