import * as assert from 'node:assert/strict';
import { MemoryEngine } from '../../../src/core/memory';
import { InMemoryFileSystem } from '../../support/inMemoryFileSystem';
import { failsWith, forEachStore, ok } from './harness';

forEachStore('concurrency', (t) => {
  it('100 concurrent str_replace edits of one file all land', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => `item ${i}: todo`);
    await t.store.seed('list.md', lines.join('\n') + '\n');
    const results = await Promise.all(
      lines.map((_, i) => t.run({ command: 'str_replace', path: '/memories/list.md', old_str: `item ${i}: todo`, new_str: `item ${i}: done` })),
    );
    for (const r of results) ok(r);
    assert.equal(await t.store.peekText('list.md'), lines.map((_, i) => `item ${i}: done`).join('\n') + '\n');
  });

  it('concurrent inserts and creates interleave without losing any', async () => {
    await t.store.seed('log.md', '');
    await Promise.all([
      ...Array.from({ length: 30 }, (_, i) => t.run({ command: 'insert', path: '/memories/log.md', insert_line: 0, insert_text: `entry ${i}` })),
      ...Array.from({ length: 30 }, (_, i) => t.run({ command: 'create', path: `/memories/many/f${i}.md`, file_text: `${i}` })),
    ]);
    const log = (await t.store.peekText('log.md'))!.split('\n').filter(Boolean);
    assert.equal(log.length, 30);
    assert.deepEqual(new Set(log), new Set(Array.from({ length: 30 }, (_, i) => `entry ${i}`)));
    for (let i = 0; i < 30; i++) assert.equal(await t.store.peekText(`many/f${i}.md`), `${i}`);
  });

  it('runs calls in arrival order', async () => {
    const first = t.run({ command: 'create', path: '/memories/o.md', file_text: 'v1' });
    const second = t.run({ command: 'view', path: '/memories/o.md' });
    const third = t.run({ command: 'delete', path: '/memories/o.md' });
    ok(await first);
    assert.equal(ok(await second), "Here's the content of /memories/o.md with line numbers:\n     1\tv1");
    ok(await third);
  });
});

describe('cancellation', () => {
  it('runs nothing for an already-aborted signal', async () => {
    const fs = new InMemoryFileSystem();
    const engine = new MemoryEngine(fs);
    const controller = new AbortController();
    controller.abort();
    failsWith(
      await engine.execute({ command: 'create', path: '/memories/a.md', file_text: 'x' }, controller.signal),
      'Error: The memory operation was cancelled before it started; nothing was changed.',
    );
    assert.equal(fs.log.length, 0);
  });

  it('skips a queued call aborted while waiting, but finishes the one already running', async () => {
    const fs = new InMemoryFileSystem();
    const engine = new MemoryEngine(fs);
    await engine.ensureRoot();
    const controller = new AbortController();
    // Abort in the middle of the first call's write: it must still complete.
    const writeFile = fs.writeFile.bind(fs);
    fs.writeFile = async (p, c) => {
      controller.abort();
      return writeFile(p, c);
    };
    const running = engine.execute({ command: 'create', path: '/memories/a.md', file_text: 'first' }, controller.signal);
    const queued = engine.execute({ command: 'create', path: '/memories/b.md', file_text: 'second' }, controller.signal);
    ok(await running);
    failsWith(await queued, 'Error: The memory operation was cancelled before it started; nothing was changed.');
    assert.equal(fs.peekText('a.md'), 'first');
    assert.equal(fs.peekText('b.md'), undefined);
  });
});

describe('store root', () => {
  it('ensureRoot creates a missing root; the first call does it lazily too', async () => {
    const fs = new InMemoryFileSystem(false);
    await assert.rejects(fs.stat(''));
    const engine = new MemoryEngine(fs);
    await engine.ensureRoot();
    assert.ok((await fs.stat('')).type & 2);

    const lazy = new InMemoryFileSystem(false);
    ok(await new MemoryEngine(lazy).execute({ command: 'view', path: '/memories' }));
    assert.ok((await lazy.stat('')).type & 2);
  });

  it('refuses to work in a store whose root is a symbolic link', async () => {
    const fs = new InMemoryFileSystem();
    fs.seed('real/x.md', 'x');
    const engine = new MemoryEngine(fs);
    // Simulate the root being a link: stat('') reports the link bit.
    const stat = fs.stat.bind(fs);
    fs.stat = async (p) => (p === '' ? { ...(await stat(p)), type: 2 | 64 } : stat(p));
    failsWith(
      await engine.execute({ command: 'view', path: '/memories' }),
      'Error: The path /memories is or passes through a symbolic link; the memory tool does not follow links.',
    );
  });
});
