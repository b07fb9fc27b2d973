/**
 * ChatController with its parts wired together, against the fake port and the scripted Messages
 * API (a real AgentLoop): what the parts' own tests cannot see is that they are wired right.
 */
import * as assert from 'node:assert/strict';
import { ChatController } from '../../../src/features/chat/chatController';
import { startMockMessagesApi, type MockMessagesApi, type MockTurn } from '../../support/mockMessagesApi';
import { chatArchive, memoryBlobs, fakePort, type FakePort } from './fakeChatPort';

const say = (text: string): MockTurn => ({ content: [{ type: 'text', text }] });

describe('chat controller: the parts wired together', () => {
  let server: MockMessagesApi;
  const controllers: ChatController[] = [];

  beforeEach(async () => {
    server = await startMockMessagesApi([]);
  });
  afterEach(async () => {
    for (const c of controllers.splice(0)) c.dispose();
    await server.close();
  });

  function controller(port: FakePort = fakePort({ settings: { apiBaseUrl: server.url } })): ChatController {
    port.currentSettings = { ...port.currentSettings, apiBaseUrl: server.url };
    const c = new ChatController(port);
    controllers.push(c);
    return c;
  }

  const kinds = (c: ChatController) => c.snapshot().entries.map((e) => e.kind);
  const texts = (c: ChatController) => c.snapshot().entries.flatMap((e) => (e.kind === 'user' ? [e.text] : e.kind === 'assistant' ? [e.markdown] : []));

  it('sends, streams the answer and saves the chat to Chat History', async () => {
    const c = controller();
    await c.restored;
    server.script([say('Two features are done.')]);
    const result = await c.send('What is in progress.md?');
    assert.equal(result.started && result.outcome.ok, true);
    assert.deepEqual(texts(c), ['What is in progress.md?', 'Two features are done.']);
    const chats = await c.listChats();
    assert.deepEqual(chats.map((x) => [x.id, x.title]), [[c.chatId, 'What is in progress.md?']]);
    assert.equal(c.isRunning, false);
  });

  it('a rejected request keeps the question with Retry; Retry sends it again and the answer follows it', async () => {
    const c = controller();
    server.script([{ ...say('Here you go.'), faults: [{ type: 'status', status: 401, message: 'invalid x-api-key' }] }]);
    const failed = await c.send('hello');
    assert.equal(failed.started && failed.outcome.error?.kind, 'auth');
    assert.equal(c.canRetry, true);
    const error = c.snapshot().entries.find((e) => e.kind === 'error');
    assert.ok(error?.kind === 'error' && error.actions.includes('retry'), 'the error offers Retry');
    const retried = await c.retry();
    assert.equal(retried.started && retried.outcome.ok, true);
    assert.deepEqual(texts(c), ['hello', 'Here you go.'], 'the question is on screen once');
    assert.equal(c.canRetry, false);
    const last = server.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
    assert.equal(last.length, 1, 'the prompt is not sent twice');
    // Answered: no "Sending your message again…" left, and the old error offers no button any more.
    const entries = c.snapshot().entries;
    assert.equal(entries.some((e) => e.kind === 'notice' && /again/.test(e.text)), false, JSON.stringify(entries));
    const stale = entries.find((e) => e.kind === 'error');
    assert.deepEqual(stale?.kind === 'error' && stale.actions, []);
  });

  it('New Chat drops what belonged to the old conversation: its Retry', async () => {
    const c = controller();
    server.script([{ ...say('unused'), faults: [{ type: 'status', status: 401, message: 'invalid x-api-key' }] }]);
    await c.send('hello');
    assert.equal(c.canRetry, true);
    await c.newChat();
    assert.equal(c.canRetry, false);
    assert.deepEqual(await c.retry(), { started: false, reason: 'There is nothing to retry.' });
  });

  it('New Chat keeps the conversation in Chat History; reopening it lets Claude continue it', async () => {
    const c = controller();
    server.script([say('First answer.'), say('Second answer.')]);
    await c.send('first question');
    const first = c.chatId;
    await c.newChat();
    assert.deepEqual(kinds(c), []);
    assert.equal(c.chatId, undefined);
    assert.equal(c.snapshot().status.hasPrevious, true);
    assert.equal(await c.reopenPrevious(), true);
    assert.equal(c.chatId, first);
    assert.deepEqual(texts(c), ['first question', 'First answer.']);
    await c.send('second question');
    const messages = server.requests.at(-1)!.body.messages as unknown[];
    assert.equal(messages.length, 3, 'Claude gets the earlier exchange and the new question');
  });

  it('a reload (a new controller on the same storage) restores the last chat; deleting it leaves an empty chat', async () => {
    const blobs = memoryBlobs();
    const port = fakePort({ archive: chatArchive(blobs) });
    const before = controller(port);
    server.script([say('Kept.')]);
    await before.send('remember this');
    await before.flush();
    before.dispose();

    const after = controller(fakePort({ archive: chatArchive(blobs) }));
    await after.restored;
    assert.equal(after.chatId, before.chatId);
    assert.deepEqual(texts(after), ['remember this', 'Kept.']);
    assert.equal(await after.deleteChat(after.chatId!), true);
    assert.deepEqual(kinds(after), []);
    assert.deepEqual(await after.listChats(), []);
  });

  it('a message sent while an answer runs is queued behind it and answered after it', async () => {
    const c = controller();
    server.script([say('Slow answer.'), say('Next answer.')]);
    const a = c.send('first');
    const b = c.send('second');
    assert.deepEqual(c.snapshot().status.queued?.map((q) => q.text), ['second']);
    await Promise.all([a, b]);
    assert.deepEqual(texts(c), ['first', 'Slow answer.', 'second', 'Next answer.']);
  });

  it('the running context and the progress follow the send; the edits ledger is disposed with the controller', async () => {
    const port = fakePort();
    const c = controller(port);
    server.script([say('ok')]);
    await c.send('q');
    assert.deepEqual(port.runningContext, [true, false]);
    assert.equal(port.progress.started, port.progress.ended);
    assert.ok(port.progress.started >= 1);
    c.dispose();
    assert.equal(port.edits[0].disposed, true, 'the edits ledger goes with the controller');
  });
});
