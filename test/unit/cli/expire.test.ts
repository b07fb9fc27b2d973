// `claude-memory expire` end to end through the bundled CLI: files aged by their modification time.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DAY_MS } from '../../../src/core/memory';
import { createNodeMemoryEngine } from '../../../src/platform/node/nodeMemoryEngine';
import { exec, HISTORY_CLI, historyJson } from './historySupport';
import { bundleCli, runCliProcess } from './support';

interface ExpiredJson {
  path: string;
  lastUsed: string;
  idleDays: number;
}

describe('claude-memory expire (process)', function () {
  this.timeout(90_000);
  let ws: string;
  let store: string;

  before(() => bundleCli(HISTORY_CLI));
  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-expire-')));
    store = path.join(ws, '.claude-memories');
    fs.mkdirSync(store);
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  /** A memory file written outside the engine (no version) and last modified `days` ago. */
  function oldFile(rel: string, content: string | Buffer, days: number): Date {
    const file = path.join(store, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    // Whole seconds: what every file system keeps exactly.
    const when = new Date(Math.floor((Date.now() - days * DAY_MS) / 1000) * 1000);
    fs.utimesSync(file, when, when);
    return when;
  }

  async function expire(...args: string[]): Promise<ExpiredJson[]> {
    const r = await runCliProcess(HISTORY_CLI, ['expire', '--workspace', ws, '--json', ...args], ws);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as ExpiredJson[];
  }

  it('lists with --dry-run, then deletes the idle files as versions by expiry; a swept file comes back byte-exactly', async () => {
    const bytes = Buffer.from('old\r\nnote — ünïcödé\n\u0000\u00ff tail without newline');
    const when = oldFile('notes/stale.md', bytes, 200);
    oldFile('recent.md', 'fresh', 10);
    await exec(ws, { command: 'create', path: '/memories/written-today.md', file_text: 'new' });

    const planned = await expire('--dry-run');
    assert.deepEqual(planned, [{ path: '/memories/notes/stale.md', lastUsed: when.toISOString(), idleDays: 200 }]);
    assert.ok(fs.existsSync(path.join(store, 'notes', 'stale.md')), 'a dry run deletes nothing');
    assert.equal((await historyJson(ws)).length, 1, 'a dry run records nothing');

    assert.deepEqual(await expire(), planned);
    assert.ok(!fs.existsSync(path.join(store, 'notes', 'stale.md')));
    assert.ok(fs.existsSync(path.join(store, 'recent.md')) && fs.existsSync(path.join(store, 'written-today.md')));
    const versions = await historyJson(ws, 'notes/stale.md');
    assert.deepEqual(versions.map((e) => [e.op, e.author]), [['delete', 'expiry']]);
    assert.deepEqual(await expire(), [], 'nothing left to expire');

    const r = await runCliProcess(HISTORY_CLI, ['restore', 'notes/stale.md', '--version', String(versions[0].version)], ws);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(fs.readFileSync(path.join(store, 'notes', 'stale.md')), bytes);
    assert.deepEqual(await expire(), [], 'a restored file counts as used');
  });

  it('prints what it did as text; --days sets the limit, 0 turns expiry off; --help explains', async () => {
    oldFile('a.md', 'a', 120);
    oldFile('b.md', 'b', 40);
    const off = await runCliProcess(HISTORY_CLI, ['expire', '--days', '0'], ws);
    assert.equal(off.code, 0, off.stderr);
    assert.equal(off.stdout, 'Expiry is off (--days 0): nothing deleted.\n');
    assert.deepEqual(await expire('--days', '0'), []);

    const dry = await runCliProcess(HISTORY_CLI, ['expire', '--dry-run', '--days', '30'], ws);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^2 memory files would expire \(unused for more than 30 days; nothing changed\):\n/);
    assert.match(dry.stdout, /\n {2}\/memories\/a\.md\s+last used \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+\(120 days ago\)\n/);

    // The default is 90 days: only a.md.
    const real = await runCliProcess(HISTORY_CLI, ['expire'], ws);
    assert.equal(real.code, 0, real.stderr);
    assert.match(real.stdout, /^1 memory file expired \(unused for more than 90 days\); 'claude-memory history PATH' and 'claude-memory restore' bring them back:\n {2}\/memories\/a\.md /);
    assert.ok(fs.existsSync(path.join(store, 'b.md')));
    const none = await runCliProcess(HISTORY_CLI, ['expire'], ws);
    assert.equal(none.stdout, 'No memory file has gone unused for more than 90 days: nothing expired.\n');

    const bad = await runCliProcess(HISTORY_CLI, ['expire', '--days', '-3'], ws);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--days/);
    const help = await runCliProcess(HISTORY_CLI, ['expire', '--help'], ws);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: claude-memory expire \[--workspace DIR\] \[--days N\] \[--dry-run\] \[--json\]/);
    assert.match(help.stdout, /default: 90/);
    assert.match(help.stdout, /progress\.md, features\.json, startup\.md and pinned files never expire/);
  });

  it('keeps a file an agent read through exec view (the read is noted in .meta/usage.log)', async () => {
    oldFile('read.md', 'still useful', 200);
    oldFile('unread.md', 'forgotten', 200);
    const r = await runCliProcess(HISTORY_CLI, ['exec'], ws, JSON.stringify({ command: 'view', path: '/memories/read.md' }) + '\n');
    assert.equal(r.code, 0, r.stderr);
    const uses = await createNodeMemoryEngine(store, { guards: false }).engine.fileUses();
    assert.deepEqual(uses.filter((u) => Date.now() - u.lastUsed < 60_000).map((u) => u.rel), ['read.md']);
    assert.deepEqual((await expire()).map((e) => e.path), ['/memories/unread.md']);
    assert.ok(fs.existsSync(path.join(store, 'read.md')));
  });

  it('never expires the checklist files or a pinned file', async () => {
    for (const rel of ['features.json', 'progress.md', 'startup.md', 'pinned.md', 'sub/progress.md']) oldFile(rel, `${rel}\n`, 400);
    const { engine } = createNodeMemoryEngine(store);
    await engine.setPinned('pinned.md', true);
    assert.deepEqual((await expire()).map((e) => e.path), ['/memories/sub/progress.md']);
    for (const rel of ['features.json', 'progress.md', 'startup.md', 'pinned.md']) assert.ok(fs.existsSync(path.join(store, rel)), rel);
    await engine.setPinned('pinned.md', false);
    assert.deepEqual((await expire()).map((e) => e.path), ['/memories/pinned.md'], 'unpinned, it expires');
  });

  // The writer is `claude-memory exec`, fed one write at a time; the sweep runs in another
  // process. The sweep lists its candidates (the busy file among them: it is old), then deletes
  // them in path order, idle/* first; the writer starts when the first idle file goes, so its
  // writes land while the sweep works its way towards the busy file.
  it('loses nothing to a sweep while another process keeps writing to an old file', async () => {
    for (let i = 0; i < 150; i++) oldFile(`idle/f${String(i).padStart(3, '0')}.md`, `idle ${i}\n`, 200);
    oldFile('zz-busy.md', 'start\n', 200);
    const writer = spawn(process.execPath, [HISTORY_CLI, 'exec', '--workspace', ws], { stdio: ['pipe', 'pipe', 'inherit'] });
    const answers: ((line: string) => void)[] = [];
    let pending = '';
    writer.stdout.setEncoding('utf8').on('data', (d: string) => {
      pending += d;
      let nl;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        answers.shift()?.(line);
      }
    });
    const send = (input: unknown) =>
      new Promise<{ is_error: boolean; content: string }>((resolve) => {
        answers.push((line) => resolve(JSON.parse(line) as { is_error: boolean; content: string }));
        writer.stdin.write(JSON.stringify(input) + '\n');
      });
    // The writer is up (a folder view notes no read, so the busy file stays idle).
    assert.equal((await send({ command: 'view', path: '/memories/idle' })).is_error, false);

    const sweepStarted = new Promise<void>((resolve) => {
      const watcher = fs.watch(path.join(store, 'idle'), () => {
        watcher.close();
        resolve();
      });
    });
    const sweep = expire();
    await sweepStarted;
    const written: string[] = [];
    let sweeping = true;
    void sweep.finally(() => (sweeping = false));
    for (let i = 0; sweeping || i < 5; i++) {
      const line = `writer line ${i}`;
      // Appended after the first line; if the sweep took the file meanwhile, the line starts it anew.
      let r = await send({ command: 'str_replace', path: '/memories/zz-busy.md', old_str: 'start\n', new_str: `start\n${line}\n` });
      if (r.is_error) r = await send({ command: 'create', path: '/memories/zz-busy.md', file_text: `start\n${line}\n` });
      if (!r.is_error) written.push(line);
    }
    const swept = await sweep;
    writer.stdin.end();
    await new Promise((resolve) => writer.on('close', resolve));

    assert.equal(swept.filter((e) => e.path.startsWith('/memories/idle/')).length, 150, 'every idle file expired');
    assert.ok(written.length >= 5, `the writer wrote ${written.length} lines`);
    // Listed as idle when the sweep began, used by the time the sweep reached it: kept.
    assert.deepEqual(swept.filter((e) => !e.path.startsWith('/memories/idle/')), []);
    // Every line the writer wrote is in the file now or in a version history can restore.
    const { engine } = createNodeMemoryEngine(store);
    const kept = [fs.readFileSync(path.join(store, 'zz-busy.md'), 'utf8')];
    for (const version of await engine.fileHistory('zz-busy.md')) {
      const content = await engine.versionContent(version.version);
      assert.ok(content !== undefined, `version ${version.version} restorable`);
      kept.push(Buffer.from(content).toString('utf8'));
    }
    const lost = written.filter((line) => !kept.some((k) => k.includes(`${line}\n`)));
    assert.deepEqual(lost, []);
    assert.equal(kept[0], `start\n${[...written].reverse().join('\n')}\n`, 'the file holds every line, newest first');
  });
});
