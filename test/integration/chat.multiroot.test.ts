// Multi-root: the chat works in the first folder's memory until the user (Choose Chat Folder…) or
// a command (`claudeMemory.ask` with a folder) switches it to another folder.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ClaudeMemoryApi } from '../../src/extension';
import type { MemoryStore } from '../../src/platform/memoryStores';
import type { MemoryTouch } from '../../src/platform/memoryActivity';
import type { MockMessagesApi, MockStep } from '../support/mockMessagesApi';
import { activateExtension, exists, FAKE_KEY, forgetApiBaseUrl, ofKind, serve, setKeyWithCommand } from './chatSupport';
import { scriptedPrompts, withPrompts } from './treeHelpers';

function writeNote(name: string, text: string): MockStep[] {
  return [
    { content: [{ type: 'tool_use', input: { command: 'create', path: `/memories/${name}`, file_text: text } }] },
    { content: [{ type: 'text', text: 'Written.' }] },
  ];
}

function activeUri(): string | undefined {
  return vscode.window.activeTextEditor?.document.uri.toString();
}

suite('chat in a multi-root workspace', () => {
  let api: ClaudeMemoryApi;
  let mock: MockMessagesApi | undefined;
  let first: MemoryStore;
  let second: MemoryStore;
  const touches: MemoryTouch[] = [];
  let touchSubscription: vscode.Disposable;

  suiteSetup(async () => {
    api = await activateExtension();
    delete process.env.ANTHROPIC_API_KEY;
    await setKeyWithCommand(api, FAKE_KEY);
    const stores = api.services.stores.all();
    assert.strictEqual(stores.length, 2, 'two stores');
    [first, second] = stores;
    touchSubscription = api.services.memoryActivity.onDidTouch((t) => touches.push(t));
  });

  setup(() => {
    touches.length = 0;
  });

  teardown(async () => {
    await api.chat.whenIdle();
    await mock?.close();
    mock = undefined;
  });

  suiteTeardown(async () => {
    touchSubscription.dispose();
    for (const store of [first, second]) {
      for (const name of ['multiroot.md', 'second.md', 'back.md']) {
        await vscode.workspace.fs.delete(vscode.Uri.joinPath(store.rootUri, name)).then(undefined, () => undefined);
      }
    }
    await forgetApiBaseUrl();
  });

  test('by default the chat works in the first folder, and the Chat view names it', async () => {
    assert.strictEqual(api.chat.folder()?.uri.toString(), first.folder.uri.toString());
    assert.strictEqual(api.chat.viewDescription()?.split(' · ')[0], first.folder.name);
    mock = await serve(api, writeNote('multiroot.md', 'first folder\n'));
    const result = await api.chat.send('Write a note.');
    assert.ok(result.started && result.outcome.ok);
    assert.ok(await exists(vscode.Uri.joinPath(first.rootUri, 'multiroot.md')), 'written in the first folder');
    assert.ok(!(await exists(vscode.Uri.joinPath(second.rootUri, 'multiroot.md'))), 'not in the second folder');
    assert.deepStrictEqual(ofKind(api.chat.snapshot(), 'tool').map((e) => e.status), ['ok']);
    assert.deepStrictEqual(touches.map((t) => t.folder.uri.toString()), [first.folder.uri.toString()]);
  });

  test('ask with { prompt, folder } switches the chat to that folder: a new session, files and touches there', async () => {
    mock = await serve(api, writeNote('second.md', 'second folder\n'));
    const result = await vscode.commands.executeCommand<{ started: boolean; outcome?: { ok: boolean } }>('claudeMemory.ask', {
      prompt: 'Write a note in the second folder.',
      folder: second.folder.uri,
    });
    assert.ok(result?.started && result.outcome?.ok, 'the answer completed');
    assert.ok(await exists(vscode.Uri.joinPath(second.rootUri, 'second.md')), 'written in the second folder');
    assert.ok(!(await exists(vscode.Uri.joinPath(first.rootUri, 'second.md'))), 'not in the first folder');
    assert.strictEqual(api.chat.folder()?.uri.toString(), second.folder.uri.toString());
    // The folder's name, then this chat's estimated cost once it has one.
    assert.strictEqual(api.chat.viewDescription()?.split(' · ')[0], second.folder.name);
    assert.match(api.chat.viewDescription() ?? '', / · ≈ \$[0-9.]+ this chat$/);
    assert.deepStrictEqual(touches.map((t) => [t.path, t.folder.uri.toString()]), [['/memories/second.md', second.folder.uri.toString()]]);
    // The first folder's conversation was not sent along: one user message, and the view says why.
    const messages = mock.requests[0].body.messages as unknown[];
    assert.strictEqual(messages.length, 1, 'a new session');
    const notices = ofKind(api.chat.snapshot(), 'notice').map((n) => n.text);
    assert.ok(notices.some((t) => t.includes(`now works in the memory of "${second.folder.name}"`)), `a new-session notice: ${JSON.stringify(notices)}`);
  });

  test('Choose Chat Folder… (scripted pick) switches back to the first folder', async () => {
    const prompts = scriptedPrompts({ folders: [0] });
    const chosen = await withPrompts(api, prompts, () => vscode.commands.executeCommand<vscode.Uri | undefined>('claudeMemory.chat.chooseFolder'));
    assert.deepStrictEqual(prompts.asked, ['pickFolder']);
    assert.strictEqual(chosen?.toString(), first.folder.uri.toString());
    assert.strictEqual(api.chat.folder()?.uri.toString(), first.folder.uri.toString());
    assert.strictEqual(api.chat.viewDescription()?.split(' · ')[0], first.folder.name);

    mock = await serve(api, writeNote('back.md', 'first again\n'));
    const result = await api.chat.send('Write another note.');
    assert.ok(result.started && result.outcome.ok);
    assert.ok(await exists(vscode.Uri.joinPath(first.rootUri, 'back.md')), 'written in the first folder');
    assert.ok(!(await exists(vscode.Uri.joinPath(second.rootUri, 'back.md'))), 'not in the second folder');
    assert.deepStrictEqual(touches.map((t) => t.folder.uri.toString()), [first.folder.uri.toString()]);
    assert.strictEqual((mock.requests[0].body.messages as unknown[]).length, 1, 'a new session again');
  });

  test('a tool card opens the file of the folder its call ran in, after the chat switched folders', async () => {
    // The chat works in the first folder now; the second.md card was written in the second.
    assert.strictEqual(api.chat.folder()?.uri.toString(), first.folder.uri.toString());
    // A same-named file in the first folder: the wrong folder would open it instead of failing.
    const decoy = vscode.Uri.joinPath(first.rootUri, 'second.md');
    await vscode.workspace.fs.writeFile(decoy, new TextEncoder().encode('decoy in the first folder\n'));
    const card = ofKind(api.chat.snapshot(), 'tool').find((e) => e.path === '/memories/second.md');
    assert.ok(card, 'the second.md card is still in the transcript');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    // The webview's message for a click on the card's path, through the provider's handlers.
    await api.chat.receiveWebviewMessage({ type: 'openMemory', entryId: card.id, path: '/memories/second.md' });
    const shown = vscode.window.activeTextEditor?.document;
    assert.strictEqual(shown?.uri.toString(), vscode.Uri.joinPath(second.rootUri, 'second.md').toString());
    assert.strictEqual(shown?.getText(), 'second folder\n');

    // The card written in the first folder still opens there.
    const back = ofKind(api.chat.snapshot(), 'tool').find((e) => e.path === '/memories/back.md');
    assert.ok(back);
    await api.chat.receiveWebviewMessage({ type: 'openMemory', entryId: back.id, path: '/memories/back.md' });
    assert.strictEqual(activeUri(), vscode.Uri.joinPath(first.rootUri, 'back.md').toString());

    // Without the card's id the message is invalid and opens nothing.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await api.chat.receiveWebviewMessage({ type: 'openMemory', path: '/memories/second.md' });
    assert.strictEqual(activeUri(), undefined);

    // New Chat forgets the cards: a late click on an old id opens in the current (first) folder.
    await api.chat.newChat();
    await api.chat.receiveWebviewMessage({ type: 'openMemory', entryId: card.id, path: '/memories/second.md' });
    assert.strictEqual(activeUri(), decoy.toString());
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('ask with a folder that is not in the workspace sends nothing and keeps the folder', async () => {
    mock = await serve(api, [{ content: [{ type: 'text', text: 'should not be asked' }] }]);
    const result = await vscode.commands.executeCommand<{ started: boolean } | undefined>('claudeMemory.ask', {
      prompt: 'Hello?',
      folder: vscode.Uri.file('/nowhere/not-a-workspace-folder'),
    });
    assert.strictEqual(result?.started, false);
    assert.strictEqual(mock.requests.length, 0);
    assert.strictEqual(api.chat.folder()?.uri.toString(), first.folder.uri.toString());
  });
});
