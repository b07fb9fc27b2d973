/**
 * Expiry on a real (Node) store: files aged by setting their modification time into the past.
 * An agent read keeps a file alive, pins and the kept files never go, an expired file is a
 * `delete` version by `expiry` and comes back byte for byte.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DAY_MS } from '../../../src/core/memory';
import { createNodeMemoryEngine } from '../../../src/platform/node/nodeMemoryEngine';

describe('expiry: files nobody used go away visibly and can come back', () => {
  let base: string;
  let store: string;
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'expiry-'));
    store = path.join(base, '.claude-memories');
    fs.mkdirSync(store);
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  function seed(rel: string, content: string | Buffer, ageDays: number): void {
    const file = path.join(store, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    const when = new Date(Date.now() - ageDays * DAY_MS);
    fs.utimesSync(file, when, when);
  }

  it('read times noted by two engines on one store all stay (each sees the other\'s notes)', async () => {
    for (const name of ['a.md', 'b.md', 'c.md', 'd.md']) seed(name, name, 120);
    const one = createNodeMemoryEngine(store, { guards: false }).engine;
    const two = createNodeMemoryEngine(store, { guards: false }).engine;
    const view = async (engine: typeof one, name: string) => assert.equal((await engine.execute({ command: 'view', path: `/memories/${name}` })).is_error, false);
    await view(one, 'a.md');
    await view(two, 'b.md');
    await view(one, 'c.md');
    await view(two, 'd.md');
    // A third engine reads the notes back from disk (.meta/usage.json and the log appended since).
    const uses = await createNodeMemoryEngine(store, { guards: false }).engine.fileUses();
    assert.deepEqual(uses.filter((u) => Date.now() - u.lastUsed < 60_000).map((u) => u.rel).sort(), ['a.md', 'b.md', 'c.md', 'd.md']);
    // What expiry goes by: all four were read just now, none is idle.
    assert.deepEqual(await one.expire({ days: 30, dryRun: true }), []);
  });

  it('deletes only idle files, as recorded `expiry` deletes; a read, a pin and the kept list keep files', async () => {
    const binary = Buffer.from([0, 1, 2, 255, 13, 10]);
    seed('old.md', 'forgotten\r\n', 120);
    seed('notes/blob.bin', binary, 200);
    seed('recent.md', 'fresh', 5);
    seed('read.md', 'read by an agent', 120);
    seed('pinned.md', 'pinned', 300);
    seed('progress.md', 'log', 400);
    const { engine } = createNodeMemoryEngine(store, { guards: false });
    assert.equal((await engine.execute({ command: 'view', path: '/memories/read.md' })).is_error, false);
    await engine.setPinned('pinned.md', true);
    const keep = ['progress.md'];
    const planned = await engine.expire({ days: 90, keep, dryRun: true });
    assert.deepEqual(planned.map((f) => f.rel).sort(), ['notes/blob.bin', 'old.md']);
    assert.ok(fs.existsSync(path.join(store, 'old.md')), 'a dry run deletes nothing');
    assert.ok(planned.every((f) => f.idleDays >= 119));
    const expired = await engine.expire({ days: 90, keep });
    assert.deepEqual(expired.map((f) => f.rel).sort(), ['notes/blob.bin', 'old.md']);
    for (const rel of ['old.md', 'notes/blob.bin']) assert.ok(!fs.existsSync(path.join(store, rel)));
    for (const rel of ['recent.md', 'read.md', 'pinned.md', 'progress.md']) assert.ok(fs.existsSync(path.join(store, rel)), rel);
    const deletes = (await engine.history()).filter((e) => e.op === 'delete');
    assert.deepEqual(deletes.map((e) => `${e.path} ${e.author.name}`).sort(), ['notes/blob.bin expiry', 'old.md expiry']);
    for (const e of deletes) await engine.undo(e.version);
    assert.deepEqual(fs.readFileSync(path.join(store, 'old.md')), Buffer.from('forgotten\r\n'));
    assert.deepEqual(fs.readFileSync(path.join(store, 'notes/blob.bin')), binary);
    // The restored files count as used now: the next sweep keeps them.
    assert.deepEqual(await engine.expire({ days: 90, keep, dryRun: true }), []);
  });

  it('is off at 0 days and refused when history is off (expiry must never be unrecoverable)', async () => {
    seed('old.md', 'x', 500);
    const { engine } = createNodeMemoryEngine(store, { guards: false });
    assert.deepEqual(await engine.expire({ days: 0 }), []);
    const { engine: noHistory } = createNodeMemoryEngine(store, { guards: false, history: false });
    await assert.rejects(noHistory.expire({ days: 1 }), /History is off/);
    assert.ok(fs.existsSync(path.join(store, 'old.md')));
  });

  it('keeps a file another engine wrote after the sweep listed it: each file is checked again under the lock', async () => {
    seed('busy.md', 'old line\n', 200);
    const sweeper = createNodeMemoryEngine(store, { guards: false }).engine;
    const writer = createNodeMemoryEngine(store, { guards: false, author: { name: 'exec' } }).engine;
    // The sweep lists busy.md as idle; the writer's insert lands before the delete.
    let wrote = false;
    const realExpire = sweeper.expire.bind(sweeper);
    const listed = await realExpire({ days: 90, dryRun: true });
    assert.deepEqual(listed.map((f) => f.rel), ['busy.md']);
    const holder = (sweeper as unknown as { userWrite: <T>(task: () => Promise<T>) => Promise<T> });
    const userWrite = holder.userWrite.bind(sweeper);
    holder.userWrite = async (task) => {
      if (!wrote) {
        wrote = true;
        assert.equal((await writer.execute({ command: 'insert', path: '/memories/busy.md', insert_line: 1, insert_text: 'new line' })).is_error, false);
      }
      return userWrite(task);
    };
    assert.deepEqual(await sweeper.expire({ days: 90 }), []);
    assert.ok(wrote);
    assert.equal(fs.readFileSync(path.join(store, 'busy.md'), 'utf8'), 'old line\nnew line\n');
  });

  it('a write after the sweep fails plainly and the swept content stays restorable', async () => {
    seed('late.md', 'kept text\n', 200);
    const sweeper = createNodeMemoryEngine(store, { guards: false }).engine;
    const writer = createNodeMemoryEngine(store, { guards: false }).engine;
    assert.deepEqual((await sweeper.expire({ days: 90 })).map((f) => f.rel), ['late.md']);
    const late = await writer.execute({ command: 'insert', path: '/memories/late.md', insert_line: 1, insert_text: 'x' });
    assert.equal(late.is_error, true);
    const deleted = (await writer.history()).find((e) => e.op === 'delete' && e.author.name === 'expiry');
    assert.ok(deleted, 'the other engine sees the expiry version');
    await writer.restore('late.md', deleted.version);
    assert.equal(fs.readFileSync(path.join(store, 'late.md'), 'utf8'), 'kept text\n');
  });
});
