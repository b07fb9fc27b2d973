import * as assert from 'node:assert/strict';
import { InMemoryFileSystem } from '../../support/inMemoryFileSystem';
import { FsError, MemoryEngine } from '../../../src/core/memory';
import { failed, forEachStore, ok } from './harness';

const TRAVERSALS = [
  '/memories/../../secrets.env',
  '/memories/../outside/secret.env',
  '/memories/%2e%2e/%2e%2e/secrets.env',
  '/memories/%2e%2e%2fsecrets.env',
  '/memories/..%2fsecrets.env',
  '/memories/%252e%252e%252fsecrets.env',
  '/memories\\..\\secrets.env',
  '/memoriesX/secrets.env',
  '/memories_backup/a',
  '/etc/passwd',
  '/memories/a\u0000b',
  '/memories/a/../../x',
];

/** Every command with `p` in each path parameter. */
function commandsWith(p: string): Record<string, unknown>[] {
  return [
    { command: 'view', path: p },
    { command: 'create', path: p, file_text: 'x' },
    { command: 'str_replace', path: p, old_str: 'a', new_str: 'b' },
    { command: 'insert', path: p, insert_line: 0, insert_text: 'x' },
    { command: 'delete', path: p },
    { command: 'rename', old_path: p, new_path: '/memories/moved' },
    { command: 'rename', old_path: '/memories/victim.md', new_path: p },
  ];
}

forEachStore('security: traversal', (t) => {
  it('refuses every traversal variant in every command and changes nothing', async () => {
    await t.store.seed('victim.md', 'v');
    const before = await t.store.snapshot();
    for (const p of TRAVERSALS) {
      for (const input of commandsWith(p)) {
        const text = failed(await t.run(input));
        assert.match(text, /^Error: /, `${JSON.stringify(input)} → ${text}`);
        assert.doesNotMatch(text, /\/tmp\/|\/home\/|memory-engine-|TOP=secret/, text);
      }
    }
    assert.deepEqual(await t.store.snapshot(), before);
  });
});

