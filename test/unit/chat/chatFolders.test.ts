import * as assert from 'node:assert/strict';
import { SESSION_FILES } from '../../../src/core/session/memoryFiles';
import { ChatFolders } from '../../../src/features/chat/chatFolders';
import { ChatTranscript, type ChatPatch } from '../../../src/features/chat/chatTranscript';
import { fakeFolder, fakePort, fakeStore, type FakePort } from './fakeChatPort';

const a = fakeFolder('a');
const b = fakeFolder('b', 1);
const pendingFeature = JSON.stringify([{ id: 'f1', category: 'auth', description: 'login', steps: ['log in'], passes: false }]);

function rig(port: FakePort = fakePort({ folders: [a, b] })) {
  const transcript = new ChatTranscript();
  const patches: ChatPatch[] = [];
  const state = { running: false, left: 0, changes: 0 };
  const folders = new ChatFolders(port, {
    transcript,
    emit: (p) => void patches.push(...p),
    isRunning: () => state.running,
    leftFolder: () => void (state.left += 1),
  });
  folders.onDidChangeFolder(() => void (state.changes += 1));
  return { folders, transcript, patches, state, port };
}

describe('chat folders: which memory the chat works in', () => {
  it('works in the first folder until another is chosen; choosing one leaves the conversation and says so', async () => {
    const r = rig();
    assert.equal(r.folders.currentStore()?.folder, a);
    assert.deepEqual(r.folders.useFolder(a.uri), { ok: true, changed: false });
    assert.deepEqual(r.folders.useFolder(b.uri), { ok: true, changed: true });
    assert.equal(r.folders.currentStore()?.folder, b);
    assert.equal(r.state.left, 1, 'the session is not continued and a retry is dropped');
    assert.equal(r.state.changes, 1);
    assert.ok(r.port.logs.includes('info: the chat now works in folder "b"'));
  });

  it('refuses a folder outside the workspace, and any switch while Claude answers', () => {
    const r = rig();
    const outside = fakeFolder('elsewhere');
    const refused = r.folders.useFolder(outside.uri);
    assert.equal(refused.ok, false);
    r.state.running = true;
    assert.deepEqual(r.folders.useFolder(b.uri), { ok: false, reason: 'Claude is still answering: stop the answer or wait for it, then choose another folder.' });
    assert.equal(r.folders.currentStore()?.folder, a);
    assert.equal(r.state.left, 0);
  });

  it('falls back to the first folder when the chosen one is closed, and says the folder changed', () => {
    const r = rig();
    r.folders.useFolder(b.uri);
    r.port.folders = [a];
    r.folders.refreshAvailability();
    assert.equal(r.folders.currentStore()?.folder, a);
    assert.equal(r.state.changes, 2);
  });

  it('a reopened chat about an open folder switches to it; one about a closed folder does not', () => {
    const r = rig();
    r.folders.follow('file:///ws/b');
    assert.equal(r.folders.currentStore()?.folder, b);
    r.folders.follow('file:///ws/gone');
    r.folders.follow('');
    assert.equal(r.folders.currentStore()?.folder, b);
    assert.equal(r.state.changes, 1);
  });

  it('is disabled in Restricted Mode and without a folder, with the way out', () => {
    const r = rig();
    assert.equal(r.folders.disabled(), undefined);
    r.port.trusted = false;
    r.folders.refreshAvailability();
    assert.equal(r.transcript.snapshot().status.disabledAction, 'manageTrust');
    assert.match(r.transcript.snapshot().status.disabledReason ?? '', /Restricted Mode/);
    r.port.trusted = true;
    r.port.folders = [];
    assert.deepEqual(r.folders.disabled(), { reason: "Open a folder to chat: Claude keeps its memory in the folder's .claude-memories/ directory.", action: 'openFolder' });
  });

  it('the starter offers Resume only while the folder\'s checklist has a feature left', async () => {
    const files = new Map<string, string>();
    const port = fakePort({ folders: [a], stores: [fakeStore(a, files)] });
    const r = rig(port);
    await r.folders.refreshStarter();
    assert.deepEqual(r.transcript.snapshot().status.starter, { folder: 'a', model: port.currentSettings.model, canResume: false });
    files.set(SESSION_FILES.features, pendingFeature);
    await r.folders.refreshStarter();
    assert.equal(r.transcript.snapshot().status.starter?.canResume, true);
    port.folders = [];
    await r.folders.refreshStarter();
    assert.equal(r.transcript.snapshot().status.starter, undefined);
  });

  it('a tool card opens in the folder its call ran in, not the current one', () => {
    const r = rig();
    const t = new ChatTranscript();
    t.begin('q', 'm');
    const patches = t.apply({ type: 'tool_start', id: 'toolu_1', command: 'view', path: '/memories/progress.md' });
    r.folders.toolFolders.record(patches, a);
    r.folders.useFolder(b.uri);
    const found = r.folders.storeForEntry(t.entryIdOf('toolu_1')!);
    assert.equal(found.ok && found.store.folder, a);
    const unknown = r.folders.storeForEntry('nope');
    assert.equal(unknown.ok && unknown.store.folder, b, 'an unknown card falls back to the current folder');
  });
});
