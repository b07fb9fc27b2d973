// Memory expiry inside the real extension host, on disk: files are aged by setting their
// modification time into the past (nothing sleeps), swept by the extension's own command as
// `delete` versions by `expiry`, and brought back by the notification's Restore function. Reads
// by an agent, pins and the checklist files keep a file; a file close to expiry gets its badge.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SweepResult } from '../../src/features/expiry/expirySweep';
import type { ClaudeMemoryApi } from '../../src/extension';
import type { MemoryStore } from '../../src/platform/memoryStores';
import { channelLogText, exists, extensionApi, findNode, primaryStore, uniqueName, waitFor } from './treeHelpers';

const DAY_MS = 24 * 60 * 60 * 1000;

suite('memory expiry', () => {
  let api: ClaudeMemoryApi;
  let store: MemoryStore;
  let dir: string;

  /** Writes a memory file the way another program would, last modified `idleDays` ago. */
  function writeAged(rel: string, content: string | Uint8Array, idleDays: number): string {
    const file = path.join(store.rootUri.fsPath, ...rel.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    age(file, idleDays);
    return file;
  }

  function age(file: string, idleDays: number): void {
    const then = new Date(Date.now() - idleDays * DAY_MS);
    fs.utimesSync(file, then, then);
  }

  /** The extension's Expire Now command: one sweep with the configured days. */
  async function sweep(): Promise<SweepResult> {
    const result = await vscode.commands.executeCommand<SweepResult | undefined>('claudeMemory.expireNow');
    assert.ok(result, 'no sweep ran (untrusted workspace, or expiry off?)');
    return result;
  }

  const sweptRels = (result: SweepResult) => result.stores.flatMap((s) => s.files.map((f) => f.rel));

  suiteSetup(async () => {
    api = await extensionApi();
    store = primaryStore(api);
    await vscode.commands.executeCommand('claudeMemory.memoryTree.focus');
    // The sweep on opening has had its turn, so it cannot take this suite's files first.
    await api.expiry.sweeper.opened;
    await api.expiry.views.ready;
    assert.strictEqual(api.services.settings.get('expiryDays'), 90);
  });

  setup(() => {
    dir = uniqueName('expiry-it');
  });

  test('an old file is swept as an expiry delete, logged, and Restore brings it back byte-exactly', async () => {
    const bytes = Buffer.from('old decision: use tabs\r\nümlaut ✓\r\n', 'utf8');
    const file = writeAged(`${dir}/old.md`, bytes, 120);
    writeAged(`${dir}/recent.md`, 'still in use', 10);

    const result = await sweep();

    assert.strictEqual(result.days, 90);
    assert.ok(sweptRels(result).includes(`${dir}/old.md`), JSON.stringify(sweptRels(result)));
    assert.ok(!sweptRels(result).includes(`${dir}/recent.md`));
    assert.ok(!fs.existsSync(file), 'the expired file is still on disk');
    assert.ok(fs.existsSync(path.join(store.rootUri.fsPath, dir, 'recent.md')));
    const swept = result.stores.flatMap((s) => s.files).find((f) => f.rel === `${dir}/old.md`);
    assert.ok(swept && swept.idleDays >= 119 && swept.version !== undefined);
    const entry = (await store.engine.history()).find((e) => e.version === swept.version);
    assert.deepStrictEqual([entry?.op, entry?.path, entry?.author.name], ['delete', `${dir}/old.md`, 'expiry']);
    await waitFor('the sweep in the output channel', () => (channelLogText(api)?.includes(`[expiry] ${store.folder.name}: expired /memories/${dir}/old.md (unused for`) ? true : undefined));

    const outcome = await api.expiry.restore(result);

    assert.ok(outcome.restored.includes(`/memories/${dir}/old.md`), JSON.stringify(outcome));
    assert.deepStrictEqual(fs.readFileSync(file), bytes);
    const restore = (await store.engine.fileHistory(`${dir}/old.md`)).at(-1);
    assert.deepStrictEqual([restore?.op, restore?.author.name], ['restore', 'user']);
  });

  test('a file an agent read within the window is kept, while an unread twin of the same age goes', async () => {
    writeAged(`${dir}/read.md`, 'looked at lately', 120);
    writeAged(`${dir}/unread.md`, 'forgotten', 120);
    const view = await store.engine.execute({ command: 'view', path: `/memories/${dir}/read.md` });
    assert.strictEqual(view.is_error, false, String(view.content));

    const result = await sweep();

    assert.deepStrictEqual(sweptRels(result).filter((r) => r.startsWith(dir)), [`${dir}/unread.md`]);
    assert.ok(await exists(vscode.Uri.joinPath(store.rootUri, dir, 'read.md')));
  });

  test('a file pinned from the tree and the checklist files never expire; Unpin makes it expirable again', async () => {
    const pinnedFile = writeAged(`${dir}/pinned.md`, 'keep forever', 200);
    const node = await waitFor('pinned.md in the tree', () => findNode(api, store, `${dir}/pinned.md`));
    assert.strictEqual(api.memoryTree.getTreeItem(node).contextValue, 'memoryFile');
    assert.strictEqual(await vscode.commands.executeCommand('claudeMemory.pin', node), true);
    const pinnedItem = api.memoryTree.getTreeItem(node);
    assert.strictEqual(pinnedItem.contextValue, 'memoryPinnedFile');
    assert.match(String(pinnedItem.description), /^pinned · 12B · /);
    assert.strictEqual((pinnedItem.iconPath as vscode.ThemeIcon).id, 'pinned');
    assert.match((pinnedItem.tooltip as vscode.MarkdownString).value, /Pinned: never expires/);

    // A checklist file at the store root, aged; restored as it was afterwards.
    const checklist = path.join(store.rootUri.fsPath, 'startup.md');
    const existed = fs.existsSync(checklist);
    const times = existed ? fs.statSync(checklist) : undefined;
    if (!existed) fs.writeFileSync(checklist, '# Start-up\n');
    try {
      age(checklist, 365);
      const result = await sweep();
      assert.ok(!sweptRels(result).includes('startup.md'), 'a checklist file expired');
      assert.ok(!sweptRels(result).includes(`${dir}/pinned.md`), 'a pinned file expired');
      assert.ok(fs.existsSync(checklist) && fs.existsSync(pinnedFile));
    } finally {
      if (!existed) fs.rmSync(checklist, { force: true });
      else if (times) fs.utimesSync(checklist, times.atime, times.mtime);
    }

    assert.strictEqual(await vscode.commands.executeCommand('claudeMemory.unpin', node), true);
    assert.strictEqual(api.memoryTree.getTreeItem(node).contextValue, 'memoryFile');
    assert.deepStrictEqual(sweptRels(await sweep()).filter((r) => r.startsWith(dir)), [`${dir}/pinned.md`]);
  });

  test('a file close to expiry gets the badge with the date, in the decoration and the tree tooltip; a pin removes it', async () => {
    writeAged(`${dir}/soon.md`, 'five days left', 85);
    writeAged(`${dir}/later.md`, 'eighty days left', 10);
    await api.expiry.views.expiry.refresh();
    const soon = vscode.Uri.joinPath(store.rootUri, dir, 'soon.md');
    const later = vscode.Uri.joinPath(store.rootUri, dir, 'later.md');

    const decoration = api.expiry.views.decorations.provideFileDecoration(soon);
    assert.ok(decoration, 'no decoration on a file five days from expiry');
    assert.strictEqual(decoration.badge, '⚠');
    const date = new Date(fs.statSync(soon.fsPath).mtimeMs + 90 * DAY_MS).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
    assert.strictEqual(decoration.tooltip, `Expires on ${date} unless Claude uses it or you pin it`);
    assert.strictEqual(api.expiry.views.decorations.provideFileDecoration(later), undefined);

    // The tree item carries the Uri VS Code decorates, and the same date in its tooltip.
    const node = await waitFor('soon.md in the tree', () => findNode(api, store, `${dir}/soon.md`));
    const item = api.memoryTree.getTreeItem(node);
    assert.strictEqual(item.resourceUri?.toString(), soon.toString());
    assert.match((item.tooltip as vscode.MarkdownString).value, new RegExp(`⚠ Expires on ${date} unless Claude uses it or you pin it`));

    const changed = new Promise<vscode.Uri[]>((resolve) => {
      const sub = api.expiry.views.decorations.onDidChangeFileDecorations((uris) => {
        sub.dispose();
        resolve(uris);
      });
    });
    await vscode.commands.executeCommand('claudeMemory.pin', node);
    assert.deepStrictEqual((await changed).map(String), [soon.toString()]);
    assert.strictEqual(api.expiry.views.decorations.provideFileDecoration(soon), undefined);
  });

  test('expiry.days: a workspace may lengthen it or turn it off (then nothing is swept), never shorten the user\'s value', async () => {
    const config = () => vscode.workspace.getConfiguration('claudeMemory');
    const setting = async (value: number | undefined, target: vscode.ConfigurationTarget, expected: number) => {
      await config().update('expiry.days', value, target);
      await waitFor(`expiryDays ${expected}`, () => (api.services.settings.get('expiryDays') === expected ? true : undefined));
    };
    writeAged(`${dir}/idle.md`, 'idle for 40 days', 40);
    try {
      await setting(30, vscode.ConfigurationTarget.Global, 30);
      // What a cloned repository could ship: a week. Ignored: the user's 30 days stand.
      await config().update('expiry.days', 7, vscode.ConfigurationTarget.Workspace);
      await waitFor('the workspace value to be read', () => (config().inspect('expiry.days')?.workspaceValue === 7 ? true : undefined));
      assert.strictEqual(api.services.settings.get('expiryDays'), 30);
      await setting(365, vscode.ConfigurationTarget.Workspace, 365);
      await setting(0, vscode.ConfigurationTarget.Workspace, 0);
      assert.strictEqual(await api.expiry.sweeper.sweep('command'), undefined, 'a sweep ran while expiry is off');
      assert.ok(fs.existsSync(path.join(store.rootUri.fsPath, dir, 'idle.md')));
      await setting(undefined, vscode.ConfigurationTarget.Workspace, 30);
      assert.deepStrictEqual(sweptRels(await sweep()).filter((r) => r.startsWith(dir)), [`${dir}/idle.md`]);
    } finally {
      await config().update('expiry.days', undefined, vscode.ConfigurationTarget.Workspace);
      await config().update('expiry.days', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('expiryDays back to 90', () => (api.services.settings.get('expiryDays') === 90 ? true : undefined));
  });
});
