// Restricted Mode: memory expiry never deletes anything, however old the files a repository
// brings, and Pin (a write) is refused too.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { extensionApi, findNode, primaryStore, waitFor } from './treeHelpers';

suite('memory expiry in an untrusted workspace', () => {
  test('neither the sweep on opening nor one asked for runs; an ancient file stays, and Pin writes nothing', async () => {
    const api = await extensionApi();
    const store = primaryStore(api);
    assert.strictEqual(vscode.workspace.isTrusted, false);
    const file = path.join(store.rootUri.fsPath, 'ancient', 'from-the-repo.md');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'three years old');
    const then = new Date(Date.now() - 1000 * 24 * 60 * 60 * 1000);
    fs.utimesSync(file, then, then);

    assert.strictEqual(await api.expiry.sweeper.opened, undefined, 'the sweep on opening ran');
    assert.strictEqual(await api.expiry.sweeper.sweep('command'), undefined, 'a sweep ran');
    assert.ok(fs.existsSync(file));

    await vscode.commands.executeCommand('claudeMemory.memoryTree.focus');
    const node = await waitFor('the ancient file in the tree', () => findNode(api, store, 'ancient/from-the-repo.md'));
    assert.strictEqual(await vscode.commands.executeCommand('claudeMemory.pin', node), false);
    assert.ok(!fs.existsSync(path.join(store.rootUri.fsPath, '.meta', 'pins.json')));
    assert.deepStrictEqual(await store.engine.pins(), []);
  });
});
