// Restricted Mode: the initializer writes nothing and the Features view cannot change the checklist.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ClaudeMemoryApi } from '../../src/extension';
import { extensionApi, primaryStore } from './treeHelpers';

suite('multi-session in an untrusted workspace', () => {
  let api: ClaudeMemoryApi;

  suiteSetup(async () => {
    api = await extensionApi();
    assert.strictEqual(vscode.workspace.isTrusted, false);
  });

  test('Initialize Project Memory refuses and writes nothing', async () => {
    const store = primaryStore(api);
    const result = await vscode.commands.executeCommand('claudeMemory.initialize', { goal: '- a feature', draftWithClaude: false });
    assert.strictEqual(result, undefined);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(vscode.Uri.joinPath(store.rootUri, 'features.json'))));
  });

  test('ticking a feature changes nothing', async () => {
    const store = primaryStore(api);
    // A checklist that came with the repository.
    const original = '[{"id":"F001","category":"functional","description":"a","steps":[],"passes":false}]\n';
    const uri = vscode.Uri.joinPath(store.rootUri, 'features.json');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(original));
    try {
      await vscode.commands.executeCommand('claudeMemory.features.focus');
      const features = api.multiSession.features;
      features.provider.refresh();
      const node = (await features.provider.getChildren()).find((n) => n.kind === 'feature');
      assert.ok(node, 'the view shows the feature');
      await features.setPasses([[node, vscode.TreeItemCheckboxState.Checked]]);
      assert.strictEqual(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), original);
    } finally {
      await vscode.workspace.fs.delete(uri);
    }
  });
});
