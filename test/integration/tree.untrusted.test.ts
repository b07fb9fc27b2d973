// Restricted Mode: Claude's memory stays readable in the tree, but neither the tree's commands
// nor the agent's engine can change it.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ClaudeMemoryApi } from '../../src/extension';
import type { MemoryStore } from '../../src/platform/memoryStores';
import { exists, extensionApi, findNode, primaryStore, scriptedPrompts, text, waitFor, withPrompts } from './treeHelpers';

suite('Memory tree in an untrusted workspace', () => {
  let api: ClaudeMemoryApi;
  let store: MemoryStore;
  let fileUri: vscode.Uri;

  suiteSetup(async () => {
    api = await extensionApi();
    store = primaryStore(api);
    await vscode.commands.executeCommand('claudeMemory.memoryTree.focus');
    // Restricted Mode limits this extension, not VS Code's file API: seed as a repository would.
    fileUri = vscode.Uri.joinPath(store.rootUri, 'notes', 'from-the-repo.md');
    await vscode.workspace.fs.writeFile(fileUri, text('remember this'));
  });

  test('the workspace is untrusted and the services say so', () => {
    assert.strictEqual(vscode.workspace.isTrusted, false);
    assert.strictEqual(api.services.trust.isTrusted(), false);
  });

  test('the tree shows the memory files', async () => {
    const node = await waitFor('the seeded file', () => findNode(api, store, 'notes/from-the-repo.md'));
    assert.strictEqual(api.memoryTree.getTreeItem(node).contextValue, 'memoryFile');
  });

  test('new file, new folder, rename and delete refuse without asking anything', async () => {
    const file = await waitFor('the seeded file', () => findNode(api, store, 'notes/from-the-repo.md'));
    const folder = await waitFor('the notes folder', () => findNode(api, store, 'notes'));
    const prompts = scriptedPrompts({ inputs: ['x.md', 'y', 'renamed.md'], confirms: [true, true] });
    await withPrompts(api, prompts, async () => {
      assert.strictEqual(await vscode.commands.executeCommand('claudeMemory.newFile', folder), undefined);
      assert.strictEqual(await vscode.commands.executeCommand('claudeMemory.newFolder', folder), undefined);
      assert.strictEqual(await vscode.commands.executeCommand('claudeMemory.rename', file), undefined);
      assert.strictEqual(await vscode.commands.executeCommand('claudeMemory.delete', file), false);
      assert.strictEqual(await vscode.commands.executeCommand('claudeMemory.delete', folder), false);
    });
    assert.deepStrictEqual(prompts.asked, []);
    assert.deepStrictEqual((await vscode.workspace.fs.readDirectory(folder.uri)).map(([n]) => n), ['from-the-repo.md']);
  });

  test('the engine can read but not write: the file system below it refuses', async () => {
    const view = await store.engine.execute({ command: 'view', path: '/memories/notes/from-the-repo.md' });
    assert.strictEqual(view.is_error, false, JSON.stringify(view.content));
    assert.match(String(view.content), /remember this/);
    const create = await store.engine.execute({ command: 'create', path: '/memories/notes/agent.md', file_text: 'x' });
    assert.strictEqual(create.is_error, true);
    const del = await store.engine.execute({ command: 'delete', path: '/memories/notes/from-the-repo.md' });
    assert.strictEqual(del.is_error, true);
    assert.ok(!(await exists(vscode.Uri.joinPath(store.rootUri, 'notes', 'agent.md'))));
    assert.ok(await exists(fileUri));
  });
});
