import * as assert from 'node:assert/strict';
import { failed, failsWith, forEachStore, ok } from './harness';

const ROOT_ALIASES = ['/memories', '/memories/', '/memories/.', '/memories//', '/memories/./.', '/memories///.//'];

forEachStore('delete', (t) => {
  it('deletes a file', async () => {
    await t.store.seed('old_file.txt', 'x');
    await t.store.seed('keep.txt', 'k');
    const result = await t.run({ command: 'delete', path: '/memories/old_file.txt' });
    assert.equal(ok(result), 'Successfully deleted /memories/old_file.txt');
    assert.deepEqual(result.touched, { kind: 'delete', path: '/memories/old_file.txt', version: 1 });
    assert.equal(await t.store.peek('old_file.txt'), undefined);
    assert.equal(await t.store.peekText('keep.txt'), 'k');
  });

  it('deletes a folder recursively', async () => {
    await t.store.seed('proj/a/b/c.md', 'x');
    await t.store.seed('proj/d.md', 'x');
    await t.store.seed('other.md', 'o');
    ok(await t.run({ command: 'delete', path: '/memories/proj' }));
    assert.deepEqual((await t.store.snapshot()).filter((l) => !l.startsWith('outside')).map((l) => l.split(' ')[0]), ['other.md']);
  });

  it('reports a missing path with the documented sentence', async () => {
    failsWith(await t.run({ command: 'delete', path: '/memories/ghost.md' }), 'Error: The path /memories/ghost.md does not exist');
  });

  for (const alias of ROOT_ALIASES) {
    it(`never deletes the root via ${JSON.stringify(alias)}`, async () => {
      await t.store.seed('a.md', 'a');
      const before = await t.store.snapshot();
      failsWith(await t.run({ command: 'delete', path: alias }), 'Error: Cannot delete the /memories directory itself');
      assert.deepEqual(await t.store.snapshot(), before);
    });
  }

  for (const sneaky of ['/memories/sub/..', '/memories/sub/../', '/memories/../memories']) {
    it(`refuses ${JSON.stringify(sneaky)} (a .. segment) without touching anything`, async () => {
      await t.store.seed('sub/a.md', 'a');
      const before = await t.store.snapshot();
      assert.match(failed(await t.run({ command: 'delete', path: sneaky })), /contains a `\.\.` segment/);
      assert.deepEqual(await t.store.snapshot(), before);
    });
  }
});

forEachStore('rename', (t) => {
  it('renames a file', async () => {
    await t.store.seed('draft.txt', 'content');
    const result = await t.run({ command: 'rename', old_path: '/memories/draft.txt', new_path: '/memories/final.txt' });
    assert.equal(ok(result), 'Successfully renamed /memories/draft.txt to /memories/final.txt');
    assert.deepEqual(result.touched, { kind: 'rename', path: '/memories/draft.txt', newPath: '/memories/final.txt', version: 1 });
    assert.equal(await t.store.peek('draft.txt'), undefined);
    assert.equal(await t.store.peekText('final.txt'), 'content');
  });

  it('moves a file into a new folder and a folder with its contents', async () => {
    await t.store.seed('a.md', 'A');
    await t.store.seed('dir/x/y.md', 'Y');
    ok(await t.run({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/archive/2025/a.md' }));
    ok(await t.run({ command: 'rename', old_path: '/memories/dir', new_path: '/memories/archive/dir' }));
    assert.equal(await t.store.peekText('archive/2025/a.md'), 'A');
    assert.equal(await t.store.peekText('archive/dir/x/y.md'), 'Y');
  });

  it('never overwrites an existing destination, file or folder', async () => {
    await t.store.seed('a.md', 'A');
    await t.store.seed('b.md', 'B');
    await t.store.seed('d/x.md', 'X');
    const before = await t.store.snapshot();
    failsWith(await t.run({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' }), 'Error: The destination /memories/b.md already exists');
    failsWith(await t.run({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/d' }), 'Error: The destination /memories/d already exists');
    failsWith(await t.run({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/a.md' }), 'Error: The destination /memories/a.md already exists');
    failsWith(await t.run({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/' }), 'Error: The destination /memories already exists');
    assert.deepEqual(await t.store.snapshot(), before);
  });

  it('a rename with a missing source creates nothing, not even parent folders', async () => {
    const before = await t.store.snapshot();
    failsWith(
      await t.run({ command: 'rename', old_path: '/memories/missing.md', new_path: '/memories/new/folders/x.md' }),
      'Error: The path /memories/missing.md does not exist',
    );
    assert.deepEqual(await t.store.snapshot(), before);
  });

  it('refuses to move a folder into itself', async () => {
    await t.store.seed('f/a.md', 'a');
    const before = await t.store.snapshot();
    failsWith(
      await t.run({ command: 'rename', old_path: '/memories/f', new_path: '/memories/f/inner' }),
      'Error: Cannot move /memories/f into itself (/memories/f/inner).',
    );
    failsWith(
      await t.run({ command: 'rename', old_path: '/memories/f/', new_path: '/memories/f/inner/deeper' }),
      'Error: Cannot move /memories/f into itself (/memories/f/inner/deeper).',
    );
    assert.deepEqual(await t.store.snapshot(), before);
    // A sibling whose name merely starts with the same letters is fine.
    ok(await t.run({ command: 'rename', old_path: '/memories/f', new_path: '/memories/f2' }));
  });

  it('refuses a destination below a file', async () => {
    await t.store.seed('a.md', 'A');
    await t.store.seed('file.md', 'F');
    const before = await t.store.snapshot();
    failsWith(
      await t.run({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/file.md/a.md' }),
      'Error: Cannot create /memories/file.md/a.md because /memories/file.md is a file, not a directory.',
    );
    assert.deepEqual(await t.store.snapshot(), before);
  });

  for (const alias of ROOT_ALIASES) {
    it(`never renames the root via ${JSON.stringify(alias)}`, async () => {
      await t.store.seed('a.md', 'a');
      const before = await t.store.snapshot();
      failsWith(await t.run({ command: 'rename', old_path: alias, new_path: '/memories/elsewhere' }), 'Error: Cannot rename the /memories directory itself');
      assert.deepEqual(await t.store.snapshot(), before);
    });
  }

  it('names the offending parameter for a bad path', async () => {
    failsWith(await t.run({ command: 'rename', old_path: 42, new_path: '/memories/x' }), 'Error: Parameter `old_path` of command `rename` must be a string.');
    await t.store.seed('a.md', 'a');
    assert.match(failed(await t.run({ command: 'rename', old_path: '/memories/a.md', new_path: '/tmp/a.md' })), /^Error: The path \/tmp\/a\.md is outside the memory directory/);
    assert.equal(await t.store.peekText('a.md'), 'a');
  });
});
