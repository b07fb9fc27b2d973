// The Memory Changes feed inside the real extension host: writes of any author appear newest
// first with a badge; Undo asks before later work on the file goes, and does nothing on No; an
// expiry sweep is one row whose Restore brings every file back byte for byte.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ClaudeMemoryApi } from '../../src/extension';
import type { MemoryStore } from '../../src/platform/memoryStores';
import type { ChangeNode, FeedNode } from '../../src/features/changes/changeFeedProvider';
import { exists, extensionApi, primaryStore, scriptedPrompts, text, uniqueName, waitFor, withPrompts } from './treeHelpers';

suite('Memory Changes feed', () => {
  let api: ClaudeMemoryApi;
  let store: MemoryStore;
  let dir: string;

  const rowOf = (path: string, op: string): ChangeNode | undefined =>
    api.changeFeed.provider.rows().find((r): r is ChangeNode => r.kind === 'change' && r.entry.path === path && r.entry.op === op);

  suiteSetup(async () => {
    api = await extensionApi();
    store = primaryStore(api);
  });

  setup(() => {
    dir = uniqueName('feed-it');
  });

  test('writes appear newest first and count in the badge; Undo asks when later work would go, and No changes nothing', async () => {
    const file = `${dir}/notes.md`;
    assert.strictEqual((await store.engine.execute({ command: 'create', path: `/memories/${file}`, file_text: 'one\n' }, undefined, { name: 'run' })).is_error, false);
    assert.strictEqual((await store.engine.execute({ command: 'str_replace', path: `/memories/${file}`, old_str: 'one', new_str: 'two' }, undefined, { name: 'mcp:Claude Code' })).is_error, false);
    const edit = await waitFor('the str_replace row', () => rowOf(file, 'str_replace'));
    const create = rowOf(file, 'create');
    assert.ok(create);
    const rows = api.changeFeed.provider.rows();
    assert.ok(rows.indexOf(edit) < rows.indexOf(create), 'newest first');
    assert.match(String(api.changeFeed.provider.getTreeItem(edit).description), /^● just now · MCP client 'Claude Code'$/);
    assert.ok((api.changeFeed.view.badge?.value ?? 0) >= 2);

    const uri = vscode.Uri.joinPath(store.rootUri, dir, 'notes.md');
    const no = scriptedPrompts({ confirms: [false] });
    await withPrompts(api, no, () => vscode.commands.executeCommand('claudeMemory.changes.undo', create));
    assert.deepStrictEqual(no.asked, [`confirm:Undo the change to ${file} (created)?`]);
    assert.strictEqual(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), 'two\n', 'No: nothing undone');

    const yes = scriptedPrompts({ confirms: [true] });
    await withPrompts(api, yes, () => vscode.commands.executeCommand('claudeMemory.changes.undo', create));
    assert.strictEqual(yes.asked.length, 1);
    assert.strictEqual(await exists(uri), false, 'undoing the create removed the file');
    await waitFor('the undo as a row of yours', () => api.changeFeed.provider.rows().find((r) => r.kind === 'change' && r.entry.path === file && r.entry.op === 'delete' && r.entry.author.name === 'user'));

    await vscode.commands.executeCommand('claudeMemory.changes.markAllReviewed');
    assert.strictEqual(api.changeFeed.view.badge, undefined);
  });

  test("a change's diff opens its previous version and this one as read-only version documents (an empty side for a create)", async () => {
    const file = `${dir}/diffed.md`;
    assert.strictEqual((await store.engine.execute({ command: 'create', path: `/memories/${file}`, file_text: 'before\n' })).is_error, false);
    assert.strictEqual((await store.engine.execute({ command: 'str_replace', path: `/memories/${file}`, old_str: 'before', new_str: 'after' })).is_error, false);
    const sidesOfActiveDiff = async (): Promise<string[]> => {
      const input = await waitFor('a diff tab in front', () => {
        const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
        return tab instanceof vscode.TabInputTextDiff && tab.modified.path.includes(dir) ? tab : undefined;
      });
      const docs = await Promise.all([input.original, input.modified].map((u) => vscode.workspace.openTextDocument(u)));
      assert.deepStrictEqual(docs.map((d) => d.uri.scheme), ['claude-memory-version', 'claude-memory-version'], 'both sides are version documents');
      return docs.map((d) => d.getText());
    };
    await vscode.commands.executeCommand('claudeMemory.changes.open', await waitFor('the edit row', () => rowOf(file, 'str_replace')));
    assert.deepStrictEqual(await sidesOfActiveDiff(), ['before\n', 'after\n']);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await vscode.commands.executeCommand('claudeMemory.changes.open', rowOf(file, 'create'));
    assert.deepStrictEqual(await sidesOfActiveDiff(), ['', 'before\n']);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('an expiry sweep is one row ("2 memories expired"); its Restore brings both files back byte for byte', async () => {
    const files = { [`${dir}/a.md`]: 'alpha\n', [`${dir}/b.md`]: 'beta\n' };
    for (const [rel, content] of Object.entries(files)) assert.ok(await store.engine.createFile(rel, text(content)));
    const keep = (await store.engine.fileUses()).map((u) => u.rel).filter((rel) => !(rel in files));
    await new Promise((r) => setTimeout(r, 5));
    // A tiny idle limit expires just these two files (everything else is kept).
    const expired = await store.engine.expire({ days: 1e-9, keep });
    assert.deepStrictEqual(expired.map((e) => e.rel).sort(), Object.keys(files).sort());
    const sweep = await waitFor('the sweep row', () =>
      api.changeFeed.provider.rows().find((r): r is Extract<FeedNode, { kind: 'expiry' }> => r.kind === 'expiry' && r.entries.filter((e) => e.entry.path in files).length === 2),
    );
    // Not reviewed yet: the label is highlighted.
    assert.deepStrictEqual(api.changeFeed.provider.getTreeItem(sweep).label, { label: '2 memories expired', highlights: [[0, 18]] });
    assert.deepStrictEqual(api.changeFeed.provider.getChildren(sweep).map((c) => api.changeFeed.provider.getTreeItem(c).contextValue), ['memoryExpired', 'memoryExpired']);

    await vscode.commands.executeCommand('claudeMemory.changes.restoreExpired', sweep);
    for (const [rel, content] of Object.entries(files)) {
      const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(store.rootUri, ...rel.split('/')));
      assert.strictEqual(new TextDecoder().decode(bytes), content, `${rel} restored`);
    }
  });
});
