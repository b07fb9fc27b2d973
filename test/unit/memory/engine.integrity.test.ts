import * as assert from 'node:assert/strict';
import { MemoryEngine, messages, TEMP_NAME_PREFIX } from '../../../src/core/memory';
import { StoreLockBusyError, type StoreLock } from '../../../src/core/memory/storeLock';
import { InMemoryFileSystem } from '../../support/inMemoryFileSystem';
import { failsWith, forEachStore, ok } from './harness';

forEachStore('the private .meta folder', (t) => {
  const refused = (shown: string) => messages.metaFolder(shown);

  it('refuses every command that names it, in any spelling', async () => {
    await t.store.seed('.meta/lock', '{"pid":1}');
    await t.store.seed('.meta/.gitignore', '*\n');
    const before = await t.store.snapshot();
    for (const p of ['/memories/.meta', '/memories/.meta/lock', '/memories/.META/lock', '/memories//.meta/.gitignore', '/memories/./.meta']) {
      failsWith(await t.run({ command: 'view', path: p }), refused(p));
      failsWith(await t.run({ command: 'create', path: p, file_text: 'x' }), refused(p));
      failsWith(await t.run({ command: 'str_replace', path: p, old_str: '1', new_str: '2' }), refused(p));
      failsWith(await t.run({ command: 'insert', path: p, insert_line: 0, insert_text: 'x' }), refused(p));
      failsWith(await t.run({ command: 'delete', path: p }), refused(p));
      failsWith(await t.run({ command: 'rename', old_path: p, new_path: '/memories/stolen' }), refused(p));
      failsWith(await t.run({ command: 'rename', old_path: '/memories/x', new_path: p }), refused(p));
    }
    assert.deepEqual(await t.store.snapshot(), before);
  });

  it('is neither listed nor counted in the root listing', async () => {
    await t.store.seed('.meta/lock', 'x'.repeat(5000));
    await t.store.seed('notes.md', 'hi');
    const listing = ok(await t.run({ command: 'view', path: '/memories' }));
    assert.doesNotMatch(listing, /\.meta/);
    assert.match(listing, /^2B\t\/memories$/m);
  });

  it('a nested folder called .meta is an ordinary (hidden) folder', async () => {
    ok(await t.run({ command: 'create', path: '/memories/sub/.meta/a.md', file_text: 'x' }));
    assert.equal(await t.store.peekText('sub/.meta/a.md'), 'x');
  });
});

forEachStore('the changed-meanwhile check', (t) => {
  /** Makes `change` happen to the store right after the next `n` temp-file writes of the engine. */
  function interfere(n: number, change: () => Promise<void>) {
    const fs = t.store.fs;
    const writeFile = fs.writeFile.bind(fs);
    let left = n;
    fs.writeFile = async (p, c) => {
      await writeFile(p, c);
      if (left > 0 && p.split('/').pop()!.startsWith(TEMP_NAME_PREFIX)) {
        left--;
        await change();
      }
    };
  }

  it('an edit whose file changed after it was read runs again from scratch and keeps both changes', async () => {
    await t.store.seed('todo.md', 'a\nb\n');
    interfere(1, () => t.store.seed('todo.md', 'a\nb\nadded elsewhere\n'));
    ok(await t.run({ command: 'str_replace', path: '/memories/todo.md', old_str: 'b', new_str: 'B' }));
    assert.equal(await t.store.peekText('todo.md'), 'a\nB\nadded elsewhere\n');
  });

  it('an insert racing a writer outside the lock loses nothing either', async () => {
    await t.store.seed('log.md', 'one\n');
    interfere(1, () => t.store.seed('log.md', 'one\ntwo\n'));
    ok(await t.run({ command: 'insert', path: '/memories/log.md', insert_line: 0, insert_text: 'zero' }));
    assert.equal(await t.store.peekText('log.md'), 'zero\none\ntwo\n');
  });

  it('gives up with a clear sentence after a second change, leaving the other writer\'s text', async () => {
    await t.store.seed('todo.md', 'a\nb\n');
    let n = 0;
    interfere(2, () => t.store.seed('todo.md', `a\nb\nother ${++n}\n`));
    failsWith(await t.run({ command: 'str_replace', path: '/memories/todo.md', old_str: 'b', new_str: 'B' }), messages.changedMeanwhile('/memories/todo.md'));
    assert.equal(await t.store.peekText('todo.md'), 'a\nb\nother 2\n');
    const listing = ok(await t.run({ command: 'view', path: '/memories' }));
    assert.doesNotMatch(listing, /tmp/);
  });
});

