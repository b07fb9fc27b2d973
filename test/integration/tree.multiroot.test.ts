// Multi-root: one store and one tree root per workspace folder; activity and new entries land in
// the right folder.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ClaudeMemoryApi } from '../../src/extension';
import { extensionApi, findNode, scriptedPrompts, text, uniqueName, waitFor, withPrompts } from './treeHelpers';

suite('Memory tree in a multi-root workspace', () => {
  let api: ClaudeMemoryApi;

  suiteSetup(async () => {
    api = await extensionApi();
    await vscode.commands.executeCommand('claudeMemory.memoryTree.focus');
  });

  test('one store per folder, each in its own folder', () => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const stores = api.services.stores.all();
    assert.strictEqual(stores.length, 2);
    stores.forEach((s, i) => {
      assert.strictEqual(s.folder.uri.toString(), folders[i].uri.toString());
      assert.strictEqual(s.rootUri.toString(), vscode.Uri.joinPath(folders[i].uri, '.claude-memories').toString());
      assert.strictEqual(api.services.stores.forUri(vscode.Uri.joinPath(s.rootUri, 'a.md')), s);
    });
    assert.strictEqual(api.services.stores.forUri(vscode.Uri.joinPath(folders[0].uri, 'src', 'todo.js')), undefined);
  });

  test('a file in the second folder shows under the second root only; the mark follows the folder', async () => {
    const [first, second] = api.services.stores.all();
    const name = `${uniqueName('mr')}.md`;
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(second.rootUri, name), text('second'));
    const node = await waitFor('the file under the second root', () => findNode(api, second, name));
    const roots = await api.memoryTree.getChildren();
    assert.deepStrictEqual(roots.map((r) => r.store.folder.name), [first.folder.name, second.folder.name]);
    assert.strictEqual(await findNode(api, first, name), undefined);

    // Same path touched in the other folder: no mark here.
    api.services.memoryActivity.fire({ kind: 'write', path: `/memories/${name}`, folder: first.folder });
    assert.doesNotMatch(String(api.memoryTree.getTreeItem(node).description), /Claude/);
    api.services.memoryActivity.fire({ kind: 'write', path: `/memories/${name}`, folder: second.folder });
    assert.match(String(api.memoryTree.getTreeItem(node).description), /Claude wrote/);
  });

  test('New File from the palette asks which folder', async () => {
    const name = `${uniqueName('mr-new')}.md`;
    const prompts = scriptedPrompts({ inputs: [name] });
    const uri = await withPrompts(api, prompts, () => vscode.commands.executeCommand<vscode.Uri>('claudeMemory.newFile'));
    assert.strictEqual(prompts.asked[0], 'pickFolder');
    // The scripted picker answers with the first folder.
    assert.strictEqual(uri?.toString(), vscode.Uri.joinPath(api.services.stores.all()[0].rootUri, name).toString());
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
