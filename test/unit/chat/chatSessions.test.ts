import * as assert from 'node:assert/strict';
import type { BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { ChatApprover } from '../../../src/features/chat/chatApprover';
import { ChatSessions } from '../../../src/features/chat/chatSessions';
import { fakeFolder, fakePort, fakeStore, type FakePort } from './fakeChatPort';

const earlier: BetaMessageParam[] = [
  { role: 'user', content: 'What is in progress.md?' },
  { role: 'assistant', content: 'Two features are done.' },
];

function rig(port: FakePort = fakePort({ tools: true })): { sessions: ChatSessions; port: FakePort; notices: string[]; approver: ChatApprover } {
  const notices: string[] = [];
  const approver = new ChatApprover({ asked: () => undefined, answered: () => undefined });
  const sessions = new ChatSessions(port, approver, { author: () => ({ name: 'chat', session: 'chat-1', turn: 1, title: 't' }), notice: (text) => void notices.push(text) });
  return { sessions, port, notices, approver };
}

describe('chat sessions: the session and tool factory', () => {
  it('keeps one session while the key, settings and folder stay; the store\'s memory is called by the chat\'s author', async () => {
    const { sessions, port } = rig();
    const store = port.store(undefined)! as ReturnType<typeof fakeStore>;
    const first = await sessions.sessionFor(store);
    assert.equal(await sessions.sessionFor(store), first, 'the same session');
    assert.equal(sessions.folder, store.folder.uri.toString());
    assert.equal(port.toolSets.length, 1, 'one tool set (one shell) for the chat');
    assert.deepEqual(store.authors[0](), { name: 'chat', session: 'chat-1', turn: 1, title: 't' });
  });

  it('a new key or setting makes a new session that continues the conversation, and says so', async () => {
    const { sessions, port, notices } = rig();
    const store = port.store(undefined)!;
    sessions.restore(earlier);
    const first = await sessions.sessionFor(store);
    assert.deepEqual(first.history, earlier, 'a reopened chat\'s history is the first session\'s');
    port.currentSettings = { ...port.currentSettings, model: 'claude-other-model' };
    const second = await sessions.sessionFor(store);
    assert.notEqual(second, first);
    assert.deepEqual(second.history, earlier);
    assert.deepEqual(notices, ['The API key or settings changed: the conversation continues with them.']);
    port.key = 'missing';
    assert.notEqual(await sessions.sessionFor(store), second, 'the key is part of what makes a session');
  });

  it('another folder starts afresh with a notice, and gets its own tools; leaving the folder ends the conversation', async () => {
    const a = fakeFolder('a');
    const b = fakeFolder('b', 1);
    const { sessions, port, notices } = rig(fakePort({ folders: [a, b], tools: true }));
    sessions.restore(earlier);
    await sessions.sessionFor(port.store(a.uri)!);
    const other = await sessions.sessionFor(port.store(b.uri)!);
    assert.deepEqual(other.history, [], 'Claude starts without the other folder\'s conversation');
    assert.deepEqual(notices, ['The chat now works in the memory of "b": Claude starts this message without the earlier conversation.']);
    assert.deepEqual(port.toolSets.map((t) => [t.folder, t.disposed]), [['a', true], ['b', false]], 'a fresh shell for the new folder');

    // Back in a: the conversation of b ended when the chat left it.
    sessions.restore(earlier);
    const againA = await sessions.sessionFor(port.store(a.uri)!);
    sessions.leaveFolder();
    port.currentSettings = { ...port.currentSettings, maxTokens: 123 };
    const afterLeave = await sessions.sessionFor(port.store(a.uri)!);
    assert.notEqual(afterLeave, againA);
    assert.deepEqual(afterLeave.history, [], 'a left conversation is not continued');
  });

  it('forget() resets the session, drops a restored history and disposes the shell', async () => {
    const { sessions, port } = rig();
    const store = port.store(undefined)!;
    sessions.restore(earlier);
    assert.deepEqual(sessions.history, earlier, 'what a save writes before the first message');
    const first = await sessions.sessionFor(store);
    sessions.forget();
    assert.deepEqual(first.history, [], 'the old session was reset');
    assert.deepEqual(sessions.history, []);
    assert.equal(sessions.folder, undefined);
    assert.equal(port.toolSets[0].disposed, true);
    const next = await sessions.sessionFor(store);
    assert.notEqual(next, first);
    assert.equal(port.toolSets.length, 2, 'the next message gets a new shell');
  });

  it('"Allow sandboxed commands" reaches the current tools', async () => {
    const { sessions, port } = rig();
    sessions.allowSandboxedCommands();
    await sessions.sessionFor(port.store(undefined)!);
    sessions.allowSandboxedCommands();
    assert.equal(port.toolSets[0].sandboxedAllowed, true);
  });

  it('without workspace tools the session has only memory', async () => {
    const { sessions, port } = rig(fakePort());
    await sessions.sessionFor(port.store(undefined)!);
    assert.equal(port.toolSets.length, 0);
    sessions.disposeTools();
  });
});