forEachStore('hand edits through the engine (update, createFile, createFolder, rename, delete)', (t) => {
  it('update is a read-modify-write that keeps a BOM and writes nothing when unchanged', async () => {
    await t.store.seed('features.json', '\uFEFF[1]');
    assert.equal(await t.engine.update('features.json', (text) => text!.replace('1', '2')), true);
    assert.deepEqual([...(await t.store.peek('features.json'))!], [0xef, 0xbb, 0xbf, ...new TextEncoder().encode('[2]')]);
    const before = await t.store.snapshot();
    assert.equal(await t.engine.update('features.json', (text) => text), false);
    assert.deepEqual(await t.store.snapshot(), before);
  });

  it('100 concurrent updates all land (the Features view ticking fast)', async () => {
    await t.store.seed('n.txt', '0');
    await Promise.all(Array.from({ length: 100 }, () => t.engine.update('n.txt', (text) => String(Number(text) + 1))));
    assert.equal(await t.store.peekText('n.txt'), '100');
  });

  it('updates and agent edits of one file interleave without losing either', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => `item ${i}: todo`);
    await t.store.seed('list.md', lines.join('\n') + '\n');
    await Promise.all(
      lines.flatMap((_, i) => [
        t.run({ command: 'str_replace', path: '/memories/list.md', old_str: `item ${i}: todo`, new_str: `item ${i}: done` }),
        t.engine.update('list.md', (text) => `${text}user ${i}\n`),
      ]),
    );
    const text = (await t.store.peekText('list.md'))!;
    for (let i = 0; i < 40; i++) {
      assert.match(text, new RegExp(`^item ${i}: done$`, 'm'));
      assert.match(text, new RegExp(`^user ${i}$`, 'm'));
    }
  });

  it('createFile never replaces, createFolder/rename/delete work, and guards do not apply', async () => {
    const engine = t.newEngine({ writeGuards: [{ paths: ['/memories/a.md'], check: () => 'refused' }] });
    assert.equal(await engine.createFile('deep/a.md', new TextEncoder().encode('first')), true);
    assert.equal(await engine.createFile('deep/a.md', new TextEncoder().encode('second')), false);
    assert.equal(await t.store.peekText('deep/a.md'), 'first');
    assert.equal(await engine.createFile('a.md', new TextEncoder().encode('guarded for the agent only')), true);
    await engine.createFolder('empty/inner');
    await engine.rename('a.md', 'moved/b.md');
    assert.equal(await t.store.peekText('moved/b.md'), 'guarded for the agent only');
    await engine.delete('deep');
    assert.equal(await t.store.peekText('deep/a.md'), undefined);
    await assert.rejects(engine.rename('moved/b.md', 'empty'), (e: Error) => e.message === messages.destinationExists('/memories/empty'));
  });

  it('refuses the .meta folder, temp names, non-canonical paths and symbolic links', async () => {
    await t.store.seed('real.md', 'r');
    await t.store.symlink('link.md', { inside: 'real.md' });
    await assert.rejects(t.engine.createFile('.meta/lock', new Uint8Array()), /private folder/);
    await assert.rejects(t.engine.update('.meta/lock', () => 'x'), /private folder/);
    await assert.rejects(t.engine.delete('.META'), /private folder/);
    await assert.rejects(t.engine.createFile(`${TEMP_NAME_PREFIX}x`, new Uint8Array()), /reserved/);
    await assert.rejects(t.engine.createFile('../escape.md', new Uint8Array()), /Error/);
    await assert.rejects(t.engine.update('link.md', () => 'x'), /symbolic link/);
    assert.equal(await t.store.peekText('real.md'), 'r');
  });
});

/** A StoreLock that records what it was asked for. */
class RecordingLock implements StoreLock {
  readonly events: string[] = [];
  busy = false;
  async acquire() {
    if (this.busy) throw new StoreLockBusyError(10_400, 'held by someone else');
    this.events.push('acquire');
    return { release: async () => void this.events.push('release') };
  }
}

