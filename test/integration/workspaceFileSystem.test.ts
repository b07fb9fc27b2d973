// WorkspaceMemoryFileSystem over a non-file scheme (an in-memory FileSystemProvider, as a remote
// or virtual workspace would be): the engine works through it, errors map to FsError codes, and
// paths that are not canonical store paths are refused before they reach VS Code.
import * as assert from 'assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FsError, FileType } from '../../src/core/memory/fileSystem';
import { MemoryEngine } from '../../src/core/memory/engine';
import { storeLockFor } from '../../src/platform/storeLockFor';
import { WorkspaceMemoryFileSystem } from '../../src/platform/workspaceFileSystem';

type Entry = { type: vscode.FileType.File; data: Uint8Array; mtime: number } | { type: vscode.FileType.Directory; mtime: number };

/** Just enough of a file system provider: flat map of paths, VS Code's own FileSystemErrors. */
class MapFileSystemProvider implements vscode.FileSystemProvider {
  readonly entries = new Map<string, Entry>([['/', { type: vscode.FileType.Directory, mtime: Date.now() }]]);
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  stat(uri: vscode.Uri): vscode.FileStat {
    const e = this.get(uri);
    return { type: e.type, ctime: e.mtime, mtime: e.mtime, size: e.type === vscode.FileType.File ? e.data.length : 0 };
  }
  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    if (this.get(uri).type !== vscode.FileType.Directory) throw vscode.FileSystemError.FileNotADirectory(uri);
    const prefix = uri.path === '/' ? '/' : `${uri.path}/`;
    return [...this.entries].filter(([p]) => p !== prefix && p.startsWith(prefix) && !p.slice(prefix.length).includes('/')).map(([p, e]) => [p.slice(prefix.length), e.type]);
  }
  createDirectory(uri: vscode.Uri): void {
    this.parent(uri);
    if (this.entries.has(uri.path)) throw vscode.FileSystemError.FileExists(uri);
    this.entries.set(uri.path, { type: vscode.FileType.Directory, mtime: Date.now() });
  }
  readFile(uri: vscode.Uri): Uint8Array {
    const e = this.get(uri);
    if (e.type !== vscode.FileType.File) throw vscode.FileSystemError.FileIsADirectory(uri);
    return e.data;
  }
  writeFile(uri: vscode.Uri, data: Uint8Array, options: { create: boolean; overwrite: boolean }): void {
    this.parent(uri);
    const e = this.entries.get(uri.path);
    if (e?.type === vscode.FileType.Directory) throw vscode.FileSystemError.FileIsADirectory(uri);
    if (!e && !options.create) throw vscode.FileSystemError.FileNotFound(uri);
    if (e && !options.overwrite) throw vscode.FileSystemError.FileExists(uri);
    this.entries.set(uri.path, { type: vscode.FileType.File, data, mtime: Date.now() });
    // Open documents reload on these events, as they do for a real disk's watcher.
    this.emitter.fire([{ type: e ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }
  delete(uri: vscode.Uri): void {
    this.get(uri);
    for (const p of [...this.entries.keys()]) if (p === uri.path || p.startsWith(`${uri.path}/`)) this.entries.delete(p);
  }
  /** Every rename, as `from -> to` paths: the tests tell an in-place write from a replacement. */
  readonly renames: string[] = [];
  rename(from: vscode.Uri, to: vscode.Uri, options: { overwrite: boolean }): void {
    this.renames.push(`${from.path} -> ${to.path}`);
    this.get(from);
    this.parent(to);
    if (this.entries.has(to.path) && !options.overwrite) throw vscode.FileSystemError.FileExists(to);
    for (const [p, e] of [...this.entries]) {
      if (p === from.path || p.startsWith(`${from.path}/`)) {
        this.entries.delete(p);
        this.entries.set(to.path + p.slice(from.path.length), e);
      }
    }
  }
  private get(uri: vscode.Uri): Entry {
    const e = this.entries.get(uri.path === '' ? '/' : uri.path);
    if (!e) throw vscode.FileSystemError.FileNotFound(uri);
    return e;
  }
  private parent(uri: vscode.Uri): void {
    const parent = uri.path.slice(0, uri.path.lastIndexOf('/')) || '/';
    if (this.entries.get(parent)?.type !== vscode.FileType.Directory) throw vscode.FileSystemError.FileNotFound(uri.with({ path: parent }));
  }
}

suite('WorkspaceMemoryFileSystem on a virtual scheme', () => {
  const scheme = 'cwm-test';
  const provider = new MapFileSystemProvider();
  let registration: vscode.Disposable;
  const root = vscode.Uri.from({ scheme, path: '/project/.claude-memories' });

  suiteSetup(() => {
    registration = vscode.workspace.registerFileSystemProvider(scheme, provider);
    provider.entries.set('/project', { type: vscode.FileType.Directory, mtime: Date.now() });
  });
  suiteTeardown(() => registration.dispose());

  test('the memory engine runs through it', async () => {
    const engine = new MemoryEngine(new WorkspaceMemoryFileSystem(root));
    const create = await engine.execute({ command: 'create', path: '/memories/notes/a.md', file_text: 'line one\nline two\n' });
    assert.strictEqual(create.is_error, false, JSON.stringify(create.content));
    const view = await engine.execute({ command: 'view', path: '/memories/notes/a.md' });
    assert.match(String(view.content), /^Here's the content of \/memories\/notes\/a\.md with line numbers:\n {5}1\tline one\n {5}2\tline two/);
    const rename = await engine.execute({ command: 'rename', old_path: '/memories/notes/a.md', new_path: '/memories/b.md' });
    assert.strictEqual(rename.content, 'Successfully renamed /memories/notes/a.md to /memories/b.md');
    assert.ok(provider.entries.has('/project/.claude-memories/b.md'));
    const del = await engine.execute({ command: 'delete', path: '/memories/notes' });
    assert.strictEqual(del.content, 'Successfully deleted /memories/notes');
    const memory = [...provider.entries.keys()].filter((p) => p.startsWith('/project/') && !p.startsWith('/project/.claude-memories/.meta'));
    assert.deepStrictEqual(memory.sort(), ['/project/.claude-memories', '/project/.claude-memories/b.md']);
    // The engine kept its history there too: a virtual store records versions like a disk one.
    assert.ok(provider.entries.has('/project/.claude-memories/.meta/history/journal-000001'));
  });

  test('maps FileSystemErrors to FsError codes and keeps writeFile from creating parents', async () => {
    const fs = new WorkspaceMemoryFileSystem(root);
    await fs.createDirectory('');
    const code = async (op: Promise<unknown>) => op.then(() => 'ok', (e: unknown) => (e instanceof FsError ? e.code : `not an FsError: ${String(e)}`));
    assert.strictEqual(await code(fs.stat('missing.md')), 'FileNotFound');
    assert.strictEqual(await code(fs.writeFile('no/such/dir.md', new Uint8Array([1]))), 'FileNotFound');
    assert.ok(!provider.entries.has('/project/.claude-memories/no'), 'writeFile created a parent folder');
    await fs.writeFile('x.md', new Uint8Array([1]));
    await fs.writeFile('y.md', new Uint8Array([2]));
    assert.strictEqual(await code(fs.rename('x.md', 'y.md', { overwrite: false })), 'FileExists');
    await fs.delete('y.md', { recursive: false });
    assert.strictEqual(await code(fs.readFile('')), 'FileIsADirectory');
    const [entry] = (await fs.readDirectory('')).filter(([n]) => n === 'x.md');
    assert.deepStrictEqual(entry, ['x.md', FileType.File]);
  });

  test('refuses non-canonical paths before touching the provider', async () => {
    const fs = new WorkspaceMemoryFileSystem(root);
    for (const bad of ['../escape.md', '/etc/passwd', 'a\\b', 'a//b', './a', 'a/..']) {
      await assert.rejects(fs.writeFile(bad, new Uint8Array([1])), (e: unknown) => e instanceof FsError && e.code === 'NoPermissions', bad);
    }
    assert.ok(![...provider.entries.keys()].some((p) => p.includes('escape') || p === '/project/a'));
  });

  test('a read-only store refuses every change', async () => {
    const fs = new WorkspaceMemoryFileSystem(root, { canWrite: () => false });
    const before = [...provider.entries.keys()].sort();
    for (const op of [fs.writeFile('r.md', new Uint8Array()), fs.createDirectory('d'), fs.delete('x.md', { recursive: false }), fs.rename('x.md', 'y.md', { overwrite: false })]) {
      await assert.rejects(op, (e: unknown) => e instanceof FsError && e.code === 'NoPermissions');
    }
    assert.deepStrictEqual([...provider.entries.keys()].sort(), before);
    assert.strictEqual((await fs.stat('x.md')).size, 1);
  });

  test('Claude\'s edit of a file open in an editor writes in place: the editor stays open and shows it', async () => {
    const engine = new MemoryEngine(new WorkspaceMemoryFileSystem(root));
    await engine.execute({ command: 'create', path: '/memories/open.md', file_text: 'colour: teal\n' });
    await engine.execute({ command: 'create', path: '/memories/closed.md', file_text: 'colour: teal\n' });
    const uri = root.with({ path: `${root.path}/open.md` });
    const editor = await vscode.window.showTextDocument(uri);
    provider.renames.length = 0;
    try {
      const edit = await engine.execute({ command: 'str_replace', path: '/memories/open.md', old_str: 'teal', new_str: 'green' });
      assert.strictEqual(edit.is_error, false, JSON.stringify(edit.content));
      // History's own files (in the private .meta folder) are replaced by renames; the memory file is not.
      assert.deepStrictEqual(provider.renames.filter((r) => !r.includes('/.meta/')), [], 'no rename replaced the open file');
      assert.ok(![...provider.entries.keys()].some((p) => p.includes('.~tmp-')), 'the temp file is gone');
      await waitUntil(() => editor.document.getText() === 'colour: green\n', 'the open document shows the edit');
      const open = vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());
      assert.ok(open, 'the editor tab is still open');

      // A file no editor shows is still replaced atomically (write to a temp file, rename over).
      provider.renames.length = 0;
      await engine.execute({ command: 'str_replace', path: '/memories/closed.md', old_str: 'teal', new_str: 'green' });
      const memoryRenames = provider.renames.filter((r) => !r.includes('/.meta/'));
      assert.strictEqual(memoryRenames.length, 1);
      assert.match(memoryRenames[0], /\.~tmp-.* -> \/project\/\.claude-memories\/closed\.md$/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});

suite('WorkspaceMemoryFileSystem: a memory folder that is a symbolic link', () => {
  const refused = (e: unknown) => e instanceof FsError && e.code === 'NoPermissions' && /symbolic link/.test(e.message);

  test('on disk (what a cloned repository ships): the engine, its store lock and the adapter make nothing where it leads', async function () {
    if (process.platform === 'win32') this.skip();
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cwm-linked-root-')));
    try {
      for (const target of ['elsewhere', 'missing']) {
        const ws = path.join(base, `ws-${target}`);
        fs.mkdirSync(ws);
        const outside = path.join(base, target);
        if (target === 'elsewhere') fs.mkdirSync(outside);
        fs.symlinkSync(outside, path.join(ws, '.claude-memories'));
        const rootUri = vscode.Uri.file(path.join(ws, '.claude-memories'));
        const wfs = new WorkspaceMemoryFileSystem(rootUri);
        const engine = new MemoryEngine(wfs, { storeLock: storeLockFor(rootUri, () => true) });
        const create = await engine.execute({ command: 'create', path: '/memories/a.md', file_text: 'x' });
        assert.strictEqual(create.is_error, true);
        await engine.ensureRoot().catch(() => undefined);
        for (const op of [wfs.createDirectory(''), wfs.writeFile('a.md', new Uint8Array([1])), wfs.createDirectory('d'), wfs.append!('.meta/j', new Uint8Array([1]))]) await assert.rejects(op, refused);
        if (target === 'elsewhere') assert.deepStrictEqual(fs.readdirSync(outside), [], 'something was made through the link');
        else assert.strictEqual(fs.existsSync(outside), false, 'the link target was made');
      }
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  test('on a virtual scheme: a root the provider reports as a link is written through never', async () => {
    const scheme = 'cwm-linked';
    const provider = new MapFileSystemProvider();
    const registration = vscode.workspace.registerFileSystemProvider(scheme, provider);
    try {
      provider.entries.set('/project', { type: vscode.FileType.Directory, mtime: Date.now() });
      provider.entries.set('/project/.claude-memories', { type: (vscode.FileType.Directory | vscode.FileType.SymbolicLink) as vscode.FileType.Directory, mtime: Date.now() });
      const wfs = new WorkspaceMemoryFileSystem(vscode.Uri.from({ scheme, path: '/project/.claude-memories' }));
      for (const op of [wfs.writeFile('a.md', new Uint8Array([1])), wfs.createDirectory('d')]) await assert.rejects(op, refused);
      assert.deepStrictEqual([...provider.entries.keys()].sort(), ['/', '/project', '/project/.claude-memories']);
    } finally {
      registration.dispose();
    }
  });
});

async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(condition(), `timed out waiting until ${what}`);
}