forEachStore('security: symbolic links are never followed', (t) => {
  async function expectRefusedEverywhere(linkRel: string, through: string): Promise<void> {
    const before = await t.store.snapshot();
    const p = `/memories/${through}`;
    for (const input of commandsWith(p)) {
      const text = failed(await t.run(input));
      assert.equal(text, `Error: The path ${p} is or passes through a symbolic link; the memory tool does not follow links.`, JSON.stringify(input));
    }
    assert.deepEqual(await t.store.snapshot(), before, `store changed via ${linkRel}`);
  }

  it('refuses a link to a file outside the store', async () => {
    await t.store.seed('victim.md', 'v');
    await t.store.symlink('leak.env', 'outside-file');
    await expectRefusedEverywhere('leak.env', 'leak.env');
  });

  it('refuses a link to a folder outside the store, and paths through it', async () => {
    await t.store.seed('victim.md', 'v');
    await t.store.symlink('out', 'outside-dir');
    await expectRefusedEverywhere('out', 'out');
    await expectRefusedEverywhere('out', 'out/secret.env');
    await expectRefusedEverywhere('out', 'out/new.md');
  });

  it('refuses a link to a file or folder inside the store, also in a middle component', async () => {
    await t.store.seed('victim.md', 'v');
    await t.store.seed('real/target.md', 'target');
    await t.store.symlink('alias.md', { inside: 'real/target.md' });
    await t.store.symlink('sub/linked', { inside: 'real' });
    await expectRefusedEverywhere('alias.md', 'alias.md');
    await expectRefusedEverywhere('sub/linked', 'sub/linked/target.md');
    await expectRefusedEverywhere('sub/linked', 'sub/linked/new/deeper.md');
    assert.equal(await t.store.peekText('real/target.md'), 'target');
  });

  it('leaves links out of listings and never descends into them', async () => {
    await t.store.seed('real/target.md', 'target');
    await t.store.symlink('alias.md', { inside: 'real/target.md' });
    await t.store.symlink('out', 'outside-dir');
    await t.store.symlink('linkdir', { inside: 'real' });
    const text = ok(await t.run({ command: 'view', path: '/memories' }));
    assert.equal(
      text,
      "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n6B\t/memories\n6B\t/memories/real/\n6B\t/memories/real/target.md",
    );
  });

  it('refuses moving a real file onto a path through a link', async () => {
    await t.store.seed('a.md', 'A');
    await t.store.symlink('out', 'outside-dir');
    const before = await t.store.snapshot();
    assert.match(failed(await t.run({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/out/a.md' })), /symbolic link/);
    assert.deepEqual(await t.store.snapshot(), before);
  });
});

describe('security: adapter errors never reach the model', () => {
  const ops = ['stat', 'readDirectory', 'readFile', 'writeFile', 'rename', 'delete', 'createDirectory'] as const;
  for (const op of ops) {
    it(`maps a ${op} failure to a sentence without the adapter message`, async () => {
      const inputs = [
        { command: 'view', path: '/memories' },
        { command: 'view', path: '/memories/a.md' },
        { command: 'create', path: '/memories/new/c.md', file_text: 'c' },
        { command: 'str_replace', path: '/memories/a.md', old_str: 'hello', new_str: 'bye' },
        { command: 'delete', path: '/memories/d' },
        { command: 'rename', old_path: '/memories/d/b.md', new_path: '/memories/e/b.md' },
      ];
      let sawFailure = false;
      for (const input of inputs) {
        const fs = new InMemoryFileSystem();
        fs.seed('a.md', 'hello a\n');
        fs.seed('d/b.md', 'b');
        const engine = new MemoryEngine(fs);
        await engine.ensureRoot();
        fs.failNext(op, 'NoPermissions', (p) => p !== '');
        const result = await engine.execute(input);
        if (result.is_error) {
          sawFailure = true;
          const text = result.content as string;
          assert.doesNotMatch(text, /host|secret|injected|NoPermissions|at .*\.js/, text);
          assert.match(text, /^Error: The memory store could not complete the operation on \/memories\S*: permission was denied\.$/);
        }
      }
      assert.ok(sawFailure, `no command used ${op}`);
    });
  }

  it('turns an unexpected exception into a generic sentence and reports it to onInternalError', async () => {
    const fs = new InMemoryFileSystem();
    const seen: unknown[] = [];
    const engine = new MemoryEngine(fs, { onInternalError: (e) => seen.push(e) });
    const original = fs.readDirectory.bind(fs);
    fs.readDirectory = async () => {
      fs.readDirectory = original;
      throw new TypeError('boom at /home/user/secret/path');
    };
    const result = await engine.execute({ command: 'view', path: '/memories' });
    assert.deepEqual(result, { is_error: true, content: 'Error: The memory tool failed unexpectedly while running `view`.' });
    assert.equal(seen.length, 1);
    // The engine still works afterwards.
    assert.equal((await engine.execute({ command: 'create', path: '/memories/x.md', file_text: 'x' })).is_error, false);
  });

  it('a failed temp-file write leaves no partial temp file behind', async () => {
    const fs = new InMemoryFileSystem();
    fs.seed('a.md', 'original');
    const engine = new MemoryEngine(fs);
    await engine.ensureRoot();
    const before = fs.snapshot();
    // The write lands partially, then fails (disk full).
    const writeFile = fs.writeFile.bind(fs);
    fs.writeFile = async (p, c) => {
      fs.writeFile = writeFile;
      await writeFile(p, c.subarray(0, 2));
      throw new FsError('Unavailable', 'ENOSPC /host/path');
    };
    assert.equal(
      (await engine.execute({ command: 'str_replace', path: '/memories/a.md', old_str: 'original', new_str: 'changed' })).content,
      'Error: The memory store could not complete the operation on /memories/a.md: the storage is unavailable right now.',
    );
    assert.deepEqual(fs.snapshot(), before);
  });

  it('a failed atomic rename leaves neither the temp file nor a changed target', async () => {
    const fs = new InMemoryFileSystem();
    fs.seed('a.md', 'original');
    const engine = new MemoryEngine(fs);
    await engine.ensureRoot();
    const before = fs.snapshot();
    fs.failNext('rename', 'Unavailable');
    assert.equal((await engine.execute({ command: 'str_replace', path: '/memories/a.md', old_str: 'original', new_str: 'changed' })).is_error, true);
    assert.deepEqual(fs.snapshot(), before);
  });
});
