// The Memory tree inside the real extension host: it lists what the engine and the user write,
// notices changes by itself (file watcher), marks and reveals what the agent touched, and its
// rename/delete commands act on the disk with validation and confirmation.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ClaudeMemoryApi } from '../../src/extension';
import type { MemoryStore } from '../../src/platform/memoryStores';
import {
  exists, extensionApi, findNode, primaryStore, scriptedPrompts, text, uniqueName, waitFor, withPrompts,
} from './treeHelpers';

suite('Memory tree', () => {
  let api: ClaudeMemoryApi;
  let store: MemoryStore;
  let dir: string;

  suiteSetup(async () => {
    api = await extensionApi();
    store = primaryStore(api);
    // Tree providers run once their view is shown.
    await vscode.commands.executeCommand('claudeMemory.memoryTree.focus');
  });

  setup(() => {
    dir = uniqueName('tree-it');
  });

  test('a file created by the engine appears with size and age, under a root for the workspace folder', async () => {
    const result = await store.engine.execute({ command: 'create', path: `/memories/${dir}/from-engine.md`, file_text: 'hello tree\n' });
    assert.strictEqual(result.is_error, false, JSON.stringify(result.content));
    const node = await waitFor('the engine-written file in the tree', () => findNode(api, store, `${dir}/from-engine.md`));
    assert.strictEqual(node.kind, 'file');
    const item = api.memoryTree.getTreeItem(node);
    assert.strictEqual(item.contextValue, 'memoryFile');
    assert.match(String(item.description), /^11B · just now$/);
    assert.deepStrictEqual(item.command?.command, 'vscode.open');
    assert.strictEqual((item.command?.arguments?.[0] as vscode.Uri).toString(), vscode.Uri.joinPath(store.rootUri, dir, 'from-engine.md').toString());

    const roots = await api.memoryTree.getChildren();
    assert.strictEqual(roots.length, vscode.workspace.workspaceFolders?.length);
    const rootItem = api.memoryTree.getTreeItem(roots[0]);
    assert.strictEqual(rootItem.contextValue, 'memoryRoot');
    assert.strictEqual(rootItem.label, store.folder.name);
  });

  test('one agent write refreshes the Memory tree once and reloads Memory Changes once', async () => {
    const changes = api.services.storeChanges;
    const counted = { treeRefreshes: 0, historyReloads: 0 };
    const seen: string[] = [];
    const where = (u: vscode.Uri) => vscode.workspace.asRelativePath(u);
    /** The first event that `wanted`; on timeout, says what it waited for and which store changes it saw. */
    const firstOf = <T>(what: string, event: vscode.Event<T>, wanted: (e: T) => boolean): Promise<T> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          sub.dispose();
          reject(new Error(`no ${what} within 15 s; store changes seen: ${seen.join(' | ') || 'none'}`));
        }, 15_000);
        const sub = event((e) => {
          if (!wanted(e)) return;
          clearTimeout(timer);
          sub.dispose();
          resolve(e);
        });
      });
    const file = vscode.Uri.joinPath(store.rootUri, dir, 'counted.md');
    // Markers are dot-names, which no view shows.
    const marker = vscode.Uri.joinPath(store.rootUri, dir, '.count-end');
    // Not counted: the store's first write in a fresh workspace also creates the memory folder and
    // `.meta` (the lock makes them, unreported by the engine), and the watcher's report of the new
    // folder makes history take the files already there as the user's (what noticeChange('') does
    // here at once). A hand write closes the warm-up.
    const warmup = await store.engine.execute({ command: 'create', path: `/memories/${dir}/warm-up.md`, file_text: 'warm-up\n' });
    assert.strictEqual(warmup.is_error, false, JSON.stringify(warmup.content));
    const warmupMarker = vscode.Uri.joinPath(store.rootUri, dir, '.count-start');
    const warmedUp = firstOf('store change of the warm-up marker', changes.onDidChange, (c) => c.uris.some((u) => u.toString() === warmupMarker.toString()));
    await vscode.workspace.fs.writeFile(warmupMarker, text('marker\n'));
    await warmedUp;
    // History records the hand-written marker as the user's (after its debounce): that change too,
    // and the tree's and Memory Changes' redraws for it. (The views' minute age refresh skips a
    // view redrawn within the minute, so it cannot fall into the count.)
    await firstOf('the recording of the warm-up marker', changes.onDidChange, (c) => c.ownWrite);
    await Promise.all([api.memoryTree.whenIdle(), api.changeFeed.provider.whenIdle()]);
    const subs = [
      changes.onDidChange((c) => seen.push(`${c.ownWrite ? 'own write' : 'watcher'}: ${c.uris.map(where).join(', ')}`)),
      // A whole-tree refresh; redrawing the one row the "touched" mark moved to is not one.
      api.memoryTree.onDidChangeTreeData((node) => {
        if (node === undefined) counted.treeRefreshes++;
      }),
      api.changeFeed.provider.onDidLoad(() => counted.historyReloads++),
    ];
    try {
      const refreshed = firstOf('tree refresh', api.memoryTree.onDidChangeTreeData, (node) => node === undefined);
      const reloaded = firstOf('Memory Changes load', api.changeFeed.provider.onDidLoad, () => true);
      const echo = firstOf('watcher report of the write', changes.onDidSeeFile, (e) => e.uri.toString() === file.toString());
      // What the chat does for one memory tool call: the engine writes, the tool's touch marks the file.
      const result = await store.engine.execute({ command: 'create', path: `/memories/${dir}/counted.md`, file_text: 'counted\n' }, undefined, { name: 'chat' });
      assert.strictEqual(result.is_error, false, JSON.stringify(result.content));
      assert.ok(result.touched, 'a create reports the file it touched');
      api.services.memoryActivity.fire({ ...result.touched, folder: store.folder });
      await Promise.all([refreshed, reloaded, echo]);
      // A hand write after the echo closes the count: the change that carries it comes after
      // anything the agent's write set off.
      let atMarker: typeof counted | undefined;
      const markerChange = firstOf('store change of the hand-written marker', changes.onDidChange, (c) => {
        const isMarker = c.uris.some((u) => u.toString() === marker.toString());
        // Counted as the marker's change arrives, before anything it sets off.
        if (isMarker) atMarker = { ...counted };
        return isMarker;
      });
      await vscode.workspace.fs.writeFile(marker, text('marker\n'));
      await markerChange;
      const recent = (await store.engine.history()).slice(-4).map((e) => `v${e.version} ${e.op} ${e.path} by ${e.author.name}`);
      assert.deepStrictEqual(atMarker, { treeRefreshes: 1, historyReloads: 1 }, `store changes seen: ${seen.join(' | ')}; last versions: ${recent.join(', ')}`);
    } finally {
      for (const s of subs) s.dispose();
    }
  });

  test('a file written by hand appears without a refresh; dot-names stay hidden; folders sort first', async () => {
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(store.rootUri, dir, 'zz-folder'));
    // Let the tree read the folder once so a later change has to come through the watcher.
    await waitFor('the new folder', () => findNode(api, store, `${dir}/zz-folder`));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(store.rootUri, dir, 'a-by-hand.md'), text('typed by a person'));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(store.rootUri, dir, '.hidden-temp'), text('x'));
    await waitFor('the hand-written file', () => findNode(api, store, `${dir}/a-by-hand.md`));
    const folder = await findNode(api, store, dir);
    assert.ok(folder);
    const names = (await api.memoryTree.getChildren(folder)).map((n) => n.rel.slice(dir.length + 1));
    assert.deepStrictEqual(names, ['zz-folder', 'a-by-hand.md']);
  });

  test('a deletion on disk disappears from the tree', async () => {
    const uri = vscode.Uri.joinPath(store.rootUri, dir, 'short-lived.md');
    await vscode.workspace.fs.writeFile(uri, text('bye'));
    await waitFor('the file to appear', () => findNode(api, store, `${dir}/short-lived.md`));
    await vscode.workspace.fs.delete(uri);
    await waitFor('the file to disappear', async () => ((await findNode(api, store, `${dir}/short-lived.md`)) ? undefined : true));
  });

  test('the file the agent touched is marked, and its parents resolve for reveal', async () => {
    const rel = `${dir}/deep/touched.md`;
    await store.engine.execute({ command: 'create', path: `/memories/${rel}`, file_text: 'x' });
    await vscode.commands.executeCommand('claudeMemory.memoryTree.focus');
    api.services.memoryActivity.fire({ kind: 'write', path: `/memories/${rel}`, folder: store.folder });
    const node = await waitFor('the touched file', () => findNode(api, store, rel));
    assert.match(String(api.memoryTree.getTreeItem(node).description), /^✦ Claude wrote · 1B · just now$/);
    assert.strictEqual((api.memoryTree.getTreeItem(node).iconPath as vscode.ThemeIcon).id, 'sparkle');
    // The view is shown (focused just before the touch), so the touched file is revealed there,
    // without taking the user's selection.
    await waitFor('the touched file to be revealed', () => (api.memoryTreeRevealer.lastRevealed?.rel === rel ? true : undefined));
    assert.notStrictEqual(api.memoryTreeView.selection[0]?.rel, rel);
    const chain: string[] = [];
    for (let n = await api.memoryTree.getParent(node); n; n = await api.memoryTree.getParent(n)) chain.push(`${n.kind}:${n.rel}`);
    assert.deepStrictEqual(chain, [`folder:${dir}/deep`, `folder:${dir}`, 'root:']);
    // Parents are the very objects the tree listed (VS Code tracks elements by identity).
    // (Retried only because a watcher refresh in between starts a new generation of objects.)
    await waitFor('getParent to return the listed parent object', async () => {
      const listed = await findNode(api, store, rel);
      const parent = listed && (await api.memoryTree.getParent(listed));
      return parent !== undefined && parent === (await findNode(api, store, `${dir}/deep`)) ? true : undefined;
    });

    // A later touch moves the mark.
    await store.engine.execute({ command: 'create', path: `/memories/${dir}/other.md`, file_text: 'y' });
    api.services.memoryActivity.fire({ kind: 'read', path: `/memories/${dir}/other.md`, folder: store.folder });
    const other = await waitFor('the other file', () => findNode(api, store, `${dir}/other.md`));
    assert.match(String(api.memoryTree.getTreeItem(other).description), /^✦ Claude read/);
    const again = await waitFor('the first file', () => findNode(api, store, rel));
    assert.doesNotMatch(String(api.memoryTree.getTreeItem(again).description), /Claude/);

    // Listing the store (how every session starts) keeps the mark; deleting the file drops it.
    api.services.memoryActivity.fire({ kind: 'read', path: '/memories', folder: store.folder });
    assert.match(String(api.memoryTree.getTreeItem(other).description), /^✦ Claude read/);
    await store.engine.execute({ command: 'delete', path: `/memories/${dir}/other.md` });
    api.services.memoryActivity.fire({ kind: 'delete', path: `/memories/${dir}/other.md`, folder: store.folder });
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(store.rootUri, dir, 'other.md'), text('recreated by hand'));
    const recreated = await waitFor('the recreated file', () => findNode(api, store, `${dir}/other.md`));
    assert.doesNotMatch(String(api.memoryTree.getTreeItem(recreated).description), /Claude/);
  });

  test('rename from the tree renames on disk; an invalid name typed past validation changes nothing', async () => {
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(store.rootUri, dir, 'old-name.md'), text('content'));
    const node = await waitFor('old-name.md', () => findNode(api, store, `${dir}/old-name.md`));

    const bad = scriptedPrompts({ inputs: ['../escaped.md'] });
    const refused = await withPrompts(api, bad, () => vscode.commands.executeCommand('claudeMemory.rename', node));
    assert.strictEqual(refused, undefined);
    assert.ok(bad.asked.some((a) => a.startsWith('invalid:')), `validation did not object: ${bad.asked.join(' | ')}`);
    assert.ok(await exists(node.uri), 'the file was moved despite the invalid name');
    assert.ok(!(await exists(vscode.Uri.joinPath(store.rootUri, 'escaped.md'))));

    const good = scriptedPrompts({ inputs: ['new-name.md'] });
    const renamed = await withPrompts(api, good, () => vscode.commands.executeCommand<vscode.Uri>('claudeMemory.rename', node));
    assert.strictEqual(renamed?.toString(), vscode.Uri.joinPath(store.rootUri, dir, 'new-name.md').toString());
    assert.ok(!(await exists(node.uri)));
    assert.strictEqual(new TextDecoder().decode(await vscode.workspace.fs.readFile(renamed)), 'content');
    await waitFor('the renamed file in the tree', () => findNode(api, store, `${dir}/new-name.md`));
  });

  test('rename never replaces an existing file', async () => {
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(store.rootUri, dir, 'one.md'), text('1'));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(store.rootUri, dir, 'two.md'), text('2'));
    const one = await waitFor('one.md', () => findNode(api, store, `${dir}/one.md`));
    const prompts = scriptedPrompts({ inputs: ['two.md'] });
    const result = await withPrompts(api, prompts, () => vscode.commands.executeCommand('claudeMemory.rename', one));
    assert.strictEqual(result, undefined);
    assert.ok(prompts.asked.some((a) => /already exists/.test(a)), prompts.asked.join(' | '));
    assert.strictEqual(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(store.rootUri, dir, 'two.md'))), '2');
    assert.ok(await exists(one.uri));
  });

  test('delete asks first: "no" keeps the folder, "yes" removes it with everything in it', async () => {
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(store.rootUri, dir, 'doomed', 'inner', 'file.md'), text('z'));
    const folder = await waitFor('the doomed folder', () => findNode(api, store, `${dir}/doomed`));

    const no = scriptedPrompts({ confirms: [false] });
    assert.strictEqual(await withPrompts(api, no, () => vscode.commands.executeCommand('claudeMemory.delete', folder)), false);
    assert.match(no.asked[0], /^confirm:Delete folder 'doomed' and everything in it\?$/);
    // History is on: Recently Deleted brings it back, so the dialog says where, not "cannot be undone".
    assert.match(no.details[0], /can be restored from Recently Deleted in the Memory view/);
    assert.doesNotMatch(no.details[0], /cannot be undone/);
    assert.ok(await exists(folder.uri));

    const yes = scriptedPrompts({ confirms: [true] });
    assert.strictEqual(await withPrompts(api, yes, () => vscode.commands.executeCommand('claudeMemory.delete', folder)), true);
    assert.ok(!(await exists(folder.uri)));
    await waitFor('the folder to leave the tree', async () => ((await findNode(api, store, `${dir}/doomed`)) ? undefined : true));
  });

  test('the store root itself cannot be deleted or renamed from the tree', async () => {
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(store.rootUri, dir, 'keep.md'), text('k'));
    const root = await waitFor('the root node', () => findNode(api, store, ''));
    const prompts = scriptedPrompts({ inputs: ['renamed-root'], confirms: [true] });
    await withPrompts(api, prompts, async () => {
      assert.strictEqual(await vscode.commands.executeCommand('claudeMemory.delete', root), false);
      assert.strictEqual(await vscode.commands.executeCommand('claudeMemory.rename', root), undefined);
    });
    assert.deepStrictEqual(prompts.asked, [], 'the user was asked about deleting or renaming the root');
    assert.ok(await exists(vscode.Uri.joinPath(store.rootUri, dir, 'keep.md')));
  });
});
