// The chat inside the real extension host, against the scripted Messages API on loopback: a round
// trip that writes a memory file, Stop during a slow answer, and the missing/rejected-key errors.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ClaudeMemoryApi } from '../../src/extension';
import type { MockMessagesApi, MockStep } from '../support/mockMessagesApi';
import { activateExtension, FAKE_KEY, forgetApiBaseUrl, ofKind, serve as serveFor, setKeyWithCommand as setKeyFor, waitFor, waitForChat as waitForChatOf } from './chatSupport';
import type { ChatSnapshot } from '../../src/features/chat/shared/protocol';
import { channelLogText } from './treeHelpers';

let api: ClaudeMemoryApi;
let mock: MockMessagesApi | undefined;

const serve = async (script: MockStep[], options: { apiKey?: string } = {}) => (mock = await serveFor(api, script, options));
const setKeyWithCommand = (key: string) => setKeyFor(api, key);
const waitForChat = (predicate: (s: ChatSnapshot) => boolean, what: string) => waitForChatOf(api, predicate, what);

function memoryFileUri(name: string): vscode.Uri {
  const store = api.services.stores.primary();
  assert.ok(store, 'the workspace has a memory store');
  return vscode.Uri.joinPath(store.rootUri, name);
}

suite('chat', () => {
  suiteSetup(async () => {
    api = await activateExtension();
    // The environment fallback would hide the missing-key case; tests own the key.
    delete process.env.ANTHROPIC_API_KEY;
    await setKeyWithCommand(FAKE_KEY);
  });

  teardown(async () => {
    api.chat.stop();
    await api.chat.whenIdle();
    await api.chat.newChat();
    await mock?.close();
    mock = undefined;
  });

  suiteTeardown(forgetApiBaseUrl);

  test('Ask Claude sends to the chat view, writes the memory file and shows its card', async () => {
    const server = await serve([
      { content: [{ type: 'text', text: 'Let me check my memory.' }, { type: 'tool_use', input: { command: 'view', path: '/memories' } }] },
      {
        content: [
          { type: 'tool_use', input: { command: 'create', path: '/memories/chat-roundtrip.md', file_text: '# Facts\n- favourite colour: teal\n' } },
        ],
      },
      { content: [{ type: 'text', text: 'Noted: your favourite colour is **teal**.' }] },
    ]);
    const touched: string[] = [];
    const subscription = api.services.memoryActivity.onDidTouch((t) => touched.push(t.path));
    let result;
    try {
      result = (await vscode.commands.executeCommand('claudeMemory.ask', 'Remember that my favourite colour is teal.')) as
        | { started: boolean; outcome?: { ok: boolean; turns: number } }
        | undefined;
    } finally {
      subscription.dispose();
    }
    assert.ok(result?.started, 'the question was sent');
    assert.strictEqual(result.outcome?.ok, true);
    assert.strictEqual(result.outcome?.turns, 3);
    assert.strictEqual(server.requests.length, 3);
    // SDK 1.14 sends the key as a bearer token; older ones used x-api-key.
    const auth = server.requests[0].headers;
    assert.ok(auth.authorization === `Bearer ${FAKE_KEY}` || auth['x-api-key'] === FAKE_KEY, 'the stored key was used');

    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(memoryFileUri('chat-roundtrip.md')));
    assert.strictEqual(text, '# Facts\n- favourite colour: teal\n');

    const snapshot = api.chat.snapshot();
    assert.deepStrictEqual(ofKind(snapshot, 'user').map((e) => e.text), ['Remember that my favourite colour is teal.']);
    const cards = ofKind(snapshot, 'tool').map(({ command, path, status, summary }) => ({ command, path, status, summary }));
    assert.deepStrictEqual(cards, [
      { command: 'view', path: '/memories', status: 'ok', summary: cards[0].summary },
      { command: 'create', path: '/memories/chat-roundtrip.md', status: 'ok', summary: 'created /memories/chat-roundtrip.md' },
    ]);
    assert.match(cards[0].summary ?? '', /^viewed \/memories/);
    assert.deepStrictEqual(
      ofKind(snapshot, 'assistant').map((e) => [e.markdown, e.streaming]),
      [['Let me check my memory.', false], ['Noted: your favourite colour is **teal**.', false]],
    );
    // One usage line for the answer (its three model requests), and a session total that matches.
    const usages = ofKind(snapshot, 'usage');
    assert.strictEqual(usages.length, 1);
    assert.strictEqual(usages[0].requests, 3);
    assert.strictEqual(snapshot.entries.at(-1)?.kind, 'usage', 'the line closes the answer');
    assert.strictEqual(snapshot.status.requests, 3);
    assert.strictEqual(snapshot.status.totals.output_tokens, usages[0].usage.output_tokens);
    assert.strictEqual(snapshot.status.totals.input_tokens, server.requests.reduce((n, r) => n + (r.usage?.input_tokens ?? 0), 0));
    assert.strictEqual(snapshot.status.running, false);
    // The tree was told about each memory operation (it reveals the touched file).
    assert.deepStrictEqual(touched, ['/memories', '/memories/chat-roundtrip.md']);
    // Ask Claude revealed the chat: its webview was created and completed the handshake.
    await waitFor(() => api.chat.isWebviewReady(), 'the chat webview says ready');
  });

  test('Stop cancels a slow answer at once and keeps the conversation usable', async () => {
    const answer = 'This answer takes a very long time to finish writing…';
    const server = await serve([
      // The first request streams the start of the answer, then hangs; a faulted request does not
      // consume its turn, so the next request gets the whole answer.
      { content: [{ type: 'text', text: answer }], faults: [{ type: 'hang', afterEvents: 4 }] },
    ]);
    const pending = api.chat.send('Write something long.');
    await waitForChat((s) => ofKind(s, 'assistant').some((e) => e.markdown.length > 0), 'streamed text of the slow answer');
    assert.strictEqual(api.chat.snapshot().status.running, true);

    const stopped = performance.now();
    await vscode.commands.executeCommand('claudeMemory.chat.stop');
    const result = await pending;
    console.log(`    answer ended ${(performance.now() - stopped).toFixed(0)} ms after Stop`);

    assert.ok(result.started);
    assert.strictEqual(result.outcome.ok, false);
    assert.strictEqual(result.outcome.error?.kind, 'cancelled');
    const snapshot = api.chat.snapshot();
    assert.strictEqual(snapshot.status.running, false);
    const last = snapshot.entries.at(-1);
    assert.strictEqual(last?.kind, 'notice');
    assert.match(last.kind === 'notice' ? last.text : '', /^Stopped/);
    assert.ok(ofKind(snapshot, 'assistant').every((e) => !e.streaming), 'no entry is left streaming');
    assert.strictEqual(ofKind(snapshot, 'error').length, 0, 'a stop is not shown as an error');

    // The next message works (the cancelled request left no half-written history behind).
    const next = await api.chat.send('Are you there?');
    assert.ok(next.started && next.outcome.ok);
    assert.strictEqual(ofKind(api.chat.snapshot(), 'assistant').at(-1)?.markdown, answer);
    assert.strictEqual(server.served, 1);
    assert.strictEqual((server.requests[1].body.messages as unknown[]).length, 1, 'the stopped prompt is not in the history twice');
  });

  test('a message sent the moment an answer ends on screen (its save still running) is sent, not refused', async () => {
    const server = await serve([{ content: [{ type: 'text', text: 'First answer.' }] }, { content: [{ type: 'text', text: 'Second answer.' }] }]);
    const first = api.chat.send('first');
    // The webview enables Send as soon as the status says "not running": send right then, from
    // the very change that says so (the first send is still saving its chat).
    const second = await new Promise<ReturnType<typeof api.chat.send>>((resolve) => {
      const subscription = api.chat.onDidChange(() => {
        const s = api.chat.snapshot();
        if (s.status.running || !ofKind(s, 'assistant').some((e) => e.markdown === 'First answer.')) return;
        subscription.dispose();
        resolve(api.chat.send('second'));
      });
    });
    assert.ok((await first).started);
    const result = await second;
    assert.ok(result.started, `refused: ${result.started ? '' : result.reason}`);
    assert.strictEqual(result.outcome.ok, true);
    assert.strictEqual(ofKind(api.chat.snapshot(), 'assistant').at(-1)?.markdown, 'Second answer.');
    assert.strictEqual(server.served, 2);
  });

  test('without a key the message waits under the key prompt; setting the key sends it', async () => {
    const server = await serve([{ content: [{ type: 'text', text: 'Hello with a key.' }] }]);
    await api.services.apiKey.clear();
    try {
      await waitForChat((s) => s.status.key === 'missing', 'the chat knows there is no key');
      const result = await api.chat.send('Hello?');
      assert.strictEqual(result.started, false);
      assert.strictEqual(!result.started && result.pending, true);
      assert.strictEqual(server.requests.length, 0, 'nothing was sent without a key');
      const snapshot = api.chat.snapshot();
      assert.strictEqual(snapshot.status.pendingKey, true);
      assert.deepStrictEqual(snapshot.entries.map((e) => e.kind), ['user'], 'the message, and no error card');
    } finally {
      await setKeyWithCommand(FAKE_KEY);
    }
    // The key change sends the waiting message by itself.
    await waitForChat((s) => ofKind(s, 'assistant').at(-1)?.markdown === 'Hello with a key.' && !s.status.running, 'the waiting message answered');
    const snapshot = api.chat.snapshot();
    assert.deepStrictEqual(ofKind(snapshot, 'user').map((e) => e.text), ['Hello?'], 'not shown twice');
    assert.strictEqual(snapshot.status.key, 'stored');
    assert.strictEqual(snapshot.status.pendingKey, undefined);
    assert.strictEqual(server.requests.length, 1);
  });

  test('a rejected key shows the API\'s refusal with "Set API Key", and never the key', async () => {
    await serve([{ content: [{ type: 'text', text: 'unreachable' }] }], { apiKey: 'sk-ant-the-only-valid-key-0000000000' });
    const result = await api.chat.send('Hi');
    assert.ok(result.started);
    assert.strictEqual(result.outcome.error?.kind, 'auth');
    const error = api.chat.snapshot().entries.at(-1);
    assert.strictEqual(error?.kind, 'error');
    assert.deepStrictEqual(error.kind === 'error' && error.actions, ['setApiKey', 'retry'], 'the question is kept: Retry');
    assert.strictEqual(api.chat.snapshot().status.keyRejected, true, 'the key line says the key was rejected');
    assert.ok(!JSON.stringify(api.chat.snapshot()).includes(FAKE_KEY), 'the key is nowhere in the transcript');

    // Once the key works again, Retry sends the same question; the key line no longer says rejected.
    await mock?.close();
    const accepting = await serve([{ content: [{ type: 'text', text: 'Hello again.' }] }]);
    const retried = await api.chat.retry();
    assert.ok(retried.started && retried.outcome.ok);
    assert.match(JSON.stringify(accepting.requests[0].body.messages), /"Hi"/, 'the kept question was sent');
    assert.strictEqual(api.chat.snapshot().status.keyRejected, undefined);
  });

  test('New Chat starts afresh and sets the conversation aside; reopening it continues its history', async () => {
    const server = await serve([
      { content: [{ type: 'text', text: 'First.' }] },
      { content: [{ type: 'text', text: 'Fresh.' }] },
      { content: [{ type: 'text', text: 'Back.' }] },
    ]);
    assert.ok((await api.chat.send('one')).started);
    await vscode.commands.executeCommand('claudeMemory.chat.new');
    assert.deepStrictEqual(api.chat.snapshot().entries, []);
    assert.strictEqual(api.chat.snapshot().status.requests, 0);
    assert.strictEqual(api.chat.snapshot().status.hasPrevious, true, 'the chat offers the previous conversation');
    assert.ok((await api.chat.send('two')).started);
    const messages = server.requests[1].body.messages as unknown[];
    assert.strictEqual(messages.length, 1, 'only the new prompt was sent');

    await api.chat.receiveWebviewMessage({ type: 'reopenPrevious' });
    assert.deepStrictEqual(ofKind(api.chat.snapshot(), 'user').map((e) => e.text), ['one'], 'the first conversation is back');
    assert.strictEqual(api.chat.snapshot().status.hasPrevious, true, 'and the second one is set aside in turn');
    assert.ok((await api.chat.send('three')).started);
    const reopened = server.requests[2].body.messages as Array<{ role: string }>;
    assert.deepStrictEqual(reopened.map((m) => m.role), ['user', 'assistant', 'user'], 'Claude continues the first conversation');
  });

  test('Chat History keeps every chat with its title and folder; reopening one continues it; deleting the one on screen leaves an empty chat', async () => {
    const server = await serve([
      { content: [{ type: 'text', text: 'Apples.' }] },
      { content: [{ type: 'text', text: 'Pears.' }] },
      { content: [{ type: 'text', text: 'Apples again.' }] },
      { content: [{ type: 'text', text: 'Right behind.' }] },
    ]);
    const before = (await api.chat.listChats()).length;
    assert.ok((await api.chat.send('History test: a first chat about apples')).started);
    const first = api.chat.chatId();
    assert.ok(first, 'the chat has an id once it has a message');
    await api.chat.newChat();
    assert.strictEqual(api.chat.chatId(), undefined, 'an empty new chat is not in the list yet');
    assert.ok((await api.chat.send('History test: a second chat about pears')).started);

    const list = await api.chat.listChats();
    assert.strictEqual(list.length, before + 2);
    assert.deepStrictEqual(list.slice(0, 2).map((c) => c.title), ['History test: a second chat about pears', 'History test: a first chat about apples']);
    assert.strictEqual(list[0].folderName, api.chat.folder()?.name);
    assert.ok(list[0].updated >= list[1].updated && list[1].created <= list[0].created);

    assert.ok(await api.chat.openChat(first));
    assert.deepStrictEqual(ofKind(api.chat.snapshot(), 'user').map((e) => e.text), ['History test: a first chat about apples']);
    assert.ok((await api.chat.send('and then?')).started);
    const continued = server.requests[2].body.messages as Array<{ role: string }>;
    assert.deepStrictEqual(continued.map((m) => m.role), ['user', 'assistant', 'user'], 'Claude continues the reopened chat');

    assert.ok(await api.chat.deleteChat(first));
    assert.deepStrictEqual(api.chat.snapshot().entries, [], 'the deleted chat left the screen');
    assert.ok(!(await api.chat.listChats()).some((c) => c.id === first));
    // Chat History lives in the extension's workspace storage, never in the memory store.
    const store = api.services.stores.primary();
    assert.ok(store);
    const names = (await Promise.resolve(vscode.workspace.fs.readDirectory(store.rootUri)).catch(() => [])).map(([name]) => name);
    assert.ok(!names.some((n) => n === 'index.json' || n.startsWith(first)), `memory store: ${names.join(', ')}`);

    // A message sent right behind New Chat goes to the new chat, not into the one being set aside.
    const newing = api.chat.newChat();
    const sending = api.chat.send('History test: right behind New Chat');
    await newing;
    assert.ok((await sending).started);
    assert.deepStrictEqual(ofKind(api.chat.snapshot(), 'user').map((e) => e.text), ['History test: right behind New Chat']);
    assert.strictEqual((await api.chat.listChats())[0].id, api.chat.chatId(), 'saved as the chat on screen');
  });

  test('a settings change keeps the conversation and says the new settings apply', async () => {
    const server = await serve([{ content: [{ type: 'text', text: 'One.' }] }, { content: [{ type: 'text', text: 'Two.' }] }]);
    const config = vscode.workspace.getConfiguration('claudeMemory');
    const model = api.services.settings.get('model');
    assert.ok((await api.chat.send('one')).started);
    await config.update('model', 'claude-test-other-model', vscode.ConfigurationTarget.Global);
    try {
      await waitFor(() => api.services.settings.get('model') === 'claude-test-other-model', 'the new model setting');
      assert.ok((await api.chat.send('two')).started);
    } finally {
      await config.update('model', undefined, vscode.ConfigurationTarget.Global);
      await waitFor(() => api.services.settings.get('model') === model, 'the model setting restored');
    }
    const kinds = api.chat.snapshot().entries.map((e) => (e.kind === 'notice' ? `notice: ${e.text}` : e.kind));
    const second = kinds.lastIndexOf('user');
    assert.match(kinds[second - 1], /^notice: The API key or settings changed: the conversation continues/);
    assert.strictEqual(server.requests[1].body.model, 'claude-test-other-model');
    const messages = server.requests[1].body.messages as Array<{ role: string }>;
    assert.deepStrictEqual(messages.map((m) => m.role), ['user', 'assistant', 'user'], 'the earlier turn is sent along');
  });

  test('Open Chat in Editor shows the same conversation in an editor panel that completes its handshake', async () => {
    await serve([{ content: [{ type: 'text', text: 'Both views see me.' }] }]);
    await vscode.commands.executeCommand('claudeMemory.chat.openInEditor');
    await waitFor(() => api.chat.isPanelReady(), 'the editor panel says ready');
    const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === 'Claude Chat');
    assert.ok(tab && tab.input instanceof vscode.TabInputWebview, 'a webview tab in the editor area');
    assert.ok((await api.chat.send('Hello from either view')).started);
    assert.strictEqual(ofKind(api.chat.snapshot(), 'assistant').at(-1)?.markdown, 'Both views see me.');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  test('a command card waiting while the chat is out of sight puts a badge on the chat view and a notification; the answer takes the badge away', async () => {
    await serve([
      { content: [{ type: 'text', text: 'Running the tests.' }, { type: 'tool_use', name: 'bash', input: { command: 'npm test' } }] },
      { content: [{ type: 'text', text: 'Skipped the tests.' }] },
    ]);
    // The side bar shows the Explorer: the chat is out of sight.
    await vscode.commands.executeCommand('workbench.view.explorer');
    const sent = api.chat.send('Run the tests.');
    const asking = await waitForChat((s) => ofKind(s, 'tool').some((e) => e.approval?.state === 'pending'), 'the command card asks');
    assert.deepStrictEqual(api.chat.waitingBadge(), { value: 1, tooltip: 'Claude is waiting for your answer on a card' });
    const notice = 'a card waits while the chat is out of sight: Claude is waiting for your permission to run "npm test".';
    await waitFor(() => (channelLogText(api) ?? '').includes(notice), 'the notification, in the log');
    const card = ofKind(asking, 'tool').find((e) => e.approval?.state === 'pending');
    assert.ok(card);
    await api.chat.receiveWebviewMessage({ type: 'approve', entryId: card.id, decision: 'deny' });
    await sent;
    assert.strictEqual(api.chat.waitingBadge(), undefined, 'nothing waits: no badge');
    assert.strictEqual((channelLogText(api) ?? '').split(notice).length - 1, 1, 'one notification for one question');
  });
});
