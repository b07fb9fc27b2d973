/**
 * The extension's sweep over its stores and the notification's Restore, in plain Node over
 * in-memory stores (the integration test runs the same functions in VS Code on disk). Files
 * seeded into the in-memory file system carry a modification time near the epoch: old; later
 * writes carry the test's clock.
 */
import * as assert from 'node:assert/strict';
import { restoreSwept, sweepStores, type SweepableStore } from '../../../src/features/expiry/expirySweep';
import { MemoryEngine } from '../../../src/core/memory';
import { DAY_MS } from '../../../src/core/memory/history/expiry';
import type { Logger } from '../../../src/platform/logger';
import { InMemoryFileSystem } from '../../support/inMemoryFileSystem';

const now = Date.UTC(2026, 10, 30);

function recordingLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const note = (level: string) => (m: string | Error) => void lines.push(`${level} ${String(m)}`);
  return { lines, trace: note('trace'), debug: note('debug'), info: note('info'), warn: note('warn'), error: note('error') };
}

function storeOf(name: string, seed: Record<string, string | Uint8Array>, history = true): SweepableStore & { fs: InMemoryFileSystem } {
  const fs = new InMemoryFileSystem();
  for (const [rel, content] of Object.entries(seed)) fs.seed(rel, content);
  // Seeded files are old; what the engine writes from now on is written at `now`.
  fs.wallClock = () => now;
  const engine = new MemoryEngine(fs, { now: () => now, ...(history ? {} : { history: false as const }) });
  return { folder: { name }, engine, fs };
}

describe('expiry sweep and Restore (the extension\'s)', () => {
  it('sweeps idle files in every store, keeps read, pinned and checklist files, and names each delete version', async () => {
    const binary = new Uint8Array([0, 255, 13, 10, 1, 2]);
    const a = storeOf('app', { 'old.md': 'old note\r\nCRLF kept\r\n', 'deep/bin.dat': binary, 'read.md': 'read lately', 'pinned.md': 'pinned', 'progress.md': '# log', 'features.json': '[]', 'startup.md': 'npm test' });
    const b = storeOf('lib', { 'stale.md': 'stale' });
    assert.equal((await a.engine.execute({ command: 'view', path: '/memories/read.md' })).is_error, false);
    await a.engine.setPinned('pinned.md', true);
    const log = recordingLog();

    const result = await sweepStores([a, b], 90, log, now);

    assert.equal(result.count, 3);
    assert.deepEqual(result.stores.map((s) => [s.store.folder.name, s.files.map((f) => f.rel).sort()]), [['app', ['deep/bin.dat', 'old.md']], ['lib', ['stale.md']]]);
    for (const { store, files } of result.stores) {
      const history = await store.engine.history();
      for (const f of files) {
        const entry = history.find((e) => e.version === f.version);
        assert.ok(entry, `no version for ${f.rel}`);
        assert.deepEqual([entry.op, entry.path, entry.author.name], ['delete', f.rel, 'expiry']);
        assert.ok(f.idleDays > 90);
      }
    }
    for (const kept of ['read.md', 'pinned.md', 'progress.md', 'features.json', 'startup.md']) assert.ok(a.fs.peek(kept), `${kept} was swept`);
    assert.equal(a.fs.peek('old.md'), undefined);
    assert.equal(a.fs.peek('deep/bin.dat'), undefined);
    assert.ok(log.lines.some((l) => l.startsWith('info app: expired /memories/old.md (unused for')), log.lines.join('\n'));

    const outcome = await restoreSwept(result, log);
    assert.deepEqual(outcome.skipped, []);
    assert.deepEqual(outcome.restored.sort(), ['/memories/deep/bin.dat', '/memories/old.md', '/memories/stale.md']);
    assert.equal(a.fs.peekText('old.md'), 'old note\r\nCRLF kept\r\n');
    assert.deepEqual(a.fs.peek('deep/bin.dat'), binary);
    assert.equal(b.fs.peekText('stale.md'), 'stale');
    const last = (await a.engine.history()).at(-1);
    assert.equal(last?.author.name, 'user', 'a restore is the user\'s');
  });

  it('Restore leaves a file written again after it expired, and says why', async () => {
    const a = storeOf('app', { 'old.md': 'old', 'other.md': 'other' });
    const log = recordingLog();
    const result = await sweepStores([a], 30, log, now);
    assert.equal(result.count, 2);
    assert.equal((await a.engine.execute({ command: 'create', path: '/memories/old.md', file_text: 'newer' })).is_error, false);

    const outcome = await restoreSwept(result, log);
    assert.deepEqual(outcome.restored, ['/memories/other.md']);
    assert.deepEqual(outcome.skipped, [{ path: '/memories/old.md', why: 'it was changed again after it expired' }]);
    assert.equal(a.fs.peekText('old.md'), 'newer');
  });

  it('a file written while the sweep runs stays; a store that cannot be swept is logged and the others are swept', async () => {
    const a = storeOf('app', { 'one.md': '1', 'two.md': '2', 'three.md': '3' });
    const off = storeOf('no-history', { 'old.md': 'old' }, false);
    const log = recordingLog();
    const sweeping = sweepStores([off, a], 90, log, now);
    // Started together: whichever reaches the store first, the write is not lost (the sweep
    // re-checks each file under the store lock before deleting it).
    const write = a.engine.execute({ command: 'str_replace', path: '/memories/two.md', old_str: '2', new_str: 'two' });
    const [result, written] = await Promise.all([sweeping, write]);
    assert.equal(written.is_error, false, String(written.content));
    assert.deepEqual(result.stores.flatMap((s) => s.files.map((f) => f.rel)).sort(), ['one.md', 'three.md']);
    assert.equal(a.fs.peekText('two.md'), 'two');
    assert.equal(off.fs.peekText('old.md'), 'old');
    assert.ok(log.lines.some((l) => l === 'warn no-history: expiry sweep failed: History is off for this memory store.'), log.lines.join('\n'));
  });

  it('nothing idle: nothing deleted, nothing to announce', async () => {
    const a = storeOf('app', {});
    assert.equal((await a.engine.execute({ command: 'create', path: '/memories/fresh.md', file_text: 'x' })).is_error, false);
    const result = await sweepStores([a], 1, recordingLog(), now);
    assert.deepEqual([result.count, result.stores], [0, []]);
    assert.ok(a.fs.peek('fresh.md'));
    // A day later it is idle.
    const later = new MemoryEngine(a.fs, { now: () => now + 2 * DAY_MS });
    assert.deepEqual((await sweepStores([{ folder: a.folder, engine: later }], 1, recordingLog(), now)).stores.map((s) => s.files.map((f) => f.rel)), [['fresh.md']]);
  });
});
