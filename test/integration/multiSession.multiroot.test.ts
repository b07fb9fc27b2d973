// Multi-session in a multi-root workspace: the initializer works per folder, the Features view
// groups by folder, and Claude is only sent to the folder whose memory the chat uses (the first).
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ClaudeMemoryApi } from '../../src/extension';
import type { FeatureNode } from '../../src/views/featuresTreeProvider';
import { extensionApi } from './treeHelpers';

suite('multi-session in a multi-root workspace', () => {
  let api: ClaudeMemoryApi;

  suiteSetup(async () => {
    api = await extensionApi();
    await vscode.commands.executeCommand('claudeMemory.features.focus');
  });

  suiteTeardown(async () => {
    for (const store of api.services.stores.all()) {
      for (const name of ['progress.md', 'features.json', 'startup.md']) {
        await vscode.workspace.fs.delete(vscode.Uri.joinPath(store.rootUri, name)).then(undefined, () => undefined);
      }
    }
  });

  test('Initialize in the second folder; the Features view shows one group per folder', async () => {
    const [first, second] = api.services.stores.all();
    const result = await vscode.commands.executeCommand<{ folder: vscode.Uri } | undefined>('claudeMemory.initialize', {
      folder: second.folder.uri,
      goal: '- add a todo\n- list todos',
      // The chat works in the first folder: the draft falls back to the goal's own list.
      draftWithClaude: true,
    });
    assert.strictEqual(result?.folder.toString(), second.folder.uri.toString());
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

  test('Resume does not send the second folder\'s routine to a chat that works in the first', async () => {
    const [, second] = api.services.stores.all();
    assert.strictEqual(await vscode.commands.executeCommand('claudeMemory.resume', { folder: second.folder.uri }), undefined);
  });
});
