// Multi-session in a multi-root workspace: the initializer works per folder, the Features view
// groups by folder, and Claude's draft and Resume switch the chat to the folder they are about.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ClaudeMemoryApi } from '../../src/extension';
import type { FeatureNode } from '../../src/features/session/featuresTreeProvider';
import type { MockMessagesApi, RecordedRequest } from '../support/mockMessagesApi';
import { FAKE_KEY, forgetApiBaseUrl, serve } from './chatSupport';
import { extensionApi, scriptedPrompts, withPrompts } from './treeHelpers';

/** The tool_result blocks the client sent back in a request. */
function toolResults(request: RecordedRequest): { is_error?: boolean; content: unknown }[] {
  const last = (request.body.messages as { content: unknown }[]).at(-1);
  return Array.isArray(last?.content) ? (last.content as { type: string; is_error?: boolean; content: unknown }[]).filter((b) => b.type === 'tool_result') : [];
}

function firstUserText(request: RecordedRequest): string {
  const first = (request.body.messages as { content: unknown }[])[0].content;
  return typeof first === 'string' ? first : (first as { type: string; text?: string }[]).map((b) => b.text ?? '').join('');
}

suite('multi-session in a multi-root workspace', () => {
  let api: ClaudeMemoryApi;
  let mock: MockMessagesApi | undefined;

  suiteSetup(async () => {
    api = await extensionApi();
    delete process.env.ANTHROPIC_API_KEY;
    await api.services.apiKey.set(FAKE_KEY);
    await vscode.commands.executeCommand('claudeMemory.features.focus');
  });

  teardown(async () => {
    await api.chat.whenIdle();
    await mock?.close();
    mock = undefined;
  });

  suiteTeardown(async () => {
    await forgetApiBaseUrl();
    for (const store of api.services.stores.all()) {
      for (const name of ['progress.md', 'features.json', 'startup.md']) {
        await vscode.workspace.fs.delete(vscode.Uri.joinPath(store.rootUri, name)).then(undefined, () => undefined);
      }
    }
  });

  test('Initialize with a Claude draft in the second folder; the Features view shows one group per folder', async () => {
    const [first, second] = api.services.stores.all();
    const drafted = [
      { id: 'F001', category: 'functional', description: 'add a todo', steps: ['run todo add milk'], passes: false },
      { id: 'F002', category: 'functional', description: 'list todos', steps: ['run todo list'], passes: false },
    ];
    mock = await serve(api, [
      { content: [{ type: 'tool_use', input: { command: 'str_replace', path: '/memories/features.json', old_str: '[]', new_str: JSON.stringify(drafted, null, 2) } }] },
      { content: [{ type: 'text', text: 'I drafted 2 features.' }] },
    ]);
    const result = await vscode.commands.executeCommand<{ folder: vscode.Uri } | undefined>('claudeMemory.initialize', {
      folder: second.folder.uri,
      goal: 'A todo app with add and list.',
      draftWithClaude: true,
    });
    assert.strictEqual(result?.folder.toString(), second.folder.uri.toString());
    assert.match(firstUserText(mock.requests[0]), /This is the initializer session for this project/);
    // The second folder's empty checklist was there to replace: the chat worked in its memory.
    assert.ok(toolResults(mock.requests[1]).every((r) => !r.is_error), `the draft was accepted: ${JSON.stringify(toolResults(mock.requests[1]))}`);
    assert.strictEqual(api.chat.folder()?.uri.toString(), second.folder.uri.toString());
    const answer = api.chat.snapshot().entries.filter((e) => e.kind === 'assistant').at(-1);
    assert.deepStrictEqual(answer?.kind === 'assistant' && answer.followUps, { folder: second.folder.name, actions: ['reviewFeatures', 'resume'] }, 'the buttons act in the second folder');
    const features = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(second.rootUri, 'features.json')))) as { id: string }[];
    assert.deepStrictEqual(features.map((f) => f.id), ['F001', 'F002']);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(vscode.Uri.joinPath(first.rootUri, 'features.json'))), 'nothing in the first folder');

    const provider = api.multiSession.features.provider;
    provider.refresh();
    const groups = (await provider.getChildren()) as Extract<FeatureNode, { kind: 'folder' }>[];
    assert.deepStrictEqual(groups.map((g) => [g.kind, g.checklist.store.folder.name, g.checklist.state]), [
      ['folder', first.folder.name, 'missing'],
      ['folder', second.folder.name, 'ok'],
    ]);
    assert.strictEqual(provider.getTreeItem(groups[1]).description, '0 / 2 passing');
    const inSecond = await provider.getChildren(groups[1]);
    assert.deepStrictEqual(inSecond.map((n) => n.kind), ['summary', 'feature', 'feature']);
    const inFirst = await provider.getChildren(groups[0]);
    assert.strictEqual(inFirst.length, 1);
    assert.strictEqual(provider.getTreeItem(inFirst[0]).label, 'No feature checklist yet');
  });

  test('Resume for the second folder sends its routine to the chat, switched to the second folder', async () => {
    const [first, second] = api.services.stores.all();
    // Start from the chat in the first folder, as after a restart.
    await withPrompts(api, scriptedPrompts({ folders: [0] }), () => vscode.commands.executeCommand('claudeMemory.chat.chooseFolder'));
    assert.strictEqual(api.chat.folder()?.uri.toString(), first.folder.uri.toString());
    mock = await serve(api, [
      { content: [{ type: 'tool_use', input: { command: 'view', path: '/memories/features.json' } }] },
      { content: [{ type: 'text', text: 'F001 is next.' }] },
    ]);
    const routine = await vscode.commands.executeCommand<string | undefined>('claudeMemory.resume', { folder: second.folder.uri });
    assert.ok(routine, 'Resume sent the routine');
    assert.match(routine, /Next failing feature: F001 \("add a todo"\)/);
    assert.strictEqual(firstUserText(mock.requests[0]), routine, 'the routine went to Claude');
    assert.strictEqual(api.chat.folder()?.uri.toString(), second.folder.uri.toString());
    // Only the second folder has a features.json: reading it works there and would fail in the first.
    const [viewed] = toolResults(mock.requests[1]);
    assert.ok(!viewed.is_error, `features.json was read: ${JSON.stringify(viewed)}`);
    assert.match(String(viewed.content), /add a todo/);
  });
});
