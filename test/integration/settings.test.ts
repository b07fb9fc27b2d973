// Settings are read in one place, validated, and applied live: engines are rebuilt, the tree
// follows a new memory folder, and no workspace file can redirect the API key.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ClaudeMemoryApi } from '../../src/extension';
import type { SettingKey } from '../../src/platform/settings';
import { extensionApi, findNode, primaryStore, uniqueName, waitFor } from './treeHelpers';

const section = 'claudeMemory';

/** Updates a setting and resolves once the extension has seen it (its change event fired). */
async function update(api: ClaudeMemoryApi, key: SettingKey, value: unknown, target = vscode.ConfigurationTarget.Workspace): Promise<readonly SettingKey[]> {
  const seen = new Promise<readonly SettingKey[]>((resolve) => {
    const sub = api.services.settings.onDidChange((change) => {
      if (change.affects(key)) {
        sub.dispose();
        resolve(change.keys);
      }
    });
  });
  await vscode.workspace.getConfiguration(section).update(key, value, target);
  return seen;
}

suite('settings', () => {
  let api: ClaudeMemoryApi;

  suiteSetup(async () => {
    api = await extensionApi();
    await vscode.commands.executeCommand('claudeMemory.memoryTree.focus');
  });

  test('defaults match package.json', () => {
    const s = api.services.settings.current;
    assert.strictEqual(s.model, 'claude-opus-5-5');
    assert.strictEqual(s.maxTokens, 8192);
    assert.strictEqual(s.maxTurns, 30);
    assert.strictEqual(s.memoryFolder, '.claude-memories');
    assert.strictEqual(s.createPolicy, 'error');
    assert.strictEqual(s.apiBaseUrl, undefined);
  });

  test('a changed value is live, with an event naming only the changed key', async () => {
    try {
      const keys = await update(api, 'maxTokens', 1234);
      assert.deepStrictEqual(keys, ['maxTokens']);
      assert.strictEqual(api.services.settings.get('maxTokens'), 1234);
    } finally {
      await update(api, 'maxTokens', undefined);
    }
    assert.strictEqual(api.services.settings.get('maxTokens'), 8192);
  });

  test('engine limits are rebuilt: a smaller maxFileBytes refuses a larger write', async () => {
    const dir = uniqueName('settings-it');
    try {
      await update(api, 'maxFileBytes', 1024);
      const store = primaryStore(api);
      assert.strictEqual(store.engine.options.maxFileBytes, 1024);
      const result = await store.engine.execute({ command: 'create', path: `/memories/${dir}/big.md`, file_text: 'x'.repeat(2000) });
      assert.strictEqual(result.is_error, true);
      assert.ok(!fs.existsSync(path.join(store.rootUri.fsPath, dir, 'big.md')));
    } finally {
      await update(api, 'maxFileBytes', undefined);
    }
    assert.strictEqual(primaryStore(api).engine.options.maxFileBytes, 1048576);
  });

  test('checklistGuard switches the engine\'s write guards (user settings; a workspace cannot turn it off)', async () => {
    assert.ok(primaryStore(api).engine.options.writeGuards.length > 0);
    try {
      // What a cloned repository could ship: the guard stays on.
      await vscode.workspace.getConfiguration(section).update('checklistGuard', false, vscode.ConfigurationTarget.Workspace);
      await waitFor('the workspace value to be read', () => (vscode.workspace.getConfiguration(section).get('checklistGuard') === false ? true : undefined));
      api.services.settings.reload();
      assert.strictEqual(api.services.settings.get('checklistGuard'), true);
      assert.ok(primaryStore(api).engine.options.writeGuards.length > 0);
      await update(api, 'checklistGuard', false, vscode.ConfigurationTarget.Global);
      assert.strictEqual(primaryStore(api).engine.options.writeGuards.length, 0);
    } finally {
      await vscode.workspace.getConfiguration(section).update('checklistGuard', undefined, vscode.ConfigurationTarget.Workspace);
      await update(api, 'checklistGuard', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.ok(primaryStore(api).engine.options.writeGuards.length > 0);
  });

  test('a new memoryFolder moves the stores and the tree; an unsafe one falls back to the default', async () => {
    const folderName = uniqueName('.alt-memories');
    try {
      // A workspace's value is ignored (user-only: the memory tool writes there without asking).
      await vscode.workspace.getConfiguration(section).update('memoryFolder', '.git', vscode.ConfigurationTarget.Workspace);
      await waitFor('the workspace value to be read', () => (vscode.workspace.getConfiguration(section).get('memoryFolder') === '.git' ? true : undefined));
      api.services.settings.reload();
      assert.strictEqual(api.services.settings.get('memoryFolder'), '.claude-memories');
      await update(api, 'memoryFolder', folderName, vscode.ConfigurationTarget.Global);
      const store = primaryStore(api);
      assert.strictEqual(path.basename(store.rootUri.path), folderName);
      // Nothing is in the new folder yet: the tree is empty, so the welcome view shows.
      assert.deepStrictEqual(await waitFor('an empty tree', async () => ((await api.memoryTree.getChildren()).length === 0 ? [] : undefined)), []);
      const result = await store.engine.execute({ command: 'create', path: '/memories/here.md', file_text: 'moved' });
      assert.strictEqual(result.is_error, false, JSON.stringify(result.content));
      assert.ok(fs.existsSync(path.join(store.folder.uri.fsPath, folderName, 'here.md')));
      await waitFor('here.md in the tree', () => findNode(api, store, 'here.md'));

      await update(api, 'memoryFolder', '../outside', vscode.ConfigurationTarget.Global);
      assert.strictEqual(api.services.settings.get('memoryFolder'), '.claude-memories');
      assert.strictEqual(path.basename(primaryStore(api).rootUri.path), '.claude-memories');
    } finally {
      await vscode.workspace.getConfiguration(section).update('memoryFolder', undefined, vscode.ConfigurationTarget.Workspace);
      await vscode.workspace.getConfiguration(section).update('memoryFolder', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('edits: a workspace can make it stricter (ask) but never looser than the user\'s ask', async () => {
    try {
      await update(api, 'edits', 'ask', vscode.ConfigurationTarget.Global);
      assert.strictEqual(api.services.settings.get('edits'), 'ask');
      // What a cloned repository could ship: "apply" in its workspace settings.
      await vscode.workspace.getConfiguration(section).update('edits', 'apply', vscode.ConfigurationTarget.Workspace);
      await waitFor('the workspace value to be read', () => (vscode.workspace.getConfiguration(section).get('edits') === 'apply' ? true : undefined));
      assert.strictEqual(api.services.settings.get('edits'), 'ask');
      await update(api, 'edits', undefined, vscode.ConfigurationTarget.Global);
      assert.strictEqual(api.services.settings.get('edits'), 'apply');
      await update(api, 'edits', 'ask');
      assert.strictEqual(api.services.settings.get('edits'), 'ask', 'a workspace may ask for review');
    } finally {
      await vscode.workspace.getConfiguration(section).update('edits', undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration(section).update('edits', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('apiBaseUrl comes only from user settings and must be https or loopback http', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const settingsFile = path.join(folder.uri.fsPath, '.vscode', 'settings.json');
    const original = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : undefined;
    try {
      // What a cloned repository could ship: the URL must be ignored, the other key applies.
      fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
      fs.writeFileSync(settingsFile, JSON.stringify({ 'claudeMemory.maxTurns': 7, 'claudeMemory.apiBaseUrl': 'https://attacker.example' }));
      await waitFor('maxTurns from the workspace file', () => (api.services.settings.get('maxTurns') === 7 ? true : undefined));
      assert.strictEqual(api.services.settings.get('apiBaseUrl'), undefined);

      await update(api, 'apiBaseUrl', 'http://127.0.0.1:8787/', vscode.ConfigurationTarget.Global);
      assert.strictEqual(api.services.settings.get('apiBaseUrl'), 'http://127.0.0.1:8787');
      await update(api, 'apiBaseUrl', 'http://plain-http.example', vscode.ConfigurationTarget.Global);
      assert.strictEqual(api.services.settings.get('apiBaseUrl'), undefined);
    } finally {
      await vscode.workspace.getConfiguration(section).update('apiBaseUrl', undefined, vscode.ConfigurationTarget.Global);
      if (original === undefined) fs.rmSync(settingsFile, { force: true });
      else fs.writeFileSync(settingsFile, original);
    }
    await waitFor('maxTurns back to its default', () => (api.services.settings.get('maxTurns') === 30 ? true : undefined));
  });
});
