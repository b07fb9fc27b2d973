import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileType, FsError, type FsErrorCode } from '../../../src/core/memory/fileSystem';
import { NodeMemoryFileSystem } from '../../../src/platform/node/nodeFileSystem';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

async function rejectsWith(p: Promise<unknown>, code: FsErrorCode): Promise<FsError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof FsError, `expected FsError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    return e;
  }
  assert.fail(`expected FsError ${code}, but it resolved`);
}

describe('NodeMemoryFileSystem', () => {
  let tmp: string;
  let store: string;
  let outside: string;
  let nfs: NodeMemoryFileSystem;

  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-nodefs-')));
    store = path.join(tmp, 'ws', '.claude-memories');
    outside = path.join(tmp, 'outside');
    fs.mkdirSync(store, { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'SENTINEL');
    nfs = new NodeMemoryFileSystem(store);
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('refuses a relative store folder', () => {
    assert.throws(() => new NodeMemoryFileSystem('rel/.claude-memories'));
  });

  describe('modes', () => {
    let oldUmask: number;
    beforeEach(() => (oldUmask = process.umask(0)));
    afterEach(() => process.umask(oldUmask));

    it('creates files 0600 and folders 0700 under umask 0', async () => {
      await nfs.createDirectory('a/b');
      await nfs.writeFile('a/b/n.md', enc('x'));
      assert.equal(fs.statSync(path.join(store, 'a')).mode & 0o777, 0o700);
      assert.equal(fs.statSync(path.join(store, 'a/b')).mode & 0o777, 0o700);
      assert.equal(fs.statSync(path.join(store, 'a/b/n.md')).mode & 0o777, 0o600);
    });

    it('creates files 0600 even under a umask that would narrow them', async () => {
      process.umask(0o277);
      await nfs.writeFile('n.md', enc('x'));
      await nfs.createDirectory('d');
      process.umask(0);
      assert.equal(fs.statSync(path.join(store, 'n.md')).mode & 0o777, 0o600);
      assert.equal(fs.statSync(path.join(store, 'd')).mode & 0o777, 0o700);
    });

    it('creates the store root 0700 and accepts it existing', async () => {
      const fresh = new NodeMemoryFileSystem(path.join(tmp, 'ws2-root'));
      await fresh.createDirectory('');
      await fresh.createDirectory('');
      assert.equal(fs.statSync(path.join(tmp, 'ws2-root')).mode & 0o777, 0o700);
    });
  });

  describe('read, write, stat, list', () => {
    it('round-trips bytes and overwrites', async () => {
      await nfs.writeFile('n.md', enc('one'));
      await nfs.writeFile('n.md', enc('two'));
      assert.equal(dec(await nfs.readFile('n.md')), 'two');
      const st = await nfs.stat('n.md');
      assert.equal(st.type, FileType.File);
      assert.equal(st.size, 3);
      assert.ok(st.mtime > 0);
    });

    it('reports the root and folders as directories', async () => {
      await nfs.createDirectory('d');
      assert.equal((await nfs.stat('')).type, FileType.Directory);
      assert.equal((await nfs.stat('d')).type, FileType.Directory);
    });

    it('lists entries with their types, links with the SymbolicLink bit', async () => {
      await nfs.createDirectory('d');
      await nfs.writeFile('f.md', enc('f'));
      fs.symlinkSync('f.md', path.join(store, 'lf'));
      fs.symlinkSync('d', path.join(store, 'ld'));
      fs.symlinkSync('nowhere', path.join(store, 'dangling'));
      fs.symlinkSync(outside, path.join(store, 'escape'));
      const listing = new Map(await nfs.readDirectory(''));
      assert.deepEqual(
        Object.fromEntries(listing),
        {
          d: FileType.Directory,
          'f.md': FileType.File,
          lf: FileType.File | FileType.SymbolicLink,
          ld: FileType.Directory | FileType.SymbolicLink,
          dangling: FileType.SymbolicLink,
          escape: FileType.SymbolicLink,
        },
      );
    });

    it('stat follows an in-store link and sets the link bit', async () => {
      await nfs.writeFile('f.md', enc('abc'));
      fs.symlinkSync('f.md', path.join(store, 'lf'));
      const st = await nfs.stat('lf');
      assert.equal(st.type, FileType.File | FileType.SymbolicLink);
      assert.equal(st.size, 3);
      assert.equal(dec(await nfs.readFile('lf')), 'abc');
    });

    it('reports a link leading out of the store as a bare link and never reads through it', async () => {
      fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(store, 'leak'));
      fs.symlinkSync(outside, path.join(store, 'dir'));
      assert.equal((await nfs.stat('leak')).type, FileType.SymbolicLink);
      assert.equal((await nfs.stat('dir')).type, FileType.SymbolicLink);
      await rejectsWith(nfs.readFile('leak'), 'NoPermissions');
      await rejectsWith(nfs.readFile('dir/secret.txt'), 'NoPermissions');
      await rejectsWith(nfs.readDirectory('dir'), 'NoPermissions');
      await rejectsWith(nfs.stat('dir/secret.txt'), 'NoPermissions');
    });

    it('never writes, creates, deletes or moves through a link leading out of the store', async () => {
      fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(store, 'leak'));
      fs.symlinkSync(outside, path.join(store, 'dir'));
      fs.symlinkSync(path.join(outside, 'new.txt'), path.join(store, 'dangling'));
      await rejectsWith(nfs.writeFile('leak', enc('pwned')), 'NoPermissions');
      await rejectsWith(nfs.writeFile('dir/secret.txt', enc('pwned')), 'NoPermissions');
      await rejectsWith(nfs.writeFile('dir/new.txt', enc('pwned')), 'NoPermissions');
      await rejectsWith(nfs.writeFile('dangling', enc('pwned')), 'NoPermissions');
      await rejectsWith(nfs.createDirectory('dir/sub'), 'NoPermissions');
      await rejectsWith(nfs.delete('dir/secret.txt', { recursive: true }), 'NoPermissions');
      await rejectsWith(nfs.rename('dir/secret.txt', 'stolen', { overwrite: false }), 'NoPermissions');
      await rejectsWith(nfs.rename('leak', 'dir/x', { overwrite: false }), 'NoPermissions');
      assert.deepEqual(fs.readdirSync(outside), ['secret.txt']);
      assert.equal(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'SENTINEL');
      // Deleting the link itself is fine: it removes the link, not the target.
      await nfs.delete('dir', { recursive: true });
      assert.deepEqual(fs.readdirSync(outside), ['secret.txt']);
    });

    it('writes through an in-store link to the in-store target', async () => {
      await nfs.writeFile('f.md', enc('old'));
      fs.symlinkSync('f.md', path.join(store, 'lf'));
      await nfs.writeFile('lf', enc('new'));
      assert.equal(fs.readFileSync(path.join(store, 'f.md'), 'utf8'), 'new');
      assert.ok(fs.lstatSync(path.join(store, 'lf')).isSymbolicLink());
    });
  });

  describe('lstatChain and readDirectoryStats (the engine\'s one-pass look-ups)', () => {
    const typesOf = (stats: { type: FileType }[]) => stats.map((s) => s.type);

    it('gives the root and every existing prefix, stopping before a missing one', async () => {
      await nfs.createDirectory('a/b');
      await nfs.writeFile('a/b/n.md', enc('12345'));
      const whole = await nfs.lstatChain('a/b/n.md');
      assert.deepEqual(typesOf(whole), [FileType.Directory, FileType.Directory, FileType.Directory, FileType.File]);
      assert.equal(whole[3].size, 5);
      assert.deepEqual(typesOf(await nfs.lstatChain('a/missing/n.md')), [FileType.Directory, FileType.Directory]);
      assert.deepEqual(typesOf(await nfs.lstatChain('')), [FileType.Directory]);
    });

    it('stops after a file in the middle of the path', async () => {
      await nfs.writeFile('f.md', enc('x'));
      assert.deepEqual(typesOf(await nfs.lstatChain('f.md/below/n.md')), [FileType.Directory, FileType.File]);
    });

    it('stops at a link, in-store or escaping, with the SymbolicLink bit and never looks below it', async () => {
      await nfs.createDirectory('d');
      await nfs.writeFile('d/n.md', enc('x'));
      fs.symlinkSync('d', path.join(store, 'ld'));
      fs.symlinkSync(outside, path.join(store, 'escape'));
      const inStore = await nfs.lstatChain('ld/n.md');
      assert.equal(inStore.length, 2);
      assert.ok(inStore[1].type & FileType.SymbolicLink);
      const escaping = await nfs.lstatChain('escape/secret.txt');
      assert.equal(escaping.length, 2);
      assert.equal(escaping[1].type, FileType.SymbolicLink);
    });

    it('reports a store root that is a link as a link', async () => {
      const real = path.join(tmp, 'real-store');
      fs.mkdirSync(real);
      const linked = path.join(tmp, 'linked-store');
      fs.symlinkSync(real, linked);
      const chain = await new NodeMemoryFileSystem(linked).lstatChain('x.md');
      assert.equal(chain.length, 1);
      assert.ok(chain[0].type & FileType.SymbolicLink);
      assert.deepEqual(await new NodeMemoryFileSystem(path.join(tmp, 'no-store')).lstatChain('x.md'), []);
    });

    it('lists a folder with what stat says of each entry, links with the SymbolicLink bit', async () => {
      await nfs.createDirectory('d');
      await nfs.writeFile('f.md', enc('abc'));
      fs.symlinkSync('f.md', path.join(store, 'lf'));
      fs.symlinkSync(outside, path.join(store, 'escape'));
      const stats = new Map(await nfs.readDirectoryStats(''));
      for (const name of ['d', 'f.md', 'lf', 'escape']) assert.deepEqual(stats.get(name), await nfs.stat(name), name);
      assert.equal(stats.get('f.md')?.size, 3);
      await rejectsWith(nfs.readDirectoryStats('escape'), 'NoPermissions');
      await rejectsWith(nfs.readDirectoryStats('missing'), 'FileNotFound');
    });
  });

  describe('one operation (a folder proven once per engine command)', () => {
    /** lstat calls made by `task`, counted on node:fs itself (the module object the adapter calls through). */
    async function lstatsIn(task: () => Promise<unknown>): Promise<number> {
      const nodeFs = createRequire(__filename)('node:fs') as { lstatSync: typeof fs.lstatSync };
      const original = nodeFs.lstatSync;
      let calls = 0;
      nodeFs.lstatSync = ((...args: Parameters<typeof fs.lstatSync>) => {
        calls++;
        return original(...args);
      }) as typeof fs.lstatSync;
      try {
        await task();
      } finally {
        nodeFs.lstatSync = original;
      }
      return calls;
    }

    beforeEach(async () => {
      await nfs.createDirectory('a/b');
      await nfs.writeFile('a/b/n.md', enc('note'));
    });

    it('reads, writes and renames without looking at the folders again, and gives the same answers', async () => {
      const outsideOp = await lstatsIn(async () => {
        assert.equal(dec(await nfs.readFile('a/b/n.md')), 'note');
        await nfs.writeFile('a/b/t.md', enc('new'));
        await nfs.rename('a/b/t.md', 'a/b/n.md', { overwrite: true });
      });
      const insideOp = await lstatsIn(() =>
        nfs.operation(async () => {
          await nfs.lstatChain('a/b/n.md');
          assert.equal(dec(await nfs.readFile('a/b/n.md')), 'new');
          await nfs.writeFile('a/b/t.md', enc('newer'));
          await nfs.rename('a/b/t.md', 'a/b/n.md', { overwrite: true });
          assert.equal(dec(await nfs.readFile('a/b/n.md')), 'newer');
        }),
      );
      // The chain looks at root, a, a/b, n.md once; nothing after it looks at a folder again.
      assert.equal(insideOp, 4);
      assert.ok(outsideOp > insideOp, `${outsideOp} lstat calls outside an operation`);
    });

    it('looks again at a folder this adapter deleted or moved: a link put there is refused', async () => {
      await nfs.operation(async () => {
        assert.equal(dec(await nfs.readFile('a/b/n.md')), 'note');
        await nfs.rename('a', 'moved', { overwrite: false });
        fs.symlinkSync(outside, path.join(store, 'a'));
        await rejectsWith(nfs.readFile('a/secret.txt'), 'NoPermissions');
        await rejectsWith(nfs.writeFile('a/pwned.txt', enc('x')), 'NoPermissions');
        fs.unlinkSync(path.join(store, 'a'));
        await nfs.createDirectory('c');
        await nfs.delete('c', { recursive: true });
        fs.symlinkSync(outside, path.join(store, 'c'));
        await rejectsWith(nfs.writeFile('c/pwned.txt', enc('x')), 'NoPermissions');
        await rejectsWith(nfs.readDirectory('c'), 'NoPermissions');
      });
      assert.deepEqual(fs.readdirSync(outside), ['secret.txt']);
    });

    it('always judges the last component: a folder it proved is lstat\'ed again before it is listed, a file swapped for a link is refused', async () => {
      await nfs.operation(async () => {
        assert.deepEqual((await nfs.readDirectory('a/b')).map(([name]) => name), ['n.md']);
        // Swapped behind the adapter's back (not through it): the listing still sees the link.
        fs.renameSync(path.join(store, 'a', 'b'), path.join(store, 'a', 'old-b'));
        fs.symlinkSync(outside, path.join(store, 'a', 'b'));
        await rejectsWith(nfs.readDirectory('a/b'), 'NoPermissions');
        await rejectsWith(nfs.readDirectoryStats('a/b'), 'NoPermissions');
        assert.equal((await nfs.lstatChain('a/b')).at(-1)?.type, FileType.SymbolicLink);
        fs.writeFileSync(path.join(store, 'f.md'), 'x');
        assert.equal(dec(await nfs.readFile('f.md')), 'x');
        fs.unlinkSync(path.join(store, 'f.md'));
        fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(store, 'f.md'));
        await rejectsWith(nfs.readFile('f.md'), 'NoPermissions');
      });
    });

    it('forgets a folder under any spelling that may name it, and never remembers a name with other spellings', async () => {
      await nfs.createDirectory('Ab');
      await nfs.writeFile('Ab/n.md', enc('x'));
      await nfs.createDirectory('ab');
      await nfs.createDirectory('é');
      await nfs.writeFile('é/n.md', enc('y'));
      await nfs.operation(async () => {
        await nfs.readFile('Ab/n.md');
        assert.equal(await lstatsIn(() => nfs.readFile('Ab/n.md')), 0);
        // On a case-insensitive disk 'ab' may be 'Ab': moving it forgets 'Ab' too.
        await nfs.rename('ab', 'cd', { overwrite: false });
        assert.equal(await lstatsIn(() => nfs.readFile('Ab/n.md')), 1);
        // 'é' has other spellings (composed, decomposed, other case): looked at every time.
        await nfs.readFile('é/n.md');
        assert.equal(await lstatsIn(() => nfs.readFile('é/n.md')), 1);
        // A name that is not plain forgets everything.
        await nfs.readFile('Ab/n.md');
        await nfs.createDirectory('ü');
        await nfs.delete('ü', { recursive: true });
        assert.equal(await lstatsIn(() => nfs.readFile('Ab/n.md')), 1);
      });
    });

    it('still reads through an in-store link to its in-store target', async () => {
      fs.symlinkSync('b/n.md', path.join(store, 'a', 'ln.md'));
      await nfs.operation(async () => {
        assert.equal(dec(await nfs.readFile('a/ln.md')), 'note');
      });
      assert.equal(dec(await nfs.readFile('a/ln.md')), 'note');
    });

    it('replaces a folder or a file of the other kind when renaming with overwrite, as before', async () => {
      await nfs.writeFile('f.md', enc('file'));
      await nfs.createDirectory('d/inner');
      await nfs.rename('f.md', 'd', { overwrite: true });
      assert.equal(fs.readFileSync(path.join(store, 'd'), 'utf8'), 'file');
      await nfs.rename('a', 'd', { overwrite: true });
      assert.equal(fs.readFileSync(path.join(store, 'd', 'b', 'n.md'), 'utf8'), 'note');
      await rejectsWith(nfs.rename('missing', 'd', { overwrite: true }), 'FileNotFound');
    });
  });

  describe('error codes', () => {
    it('maps missing, existing, not-a-folder and is-a-folder', async () => {
      await nfs.writeFile('f.md', enc('x'));
      await nfs.createDirectory('d');
      await rejectsWith(nfs.stat('missing'), 'FileNotFound');
      await rejectsWith(nfs.readFile('missing'), 'FileNotFound');
      await rejectsWith(nfs.readDirectory('missing'), 'FileNotFound');
      await rejectsWith(nfs.writeFile('nofolder/x.md', enc('x')), 'FileNotFound');
      await rejectsWith(nfs.delete('missing', { recursive: false }), 'FileNotFound');
      await rejectsWith(nfs.rename('missing', 'x', { overwrite: false }), 'FileNotFound');
      await rejectsWith(nfs.readFile('f.md/x'), 'FileNotADirectory');
      await rejectsWith(nfs.readDirectory('f.md'), 'FileNotADirectory');
      await rejectsWith(nfs.readFile('d'), 'FileIsADirectory');
      await rejectsWith(nfs.writeFile('d', enc('x')), 'FileIsADirectory');
      await rejectsWith(nfs.createDirectory('f.md'), 'FileExists');
    });

    it('maps permission errors to NoPermissions', async function () {
      if (process.getuid?.() === 0) this.skip(); // root ignores permission bits
      await nfs.createDirectory('locked');
      await nfs.writeFile('locked/f.md', enc('x'));
      fs.chmodSync(path.join(store, 'locked'), 0o500);
      try {
        await rejectsWith(nfs.writeFile('locked/g.md', enc('x')), 'NoPermissions');
      } finally {
        fs.chmodSync(path.join(store, 'locked'), 0o700);
      }
    });

    it('does not put the host path into error messages', async () => {
      const e = await rejectsWith(nfs.readFile('missing/deep.md'), 'FileNotFound');
      assert.ok(!e.message.includes(tmp), e.message);
    });
  });

  describe('delete', () => {
    it('deletes files, empty folders, and full folders only when recursive', async () => {
      await nfs.createDirectory('d/e');
      await nfs.writeFile('d/e/f.md', enc('x'));
      await nfs.writeFile('g.md', enc('x'));
      await nfs.delete('g.md', { recursive: false });
      await rejectsWith(nfs.delete('d', { recursive: false }), 'Unknown');
      await nfs.delete('d', { recursive: true });
      await nfs.createDirectory('empty');
      await nfs.delete('empty', { recursive: false });
      assert.deepEqual(fs.readdirSync(store), []);
    });

    it('never deletes the root', async () => {
      await rejectsWith(nfs.delete('', { recursive: true }), 'NoPermissions');
      assert.ok(fs.existsSync(store));
    });
  });

  describe('rename', () => {
    it('refuses an existing target without overwrite and leaves both intact', async () => {
      await nfs.writeFile('a.md', enc('a'));
      await nfs.writeFile('b.md', enc('b'));
      await rejectsWith(nfs.rename('a.md', 'b.md', { overwrite: false }), 'FileExists');
      assert.equal(fs.readFileSync(path.join(store, 'a.md'), 'utf8'), 'a');
      assert.equal(fs.readFileSync(path.join(store, 'b.md'), 'utf8'), 'b');
    });

    it('treats an existing dangling link as an existing target', async () => {
      await nfs.writeFile('a.md', enc('a'));
      fs.symlinkSync('nowhere', path.join(store, 'b.md'));
      await rejectsWith(nfs.rename('a.md', 'b.md', { overwrite: false }), 'FileExists');
    });

    it('overwrites files and folders when asked', async () => {
      await nfs.writeFile('a.md', enc('a'));
      await nfs.writeFile('b.md', enc('b'));
      await nfs.rename('a.md', 'b.md', { overwrite: true });
      assert.equal(fs.readFileSync(path.join(store, 'b.md'), 'utf8'), 'a');
      await nfs.createDirectory('src/x');
      await nfs.createDirectory('dst/y');
      await nfs.rename('src', 'dst', { overwrite: true });
      assert.deepEqual(fs.readdirSync(path.join(store, 'dst')), ['x']);
    });

    it('moves into an existing folder and does not create missing parents', async () => {
      await nfs.writeFile('a.md', enc('a'));
      await nfs.createDirectory('d');
      await nfs.rename('a.md', 'd/a.md', { overwrite: false });
      assert.equal(fs.readFileSync(path.join(store, 'd/a.md'), 'utf8'), 'a');
      await rejectsWith(nfs.rename('d/a.md', 'new/a.md', { overwrite: false }), 'FileNotFound');
      assert.ok(!fs.existsSync(path.join(store, 'new')));
    });

    it('never moves the root or onto the root', async () => {
      await nfs.writeFile('a.md', enc('a'));
      await rejectsWith(nfs.rename('', 'x', { overwrite: true }), 'NoPermissions');
      await rejectsWith(nfs.rename('a.md', '', { overwrite: true }), 'NoPermissions');
    });
  });

  describe('special files planted in the store', () => {
    it('refuses a FIFO for readFile, readFrom and append without waiting for a writer, and a folder as a folder', async function () {
      if (process.platform === 'win32') this.skip();
      const fifo = path.join(store, 'pipe.md');
      execFileSync('mkfifo', [fifo]);
      // Each call returns (a blocking open of a FIFO would hang the test, and the CLI, forever).
      const err = await rejectsWith(nfs.readFile('pipe.md'), 'NoPermissions');
      assert.match(err.message, /not a regular file/);
      await rejectsWith(nfs.readFrom('pipe.md', 0), 'NoPermissions');
      await assert.rejects(nfs.append('pipe.md', enc('x')));
      assert.ok(fs.lstatSync(fifo).isFIFO(), 'the FIFO is still there, untouched');
      fs.mkdirSync(path.join(store, 'dir'));
      await rejectsWith(nfs.readFile('dir'), 'FileIsADirectory');
    });

    it('reads and appends exactly the bytes of regular files, large ones too', async () => {
      const big = new Uint8Array(3 * 1024 * 1024).map((_, i) => i % 251);
      await nfs.writeFile('big.bin', big);
      assert.deepEqual(new Uint8Array(await nfs.readFile('big.bin')), big);
      await nfs.writeFile('j', enc('ab'));
      await nfs.append('j', enc('cd'));
      assert.equal(dec(await nfs.readFile('j')), 'abcd');
      assert.equal(dec(await nfs.readFrom('j', 1)), 'bcd');
      assert.equal((await nfs.readFrom('j', 9)).length, 0);
      await rejectsWith(nfs.append('missing', enc('x')), 'FileNotFound');
    });
  });

  describe('non-canonical paths (defence in depth)', () => {
    const bad = ['..', '../outside/secret.txt', 'a/../../outside', '/etc/passwd', 'a\\..\\b', 'a\0b', './a', 'a/./b', 'a//b', 'a/', 'C:/x'];
    for (const p of bad) {
      it(`refuses ${JSON.stringify(p)} for every operation`, async () => {
        await rejectsWith(nfs.stat(p), 'NoPermissions');
        await rejectsWith(nfs.readDirectory(p), 'NoPermissions');
        await rejectsWith(nfs.readFile(p), 'NoPermissions');
        await rejectsWith(nfs.writeFile(p, enc('x')), 'NoPermissions');
        await rejectsWith(nfs.delete(p, { recursive: true }), 'NoPermissions');
        await rejectsWith(nfs.rename(p, 'x', { overwrite: true }), 'NoPermissions');
        await rejectsWith(nfs.rename('x', p, { overwrite: true }), 'NoPermissions');
        await rejectsWith(nfs.createDirectory(p), 'NoPermissions');
      });
    }
  });
});

describe('toFsError', () => {
  it('maps Node error codes to FsError codes', async () => {
    const { toFsError } = await import('../../../src/platform/node/fsErrors');
    const cases: [string, FsErrorCode][] = [
      ['ENOENT', 'FileNotFound'],
      ['EEXIST', 'FileExists'],
      ['ENOTDIR', 'FileNotADirectory'],
      ['EISDIR', 'FileIsADirectory'],
      ['EACCES', 'NoPermissions'],
      ['EPERM', 'NoPermissions'],
      ['ELOOP', 'NoPermissions'],
      ['ENOTEMPTY', 'Unknown'],
      ['EINVAL', 'Unknown'],
    ];
    for (const [node, code] of cases) {
      const err = Object.assign(new Error(`${node}: /home/someone/secret path`), { code: node });
      const mapped = toFsError(err, 'readFile', 'a.md');
      assert.equal(mapped.code, code, node);
      assert.ok(!mapped.message.includes('/home/someone'), mapped.message);
    }
    assert.equal(toFsError(new Error('no code'), 'stat', '').code, 'Unknown');
  });
});
