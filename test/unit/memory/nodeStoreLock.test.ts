import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MemoryEngine, messages } from '../../../src/core/memory';
import { isFsError } from '../../../src/core/memory/fileSystem';
import { StoreLockBusyError } from '../../../src/core/memory/storeLock';
import { NodeMemoryFileSystem } from '../../../src/platform/node/nodeFileSystem';
import { NodeStoreLock } from '../../../src/platform/node/nodeStoreLock';

/** The pid of a process that has certainly exited (and been reaped). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('NodeStoreLock (<store>/.meta/lock)', () => {
  let base: string;
  let store: string;
  let lockFile: string;
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'store-lock-'));
    store = path.join(base, '.claude-memories');
    fs.mkdirSync(store);
    lockFile = path.join(store, '.meta', 'lock');
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  const plant = (holder: object, ageMs = 0) => {
    fs.mkdirSync(path.dirname(lockFile), { recursive: true });
    fs.writeFileSync(lockFile, JSON.stringify(holder));
    const then = new Date(Date.now() - ageMs);
    fs.utimesSync(lockFile, then, then);
  };

  it('creates .meta with a .gitignore of *, records its holder, and removes the lock on release', async () => {
    const held = await new NodeStoreLock(store).acquire();
    assert.equal(fs.readFileSync(path.join(store, '.meta', '.gitignore'), 'utf8'), '*\n');
    const info = JSON.parse(fs.readFileSync(lockFile, 'utf8'));
    assert.equal(info.pid, process.pid);
    assert.equal(info.host, os.hostname());
    assert.ok(Date.now() - Date.parse(info.acquiredAt) < 60_000);
    await held.release();
    assert.equal(fs.existsSync(lockFile), false);
    await held.release(); // idempotent
  });

  it('takes over from a holder whose process is dead on this host, without waiting for it to go stale', async () => {
    plant({ pid: deadPid(), host: os.hostname(), acquiredAt: 'then', token: 'dead' });
    // The age rule off (a day): only seeing the holder dead can free the lock within the wait.
    const held = await new NodeStoreLock(store, { waitMs: 5000, staleMs: 24 * 60 * 60_000 }).acquire();
    assert.equal(JSON.parse(fs.readFileSync(lockFile, 'utf8')).pid, process.pid);
    await held.release();
  });

  it('takes over from a holder on another host once its heartbeat is older than staleMs', async () => {
    plant({ pid: 1, host: 'some-other-machine', acquiredAt: 'then', token: 'remote' }, 10_000);
    const held = await new NodeStoreLock(store, { waitMs: 2000, staleMs: 5000 }).acquire();
    assert.equal(JSON.parse(fs.readFileSync(lockFile, 'utf8')).pid, process.pid);
    await held.release();
  });

  it('takes over from an empty lock file (a holder killed between create and write) once it is old', async () => {
    plant({}, 10_000);
    fs.writeFileSync(lockFile, '');
    const then = new Date(Date.now() - 10_000);
    fs.utimesSync(lockFile, then, then);
    const held = await new NodeStoreLock(store, { waitMs: 2000, staleMs: 5000 }).acquire();
    await held.release();
  });

  it('waits for a live holder, bounded, and the engine says so in one sentence', async () => {
    plant({ pid: process.ppid, host: 'some-other-machine', acquiredAt: 'now', token: 'alive' });
    const lock = new NodeStoreLock(store, { waitMs: 300, staleMs: 60_000 });
    await assert.rejects(lock.acquire(), (e: unknown) => e instanceof StoreLockBusyError && e.waitedMs >= 300);
    const engine = new MemoryEngine(new NodeMemoryFileSystem(store), { storeLock: lock });
    const result = await engine.execute({ command: 'create', path: '/memories/a.md', file_text: 'x' });
    assert.equal(result.is_error, true);
    assert.match(String(result.content), /^Error: The memory store is busy: .* held its lock for 0 s\. Nothing was changed/);
    assert.equal(fs.existsSync(path.join(store, 'a.md')), false);
    // Views never wait for the lock.
    assert.equal((await engine.execute({ command: 'view', path: '/memories' })).is_error, false);
  });

  it('a holder that keeps working keeps its lock fresh (its heartbeat), so nobody breaks it', async () => {
    const holder = await new NodeStoreLock(store, { staleMs: 300, heartbeatMs: 50 }).acquire();
    // Same pid: only the heartbeat's age can make it stale. The waiter gives up after 3 staleMs.
    await assert.rejects(new NodeStoreLock(store, { waitMs: 900, staleMs: 300 }).acquire(), StoreLockBusyError);
    await holder.release();
    await (await new NodeStoreLock(store, { waitMs: 300 }).acquire()).release();
  });

  it('two engines in one process on one store take turns through the lock file', async () => {
    const make = () => new MemoryEngine(new NodeMemoryFileSystem(store), { storeLock: new NodeStoreLock(store) });
    const [a, b] = [make(), make()];
    fs.writeFileSync(path.join(store, 'log.md'), '');
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => [
        a.execute({ command: 'insert', path: '/memories/log.md', insert_line: 0, insert_text: `a ${i}` }),
        b.execute({ command: 'insert', path: '/memories/log.md', insert_line: 0, insert_text: `b ${i}` }),
      ]).flat(),
    );
    assert.equal(fs.readFileSync(path.join(store, 'log.md'), 'utf8').split('\n').filter(Boolean).length, 100);
  });

  it('takes turns: a busy engine does not starve another one waiting for the lock', async () => {
    // Engine a has 16 slow operations queued; b's 4 must not wait for all of them.
    const slow = new NodeMemoryFileSystem(store);
    for (const op of ['stat', 'readFile', 'writeFile', 'rename'] as const) {
      const original = slow[op].bind(slow) as (...args: unknown[]) => Promise<unknown>;
      (slow as unknown as Record<string, unknown>)[op] = async (...args: unknown[]) => {
        await new Promise((r) => setTimeout(r, 3));
        return original(...args);
      };
    }
    const a = new MemoryEngine(slow, { storeLock: new NodeStoreLock(store) });
    const b = new MemoryEngine(new NodeMemoryFileSystem(store), { storeLock: new NodeStoreLock(store) });
    fs.writeFileSync(path.join(store, 'log.md'), '');
    const finished: string[] = [];
    const insert = (engine: MemoryEngine, tag: string) =>
      engine.execute({ command: 'insert', path: '/memories/log.md', insert_line: 0, insert_text: tag }).then(() => void finished.push(tag));
    await Promise.all([...Array.from({ length: 16 }, (_, i) => insert(a, `a${i}`)), ...Array.from({ length: 4 }, (_, i) => insert(b, `b${i}`))]);
    assert.ok(finished.indexOf('b3') < finished.indexOf('a12'), `b waited for nearly all of a: ${finished.join(' ')}`);
  });

  it('never goes through a symbolic link planted at .meta', async function () {
    if (process.platform === 'win32') this.skip();
    const outside = path.join(base, 'outside');
    fs.mkdirSync(outside);
    fs.symlinkSync(outside, path.join(store, '.meta'));
    await assert.rejects(new NodeStoreLock(store).acquire(), (e: unknown) => isFsError(e, 'NoPermissions'));
    assert.deepEqual(fs.readdirSync(outside), []);
    const engine = new MemoryEngine(new NodeMemoryFileSystem(store), { storeLock: new NodeStoreLock(store) });
    const result = await engine.execute({ command: 'create', path: '/memories/a.md', file_text: 'x' });
    assert.equal(result.content, messages.fsFailure('/memories', 'permission was denied'));
  });
});
