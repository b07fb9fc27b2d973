import * as assert from 'node:assert/strict';
import type { BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { ChatApprover } from '../../../src/features/chat/chatApprover';
import { ChatAgents } from '../../../src/features/chat/chatAgents';
import { fakeFolder, fakePort, fakeStore, type FakePort } from './fakeChatPort';

const earlier: BetaMessageParam[] = [
  { role: 'user', content: 'What is in progress.md?' },
  { role: 'assistant', content: 'Two features are done.' },
];

function rig(port: FakePort = fakePort({ tools: true })): { agents: ChatAgents; port: FakePort; notices: string[]; approver: ChatApprover } {
  const notices: string[] = [];
  const approver = new ChatApprover({ asked: () => undefined, answered: () => undefined });
  const agents = new ChatAgents(port, approver, { author: () => ({ name: 'chat', session: 'chat-1', turn: 1, title: 't' }), notice: (text) => void notices.push(text) });
  return { agents, port, notices, approver };
}

describe('chat agents: the session and tool factory', () => {
  it('keeps one session while the key, settings and folder stay; the store\'s memory is called by the chat\'s author', async () => {
    const { agents, port } = rig();
    const store = port.store(undefined)! as ReturnType<typeof fakeStore>;
    const first = await agents.agentFor(store);
    assert.equal(await agents.agentFor(store), first, 'the same session');
    assert.equal(agents.folder, store.folder.uri.toString());
    assert.equal(port.toolSets.length, 1, 'one tool set (one shell) for the chat');
    assert.deepEqual(store.authors[0](), { name: 'chat', session: 'chat-1', turn: 1, title: 't' });
  });

  it('a new key or setting makes a new session that continues the conversation, and says so', async () => {
    const { agents, port, notices } = rig();
    const store = port.store(undefined)!;
    agents.restore(earlier);
    const first = await agents.agentFor(store);
    assert.deepEqual(first.conversation, earlier, 'a reopened chat\'s history is the first session\'s');
    port.currentSettings = { ...port.currentSettings, model: 'claude-other-model' };
    const second = await agents.agentFor(store);
    assert.notEqual(second, first);
    assert.deepEqual(second.conversation, earlier);
    assert.deepEqual(notices, ['The API key or settings changed: the conversation continues with them.']);
    port.key = 'missing';
    assert.notEqual(await agents.agentFor(store), second, 'the key is part of what makes a session');
  });

  it('another folder starts afresh with a notice, and gets its own tools; leaving the folder ends the conversation', async () => {
    const a = fakeFolder('a');
    const b = fakeFolder('b', 1);
    const { agents, port, notices } = rig(fakePort({ folders: [a, b], tools: true }));
    agents.restore(earlier);
    await agents.agentFor(port.store(a.uri)!);
    const other = await agents.agentFor(port.store(b.uri)!);
    assert.deepEqual(other.conversation, [], 'Claude starts without the other folder\'s conversation');
    assert.deepEqual(notices, ['The chat now works in the memory of "b": Claude starts this message without the earlier conversation.']);
    assert.deepEqual(port.toolSets.map((t) => [t.folder, t.disposed]), [['a', true], ['b', false]], 'a fresh shell for the new folder');

    // Back in a: the conversation of b ended when the chat left it.
    agents.restore(earlier);
    const againA = await agents.agentFor(port.store(a.uri)!);
    agents.leaveFolder();
    port.currentSettings = { ...port.currentSettings, maxTokens: 123 };
    const afterLeave = await agents.agentFor(port.store(a.uri)!);
    assert.notEqual(afterLeave, againA);
    assert.deepEqual(afterLeave.conversation, [], 'a left conversation is not continued');
  });

  it('forget() resets the session, drops a restored history and disposes the shell', async () => {
    const { agents, port } = rig();
    const store = port.store(undefined)!;
    agents.restore(earlier);
    assert.deepEqual(agents.conversation, earlier, 'what a save writes before the first message');
    const first = await agents.agentFor(store);
    agents.forget();
    assert.deepEqual(first.conversation, [], 'the old session was reset');
    assert.deepEqual(agents.conversation, []);
    assert.equal(agents.folder, undefined);
    assert.equal(port.toolSets[0].disposed, true);
    const next = await agents.agentFor(store);
    assert.notEqual(next, first);
    assert.equal(port.toolSets.length, 2, 'the next message gets a new shell');
  });

  it('"Allow sandboxed commands" reaches the current tools', async () => {
    const { agents, port } = rig();
    agents.allowSandboxedCommands();
    await agents.agentFor(port.store(undefined)!);
    agents.allowSandboxedCommands();
    assert.equal(port.toolSets[0].sandboxedAllowed, true);
  });

  it('without workspace tools the session has only memory', async () => {
    const { agents, port } = rig(fakePort());
    await agents.agentFor(port.store(undefined)!);
    assert.equal(port.toolSets.length, 0);
    agents.disposeTools();
  });
});
