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

  it('takes over from a holder on another host once its heartbeat has not moved for staleMs while waiting (its clock is not ours)', async () => {
    plant({ pid: 1, host: 'some-other-machine', acquiredAt: 'then', token: 'remote' }, 10_000);
    const started = performance.now();
    const held = await new NodeStoreLock(store, { waitMs: 4000, staleMs: 400 }).acquire();
    assert.ok(performance.now() - started >= 400, 'broken before it was seen silent for staleMs');
    assert.equal(JSON.parse(fs.readFileSync(lockFile, 'utf8')).pid, process.pid);
    await held.release();
  });

  it('never breaks a live holder on another machine whose clock runs a minute behind (its heartbeat moves)', async () => {
    plant({ pid: 1, host: 'some-other-machine', acquiredAt: 'then', token: 'remote' }, 60_000);
    // The other machine's heartbeat: its own time, a minute behind ours, every 50 ms.
    const beat = setInterval(() => {
      const then = new Date(Date.now() - 60_000 + Math.random() * 10);
      fs.utimesSync(lockFile, then, then);
    }, 50);
    try {
      await assert.rejects(new NodeStoreLock(store, { waitMs: 1200, staleMs: 300 }).acquire(), StoreLockBusyError);
      assert.equal(JSON.parse(fs.readFileSync(lockFile, 'utf8')).token, 'remote');
    } finally {
      clearInterval(beat);
    }
  });

  for (const [who, holder] of [
    ['of this host with a live pid', { pid: process.ppid, host: os.hostname(), acquiredAt: '2999-01-01', token: 'future' }],
    ['of another machine', { pid: 1, host: 'some-other-machine', acquiredAt: '2999-01-01', token: 'future' }],
    ['too damaged to say whose', {}],
  ] as const) {
    it(`a lock file dated in the future (${who}, e.g. shipped in a repository) is broken once seen unchanged for staleMs, not waited on forever`, async () => {
      plant(holder, -365 * 24 * 60 * 60_000);
      const held = await new NodeStoreLock(store, { waitMs: 4000, staleMs: 300 }).acquire();
      assert.equal(JSON.parse(fs.readFileSync(lockFile, 'utf8')).pid, process.pid);
      await held.release();
    });
  }

  it('a breaker\'s file and a waiter\'s mark dated in the future neither stop the break nor keep the lock from being kept', async () => {
    plant({ pid: deadPid(), host: os.hostname(), acquiredAt: 'then', token: 'dead' });
    const future = new Date(Date.now() + 365 * 24 * 60 * 60_000);
    const dateInFuture = (name: string) => {
      fs.writeFileSync(path.join(store, '.meta', name), '');
      fs.utimesSync(path.join(store, '.meta', name), future, future);
    };
    dateInFuture('lock.breaking');
    const held = await new NodeStoreLock(store, { waitMs: 2000, staleMs: 300 }).acquire();
    assert.equal(JSON.parse(fs.readFileSync(lockFile, 'utf8')).pid, process.pid);
    dateInFuture('waiting');
    assert.equal(held.keep?.(), true, 'a mark from the future counted as a waiter');
    await held.release();
  });

  it('waits, without holding the thread, while another breaker\'s file stands (one planted now stands for staleMs)', async () => {
    plant({ pid: deadPid(), host: os.hostname(), acquiredAt: 'then', token: 'dead' });
    fs.writeFileSync(path.join(store, '.meta', 'lock.breaking'), '');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      const held = await new NodeStoreLock(store, { waitMs: 4000, staleMs: 300 }).acquire();
      await held.release();
    } finally {
      clearInterval(timer);
    }
    assert.ok(ticks >= 3, `the event loop was held while waiting (${ticks} ticks)`);
  });

  it('refuses a store folder that is a symbolic link before making anything (nothing appears where it leads)', async function () {
    if (process.platform === 'win32') this.skip();
    for (const target of ['elsewhere', 'missing']) {
      const linked = path.join(base, `linked-${target}`);
      const outside = path.join(base, target);
      if (target === 'elsewhere') fs.mkdirSync(outside);
      fs.symlinkSync(outside, linked);
      await assert.rejects(new NodeStoreLock(linked).acquire(), (e: unknown) => isFsError(e, 'NoPermissions'));
      if (target === 'elsewhere') assert.deepEqual(fs.readdirSync(outside), [], 'something was made through the link');
      else assert.equal(fs.existsSync(outside), false, 'the link target was made');
      const engine = new MemoryEngine(new NodeMemoryFileSystem(linked), { storeLock: new NodeStoreLock(linked) });
      const result = await engine.execute({ command: 'create', path: '/memories/a.md', file_text: 'x' });
      assert.equal(result.is_error, true);
      await assert.rejects(new NodeMemoryFileSystem(linked).createDirectory(''), (e: unknown) => isFsError(e, 'NoPermissions'));
      if (target === 'elsewhere') assert.deepEqual(fs.readdirSync(outside), [], 'something was made through the link');
      else assert.equal(fs.existsSync(outside), false, 'the link target was made');
    }
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
