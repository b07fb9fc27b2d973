// Memory history in the real extension host: Show History opens the diff editor of a version
// against the file, Restore This Version puts the exact bytes back, a save in the editor becomes
// the user's version, Recently Deleted lists deleted files and brings them back, and tooltips name
// the last writer.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ClaudeMemoryApi } from '../../src/extension';
import type { MemoryStore } from '../../src/platform/memoryStores';
import type { MemoryNode } from '../../src/features/memoryTree/memoryTreeNodes';
import { extensionApi, findNode, primaryStore, scriptedPrompts, uniqueName, waitFor, withPrompts } from './treeHelpers';

const SCHEME = 'claude-memory-version';
/** Generous: these run on a shared machine; the bound only turns "never" into a readable failure. */
const wait = <T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> => waitFor(what, probe, 60_000);
const dec = new TextDecoder();

/** The diff tab whose left side is a version document, if one is open. */
function versionDiffTab(): vscode.Tab | undefined {
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) if (tab.input instanceof vscode.TabInputTextDiff && tab.input.original.scheme === SCHEME) return tab;
  }
  return undefined;
}

async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await wait('all editors closed', () => (vscode.window.tabGroups.all.every((g) => g.tabs.length === 0) ? true : undefined));
}

/** A tooltip as text: the tree escapes Markdown in names and sentences. */
function tooltipText(api: ClaudeMemoryApi, node: MemoryNode): string {
  return (api.memoryTree.getTreeItem(node).tooltip as vscode.MarkdownString).value.replace(/\\(.)/g, '$1');
}

