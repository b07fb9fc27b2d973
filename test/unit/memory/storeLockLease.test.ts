/**
 * The engine holds its store lock on for a moment after a command (so a burst of commands takes it
 * once), yet another writer is never kept out: a waiting engine gets its turns while the holder
 * keeps issuing commands, and an idle engine lets go of the lock.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createNodeMemoryEngine } from '../../../src/platform/node/nodeMemoryEngine';
import { NodeStoreLock } from '../../../src/platform/node/nodeStoreLock';

describe('store lock held across commands (lease)', () => {
  let base: string;
  let store: string;
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-lease-'));
    store = path.join(base, '.claude-memories');
    fs.mkdirSync(store);
    fs.writeFileSync(path.join(store, 'log.md'), '');
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  const insert = (engine: ReturnType<typeof createNodeMemoryEngine>['engine'], text: string) =>
    engine.execute({ command: 'insert', path: '/memories/log.md', insert_line: 0, insert_text: text }).then((r) => assert.equal(r.is_error, false, String(r.content)));

  it('a second engine gets its turns while the first one keeps writing', async () => {
    const a = createNodeMemoryEngine(store, { guards: false }).engine;
    const b = createNodeMemoryEngine(store, { guards: false }).engine;
    let bDone = false;
    const bWrites = (async () => {
      for (let i = 0; i < 20; i++) await insert(b, `b ${i}`);
      bDone = true;
    })();
    // The first engine writes for as long as the second has not finished (bounded, so a holder
    // that never lets go fails the test instead of hanging it).
    let aCount = 0;
    while (!bDone && aCount < 3000) await insert(a, `a ${aCount++}`);
    await bWrites;
    assert.ok(bDone && aCount < 3000, `the second engine was kept out while the first wrote ${aCount} times`);
    const lines = fs.readFileSync(path.join(store, 'log.md'), 'utf8').split('\n').filter(Boolean);
    assert.equal(lines.length, 20 + aCount);
    const history = await a.history();
    assert.equal(history.filter((e) => e.op === 'insert').length, 20 + aCount, 'every write is one version in history');
    assert.equal(new Set(history.map((e) => e.version)).size, history.length, 'no version number twice');
  });

  it('an idle engine lets go of the lock', async () => {
    const { engine } = createNodeMemoryEngine(store, { guards: false });
    await insert(engine, 'one');
    // Another holder (as another process would) gets the lock without it being broken as stale.
    const other = new NodeStoreLock(store, { waitMs: 60_000, staleMs: 60_000 });
    const held = await other.acquire();
    await held.release();
  });
});
