// The extension's own commands in the real host: API key round trip through SecretStorage
// (the key never reaches the log), new file/folder with validated names, copy memory path.
import * as assert from 'assert';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { ClaudeMemoryApi } from '../../src/extension';
import { channelLogText, exists, extensionApi, findNode, primaryStore, scriptedPrompts, uniqueName, waitFor, withPrompts } from './treeHelpers';

suite('commands', () => {
  let api: ClaudeMemoryApi;

  suiteSetup(async () => {
    api = await extensionApi();
    await vscode.commands.executeCommand('claudeMemory.memoryTree.focus');
  });

  test('activation is logged with its duration', async () => {
    const log = await waitFor('the channel log file', () => channelLogText(api));
    assert.match(log, /\[extension\] activated in \d+ ms/);
  });

  test('setApiKey stores the key in SecretStorage, clearApiKey removes it; the key is never logged', async () => {
    const key = `sk-ant-test-${crypto.randomBytes(18).toString('hex')}`;
    const prompts = scriptedPrompts({ inputs: [key] });
    assert.strictEqual(await withPrompts(api, prompts, () => vscode.commands.executeCommand('claudeMemory.setApiKey')), true);
    assert.deepStrictEqual(await api.services.apiKey.getWithSource(), { key, source: 'secretStorage' });

    await vscode.commands.executeCommand('claudeMemory.clearApiKey');
    // The test host runs without ANTHROPIC_API_KEY, so nothing is left.
    assert.strictEqual(await api.services.apiKey.get(), undefined);

    const log = await waitFor('both key events in the log', () => {
      const t = channelLogText(api);
      return t && /API key stored/.test(t) && /API key removed/.test(t) ? t : undefined;
    });
    assert.ok(!log.includes(key), 'the API key appears in the log');
    assert.ok(!log.includes(key.slice(12, 30)), 'part of the API key appears in the log');
  });

  test('setApiKey refuses a malformed key (typed past validation) and keeps the stored one', async () => {
    const prompts = scriptedPrompts({ inputs: ['not a key'] });
    assert.strictEqual(await withPrompts(api, prompts, () => vscode.commands.executeCommand('claudeMemory.setApiKey')), false);
    assert.ok(prompts.asked.some((a) => a.startsWith('invalid:')));
    assert.strictEqual(await api.services.apiKey.get(), undefined);
  });

  test('newFile creates nested folders and an empty owner-only file, opens it, and reveals and selects it in the tree', async () => {
    const store = primaryStore(api);
    const dir = uniqueName('cmd-it');
    const prompts = scriptedPrompts({ inputs: [`${dir}/sub/new.md`] });
    const uri = await withPrompts(api, prompts, () => vscode.commands.executeCommand<vscode.Uri>('claudeMemory.newFile'));
    assert.strictEqual(uri?.toString(), vscode.Uri.joinPath(store.rootUri, dir, 'sub', 'new.md').toString());
    assert.strictEqual((await vscode.workspace.fs.stat(uri)).size, 0);
    if (uri.scheme === 'file' && process.platform !== 'win32') assert.strictEqual(fs.statSync(uri.fsPath).mode & 0o777, 0o600);
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.toString(), uri.toString());
    await waitFor('the new file in the tree', () => findNode(api, store, `${dir}/sub/new.md`));
    // Revealed (its folders expanded) and selected, once the command has resolved.
    const selected = api.memoryTreeView.selection;
    assert.deepStrictEqual(selected.map((n) => n.uri.toString()), [uri.toString()], 'the new file is selected in the Memory tree');
    assert.strictEqual(api.memoryTreeRevealer.lastRevealed?.uri.toString(), uri.toString());
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('newFolder in a clicked folder; hidden and traversal names are refused', async () => {
    const store = primaryStore(api);
    const dir = uniqueName('cmd-it');
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(store.rootUri, dir));
    const parent = await waitFor('the parent folder', () => findNode(api, store, dir));

    const made = await withPrompts(api, scriptedPrompts({ inputs: ['inner'] }), () => vscode.commands.executeCommand<vscode.Uri>('claudeMemory.newFolder', parent));
    assert.ok(made);
    assert.ok((await vscode.workspace.fs.stat(made)).type & vscode.FileType.Directory);
    assert.strictEqual(made.toString(), vscode.Uri.joinPath(store.rootUri, dir, 'inner').toString());

    for (const bad of ['.hidden', '../up', 'a\\b', 'x:y']) {
      const prompts = scriptedPrompts({ inputs: [bad] });
      const result = await withPrompts(api, prompts, () => vscode.commands.executeCommand('claudeMemory.newFile', parent));
      assert.strictEqual(result, undefined, `"${bad}" was accepted`);
      assert.ok(prompts.asked.some((a) => a.startsWith('invalid:')), `no validation message for "${bad}"`);
    }
    assert.ok(!(await exists(vscode.Uri.joinPath(store.rootUri, 'up'))));
    assert.deepStrictEqual((await vscode.workspace.fs.readDirectory(parent.uri)).map(([n]) => n), ['inner']);
  });

  test('copyMemoryPath puts the /memories path on the clipboard', async () => {
    const store = primaryStore(api);
    const dir = uniqueName('cmd-it');
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(store.rootUri, dir, 'copy me.md'), new Uint8Array([65]));
    const node = await waitFor('the file', () => findNode(api, store, `${dir}/copy me.md`));
    assert.strictEqual(await vscode.commands.executeCommand('claudeMemory.copyMemoryPath', node), `/memories/${dir}/copy me.md`);
    assert.strictEqual(await vscode.env.clipboard.readText(), `/memories/${dir}/copy me.md`);
  });
});