suite('Memory history', function () {
  // The machine running these may be busy: the bounds only turn "never" into a failure.
  this.timeout(180_000);
  let api: ClaudeMemoryApi;
  let store: MemoryStore;
  let dir: string;

  suiteSetup(async () => {
    api = await extensionApi();
    store = primaryStore(api);
    await vscode.commands.executeCommand('claudeMemory.memoryTree.focus');
  });

  setup(async () => {
    dir = uniqueName('history-it');
    await closeAllEditors();
  });

  suiteTeardown(() => closeAllEditors());

  test('Show History opens the diff of a version against the file; Restore This Version (editor title) puts its exact bytes back after confirming', async () => {
    const rel = `${dir}/notes.md`;
    // CRLF, non-ASCII and no final newline: a restore must give these bytes back exactly.
    const first = 'first line ü\r\nsecond line\r\nend';
    const chat = { name: 'chat', session: 'c-1', turn: 1, title: 'Fix login' };
    const created = await store.engine.execute({ command: 'create', path: `/memories/${rel}`, file_text: first }, undefined, chat);
    assert.strictEqual(created.is_error, false, JSON.stringify(created.content));
    const v1 = created.touched?.version;
    assert.ok(v1 !== undefined);
    const edited = await store.engine.execute({ command: 'str_replace', path: `/memories/${rel}`, old_str: 'second line', new_str: 'changed by Claude' }, undefined, chat);
    assert.strictEqual(edited.is_error, false, JSON.stringify(edited.content));
    const fileUri = store.fs.uriOf(rel);
    const firstBytes = (await store.engine.versionContent(v1)) ?? new Uint8Array();
    assert.strictEqual(dec.decode(firstBytes), first);

    // The tooltip names the last writer (the chat refreshes the tree after each call; so does this test).
    api.memoryTree.refresh();
    await wait('the tooltip to name the chat', async () => {
      const node = await findNode(api, store, rel);
      return node && tooltipText(api, node).includes("Last change: Claude, chat 'Fix login', just now") ? true : undefined;
    });

    // The quick pick (newest first): accepting its first row opens the newest version ↔ current.
    const node = await wait('the file in the tree', () => findNode(api, store, rel));
    const shown = vscode.commands.executeCommand('claudeMemory.showHistory', node);
    await wait('a version diff opened from the quick pick', async () => {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      return versionDiffTab();
    });
    await shown;
    const newestTab = versionDiffTab();
    assert.ok(newestTab && newestTab.input instanceof vscode.TabInputTextDiff);
    assert.strictEqual(newestTab.label, `notes.md (v${edited.touched?.version} ↔ current)`);
    await closeAllEditors();

    // A chosen version: its document on the left, the file on the right.
    await vscode.commands.executeCommand('claudeMemory.showHistory', node, v1);
    const tab = await wait('the diff of v1', () => versionDiffTab());
    assert.strictEqual(tab.label, `notes.md (v${v1} ↔ current)`);
    const input = tab.input as vscode.TabInputTextDiff;
    assert.strictEqual(input.modified.toString(), fileUri.toString());
    const left = await vscode.workspace.openTextDocument(input.original);
    const right = await vscode.workspace.openTextDocument(input.modified);
    assert.strictEqual(left.getText(), first);
    assert.strictEqual(right.getText(), 'first line ü\r\nchanged by Claude\r\nend');

    // Restore This Version, as the editor title's action runs it (no argument: the active diff).
    const declined = scriptedPrompts({ confirms: [false] });
    assert.strictEqual(await withPrompts(api, declined, () => vscode.commands.executeCommand('claudeMemory.restoreVersion')), undefined);
    assert.deepStrictEqual(declined.asked, [`confirm:Restore '/memories/${rel}' to version ${v1}?`]);
    assert.strictEqual(dec.decode(await vscode.workspace.fs.readFile(fileUri)), 'first line ü\r\nchanged by Claude\r\nend');

    const restoredVersion = await withPrompts(api, scriptedPrompts({ confirms: [true] }), () => vscode.commands.executeCommand<number>('claudeMemory.restoreVersion'));
    assert.ok(typeof restoredVersion === 'number');
    // The bytes, whatever the array type each side comes in (a Buffer or a plain Uint8Array).
    assert.deepStrictEqual(new Uint8Array(await vscode.workspace.fs.readFile(fileUri)), new Uint8Array(firstBytes));
    const last = (await store.engine.fileHistory(rel)).at(-1);
    assert.deepStrictEqual([last?.version, last?.op, last?.restoredFrom, last?.author.name], [restoredVersion, 'restore', v1, 'user']);
    // The diff's right side follows the file.
    await wait('the diff to show the restored file', () => (right.getText() === first ? true : undefined));
  });

  test('an edit saved in the editor becomes a `user` version', async () => {
    const rel = `${dir}/typed.md`;
    const created = await store.engine.execute({ command: 'create', path: `/memories/${rel}`, file_text: 'written by Claude\n' });
    assert.strictEqual(created.is_error, false);
    const document = await vscode.workspace.openTextDocument(store.fs.uriOf(rel));
    const editor = await vscode.window.showTextDocument(document);
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(1, 0), 'typed by a person\n')));
    assert.ok(await document.save());
    const version = await wait('the saved edit in history', async () => {
      const newest = (await store.engine.fileHistory(rel)).at(-1);
      return newest?.op === 'edit' ? newest : undefined;
    });
    assert.strictEqual(version.author.name, 'user');
    assert.strictEqual(dec.decode(await store.engine.versionContent(version.version)), 'written by Claude\ntyped by a person\n');
    // Recorded once: the watcher's further events for the same content add nothing.
    assert.deepStrictEqual((await store.engine.fileHistory(rel)).map((e) => `${e.op} ${e.author.name}`), ['create agent', 'edit user']);
    await wait('the tooltip to name the user', async () => {
      const node = await findNode(api, store, rel);
      return node && tooltipText(api, node).includes('Last change: You, just now') ? true : undefined;
    });
  });

  test('a deleted file is listed under Recently Deleted with who deleted it; Restore brings it back, folder and all', async () => {
    const rel = `${dir}/sub/gone.md`;
    const content = 'remember this\n';
    const created = await store.engine.execute({ command: 'create', path: `/memories/${rel}`, file_text: content });
    assert.strictEqual(created.is_error, false);
    await wait('the file in the tree', () => findNode(api, store, rel));
    // The whole folder goes, through the tree's Delete.
    const folder = await wait('the folder in the tree', () => findNode(api, store, `${dir}/sub`));
    assert.strictEqual(await withPrompts(api, scriptedPrompts({ confirms: [true] }), () => vscode.commands.executeCommand('claudeMemory.delete', folder)), true);

    const deleted = await wait('the file under Recently Deleted', async () => {
      const root = await findNode(api, store, '');
      if (!root) return undefined;
      const children = await api.memoryTree.getChildren(root);
      const group = children.at(-1);
      if (group?.kind !== 'deletedGroup') return undefined;
      return (await api.memoryTree.getChildren(group)).find((n) => n.rel === rel);
    });
    const item = api.memoryTree.getTreeItem(deleted);
    assert.strictEqual(item.label, rel);
    assert.strictEqual(item.contextValue, 'memoryDeletedFile');
    assert.match(String(item.description), /^You · just now$/);
    // Clicking shows what it held, read-only.
    assert.strictEqual(item.command?.command, 'vscode.open');
    const shown = await vscode.workspace.openTextDocument(item.command?.arguments?.[0] as vscode.Uri);
    assert.strictEqual(shown.getText(), content);
    assert.strictEqual(shown.uri.scheme, SCHEME);

    const restored = await vscode.commands.executeCommand<number>('claudeMemory.restoreDeleted', deleted);
    assert.ok(typeof restored === 'number');
    assert.strictEqual(dec.decode(await vscode.workspace.fs.readFile(store.fs.uriOf(rel))), content);
    await wait('the file back in the tree and gone from Recently Deleted', async () => {
      const back = await findNode(api, store, rel);
      const root = await findNode(api, store, '');
      const group = root && (await api.memoryTree.getChildren(root)).find((n) => n.kind === 'deletedGroup');
      const stillListed = group && (await api.memoryTree.getChildren(group)).some((n) => n.rel === rel);
      return back && !stillListed ? true : undefined;
    });
  });

  test('a file removed outside the engine becomes the user\'s delete and shows under Recently Deleted', async () => {
    const rel = `${dir}/outside.md`;
    await store.engine.execute({ command: 'create', path: `/memories/${rel}`, file_text: 'x' });
    await vscode.workspace.fs.delete(store.fs.uriOf(rel));
    const version = await wait('the delete in history', async () => {
      const newest = (await store.engine.fileHistory(rel)).at(-1);
      return newest?.op === 'delete' ? newest : undefined;
    });
    assert.strictEqual(version.author.name, 'user');
    const listed = await wait('the file under Recently Deleted', async () => {
      const root = await findNode(api, store, '');
      const group = root && (await api.memoryTree.getChildren(root)).find((n) => n.kind === 'deletedGroup');
      return group && (await api.memoryTree.getChildren(group)).find((n) => n.rel === rel);
    });
    assert.match(String(api.memoryTree.getTreeItem(listed).description), /^You · just now$/);
  });

  test('history\'s switch and limits come from user settings only; changing them there rebuilds the engines', async () => {
    const defaults = { maxVersionsPerFile: 50, maxDays: 30, maxBytes: 20 * 1024 * 1024 };
    const history = () => primaryStore(api).engine.options.history;
    const config = () => vscode.workspace.getConfiguration('claudeMemory');
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const settingsFile = path.join(folder.uri.fsPath, '.vscode', 'settings.json');
    const original = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : undefined;
    try {
      // What a cloned repository could ship: history off and shrunk. Ignored; maxTurns applies.
      fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
      fs.writeFileSync(settingsFile, JSON.stringify({ 'claudeMemory.maxTurns': 7, 'claudeMemory.history.enabled': false, 'claudeMemory.history.maxVersionsPerFile': 1 }));
      await wait('maxTurns from the workspace file', () => (api.services.settings.get('maxTurns') === 7 ? true : undefined));
      assert.deepStrictEqual(history(), defaults);

      await config().update('history.maxVersionsPerFile', 5, vscode.ConfigurationTarget.Global);
      await wait('the engines rebuilt with 5 versions per file', () => {
        const h = history();
        return h !== false && h.maxVersionsPerFile === 5 ? true : undefined;
      });
      await config().update('history.enabled', false, vscode.ConfigurationTarget.Global);
      await wait('history off from user settings', () => (history() === false ? true : undefined));
    } finally {
      await config().update('history.enabled', undefined, vscode.ConfigurationTarget.Global);
      await config().update('history.maxVersionsPerFile', undefined, vscode.ConfigurationTarget.Global);
      if (original === undefined) fs.rmSync(settingsFile, { force: true });
      else fs.writeFileSync(settingsFile, original);
    }
    await wait('history back to the defaults', () => (JSON.stringify(history()) === JSON.stringify(defaults) ? true : undefined));
    await wait('maxTurns back to its default', () => (api.services.settings.get('maxTurns') === 30 ? true : undefined));
  });
});