describe('the engine holds the store lock', () => {
  it('around every change (agent, hand edit, the note of a read); a view itself needs none', async () => {
    const fs = new InMemoryFileSystem();
    const lock = new RecordingLock();
    const engine = new MemoryEngine(fs, { storeLock: lock });
    const writeFile = fs.writeFile.bind(fs);
    fs.writeFile = async (p, c) => {
      lock.events.push('write');
      return writeFile(p, c);
    };
    ok(await engine.execute({ command: 'create', path: '/memories/a.md', file_text: 'x' }));
    ok(await engine.execute({ command: 'view', path: '/memories/a.md' }));
    await engine.update('a.md', () => 'y');
    // Every write (memory file, history, the read note) happens while the lock is held.
    let held = false;
    for (const event of lock.events) {
      if (event === 'acquire') held = true;
      else if (event === 'release') held = false;
      else assert.ok(held, `a write outside the lock: ${lock.events.join(' ')}`);
    }
    assert.equal(lock.events.filter((e) => e === 'acquire').length, 3, 'create, the note of the first read, update');
    // A read noted within the hour is not noted again: the view runs without the lock...
    const seen = lock.events.length;
    ok(await engine.execute({ command: 'view', path: '/memories/a.md' }));
    assert.equal(lock.events.length, seen);
    // ...and a lock that cannot be had never stops a view (the note is best effort).
    fs.seed('b.md', 'other');
    lock.busy = true;
    ok(await engine.execute({ command: 'view', path: '/memories/b.md' }));
  });

  it('releases it when the command fails', async () => {
    const lock = new RecordingLock();
    const engine = new MemoryEngine(new InMemoryFileSystem(), { storeLock: lock });
    failsWith(await engine.execute({ command: 'delete', path: '/memories/none.md' }), messages.pathMissing('/memories/none.md'));
    assert.deepEqual(lock.events, ['acquire', 'release']);
  });

  it('a lock that cannot be had is a clear sentence and nothing changes', async () => {
    const fs = new InMemoryFileSystem();
    fs.seed('a.md', 'keep');
    const lock = new RecordingLock();
    lock.busy = true;
    const engine = new MemoryEngine(fs, { storeLock: lock });
    failsWith(await engine.execute({ command: 'create', path: '/memories/b.md', file_text: 'x' }), messages.storeBusy(10));
    assert.match(messages.storeBusy(10), /^Error: The memory store is busy: .* held its lock for 10 s\. Nothing was changed;/);
    await assert.rejects(engine.update('a.md', () => 'lost'), (e: Error) => e.message === messages.storeBusy(10));
    assert.equal(fs.peekText('a.md'), 'keep');
    assert.equal(fs.peekText('b.md'), undefined);
  });
});

describe('the engine says when it wrote (onDidWrite)', () => {
  it('after each change of any writer, once its lock is released; not for a refused command', async () => {
    const fs = new InMemoryFileSystem();
    const seen: string[] = [];
    let lockHeld = false;
    const lock: StoreLock = {
      acquire: async () => {
        lockHeld = true;
        return { release: async () => void (lockHeld = false) };
      },
    };
    const engine = new MemoryEngine(fs, {
      storeLock: lock,
      onDidWrite: () => seen.push(lockHeld ? 'while locked' : 'after release'),
    });
    ok(await engine.execute({ command: 'create', path: '/memories/a.md', file_text: 'one\n' }));
    assert.deepEqual(seen, ['after release']);
    ok(await engine.execute({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'two' }));
    assert.equal(await engine.update('a.md', (text) => `${text}three\n`), true);
    await engine.rename('a.md', 'b.md');
    await engine.delete('b.md');
    assert.deepEqual(seen, Array(5).fill('after release'));
    // Refused before any write (a path outside /memories): nothing to tell.
    assert.equal((await engine.execute({ command: 'create', path: '/etc/x', file_text: 'x' })).is_error, true);
    assert.equal(seen.length, 5);
    // A watcher's notice of a change history already has (this engine's own write): no version, nothing to tell.
    ok(await engine.execute({ command: 'create', path: '/memories/c.md', file_text: 'c' }));
    assert.equal(await engine.noticeChange('c.md'), undefined);
    assert.equal(seen.length, 6);
    // A hand edit it records is a change.
    await fs.writeFile('c.md', new TextEncoder().encode('by hand'));
    assert.notEqual(await engine.noticeChange('c.md'), undefined);
    assert.equal(seen.length, 7);
  });

  it('a throwing listener is an internal error, never the write\'s failure', async () => {
    const errors: unknown[] = [];
    const engine = new MemoryEngine(new InMemoryFileSystem(), {
      onDidWrite: () => {
        throw new Error('listener broke');
      },
      onInternalError: (e) => errors.push(e),
    });
    ok(await engine.execute({ command: 'create', path: '/memories/a.md', file_text: 'x' }));
    assert.equal(errors.length, 1);
  });
});
