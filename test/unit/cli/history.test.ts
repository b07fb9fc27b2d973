// `claude-memory history`, `restore` and `exec`'s author, end to end through the bundled CLI.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createNodeMemoryEngine } from '../../../src/platform/node/nodeMemoryEngine';
import { exec, HISTORY_CLI, historyJson } from './historySupport';
import { bundleCli, runCliProcess } from './support';

describe('claude-memory history and restore (process)', function () {
  this.timeout(60_000);
  let ws: string;
  let store: string;

  before(() => bundleCli(HISTORY_CLI));
  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-hist-')));
    store = path.join(ws, '.claude-memories');
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('lists every version oldest first as JSON, with exec as the author and /memories paths', async () => {
    await exec(
      ws,
      { command: 'create', path: '/memories/notes.md', file_text: 'alpha\nbeta\n' },
      { command: 'str_replace', path: '/memories/notes.md', old_str: 'beta', new_str: 'gamma' },
      { command: 'insert', path: '/memories/notes.md', insert_line: 0, insert_text: 'first' },
      { command: 'rename', old_path: '/memories/notes.md', new_path: '/memories/kept/notes.md' },
      { command: 'create', path: '/memories/tmp.md', file_text: 'scratch' },
      { command: 'delete', path: '/memories/tmp.md' },
      { command: 'view', path: '/memories' },
    );
    const all = await historyJson(ws);
    assert.deepEqual(
      all.map((e) => [e.version, e.op, e.path, e.oldPath, e.author]),
      [
        [1, 'create', '/memories/notes.md', undefined, 'exec'],
        [2, 'str_replace', '/memories/notes.md', undefined, 'exec'],
        [3, 'insert', '/memories/notes.md', undefined, 'exec'],
        [4, 'rename', '/memories/kept/notes.md', '/memories/notes.md', 'exec'],
        [5, 'create', '/memories/tmp.md', undefined, 'exec'],
        [6, 'delete', '/memories/tmp.md', undefined, 'exec'],
      ],
    );
    const now = fs.readFileSync(path.join(store, 'kept', 'notes.md'));
    const last = all[3];
    assert.equal(last.size, now.length);
    assert.match(last.sha256, /^[0-9a-f]{64}$/);
    assert.ok(Math.abs(Date.parse(last.time) - Date.now()) < 60_000, last.time);
    assert.deepEqual(Object.keys(all[0]).sort(), ['author', 'op', 'path', 'sha256', 'size', 'time', 'version']);

    // One file's versions, its earlier name followed back; both path forms mean the same file.
    const one = await historyJson(ws, 'kept/notes.md');
    assert.deepEqual(one.map((e) => e.version), [1, 2, 3, 4]);
    assert.deepEqual(await historyJson(ws, '/memories/kept/notes.md'), one);
    assert.deepEqual((await historyJson(ws, 'tmp.md')).map((e) => e.op), ['create', 'delete']);
    assert.deepEqual(await historyJson(ws, 'never.md'), []);
  });

  it('prints one readable line per version and says so when there is none', async () => {
    const empty = await runCliProcess(HISTORY_CLI, ['history'], ws);
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal(empty.stdout, 'No versions in the history yet.\n');
    assert.ok(!fs.existsSync(store), 'history creates no store');

    await exec(ws, { command: 'create', path: '/memories/a.md', file_text: 'x' }, { command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' });
    const r = await runCliProcess(HISTORY_CLI, ['history', '--workspace', ws], os.tmpdir());
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 3, r.stdout);
    assert.match(lines[0], /^VERSION\s+TIME\s+OP\s+PATH\s+AUTHOR$/);
    assert.match(lines[1], /^v1\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+create\s+\/memories\/a\.md\s+exec$/);
    assert.match(lines[2], /^v2\s+\S+ \S+\s+rename\s+\/memories\/a\.md → \/memories\/b\.md\s+exec$/);

    const none = await runCliProcess(HISTORY_CLI, ['history', 'zzz.md'], ws);
    assert.equal(none.stdout, 'No versions of /memories/zzz.md in the history.\n');
  });

  it('names a chat version by its title and turn, and gives its session and turn in JSON', async () => {
    const { engine } = createNodeMemoryEngine(store);
    const chat = { name: 'chat', session: 'c-42', turn: 3, title: 'Fix login' };
    assert.equal((await engine.execute({ command: 'create', path: '/memories/login.md', file_text: 'use OAuth' }, undefined, chat)).is_error, false);
    await engine.update('login.md', () => 'use OAuth\nby hand');
    const [created, edited] = await historyJson(ws);
    assert.deepEqual([created.author, created.session, created.turn], ['chat', 'c-42', 3]);
    assert.deepEqual([edited.op, edited.author, edited.session, edited.turn], ['edit', 'user', undefined, undefined]);
    const r = await runCliProcess(HISTORY_CLI, ['history', 'login.md'], ws);
    assert.match(r.stdout, /\nv1\s.*\screate\s+\/memories\/login\.md\s+chat 'Fix login' \(turn 3\)\n/);
    assert.match(r.stdout, /\nv2\s.*\sedit\s+\/memories\/login\.md\s+user\n$/);
  });

  it('refuses bad paths and arguments with one line', async () => {
    const meta = await runCliProcess(HISTORY_CLI, ['history', '.meta/usage.json'], ws);
    assert.equal(meta.code, 1);
    assert.equal(meta.stderr.split('\n').filter(Boolean).length, 1, meta.stderr);
    assert.match(meta.stderr, /^claude-memory history: .*\.meta/);
    const traversal = await runCliProcess(HISTORY_CLI, ['history', '../etc/passwd'], ws);
    assert.equal(traversal.code, 1);
    assert.equal(traversal.stdout, '');
    const two = await runCliProcess(HISTORY_CLI, ['history', 'a.md', 'b.md'], ws);
    assert.equal(two.code, 2);
    assert.match(two.stderr, /one PATH at most/);
    for (const [command, words] of [
      ['history', /--json/],
      ['restore', /--version N/],
    ] as const) {
      const help = await runCliProcess(HISTORY_CLI, [command, '--help'], ws);
      assert.equal(help.code, 0);
      assert.match(help.stdout, new RegExp(`^Usage: claude-memory ${command} `));
      assert.match(help.stdout, words);
    }
  });

  it('restores an earlier version byte-exactly as a new restore version by user', async () => {
    const first = 'one\r\ntwo — ünïcödé\n\tthree';
    await exec(
      ws,
      { command: 'create', path: '/memories/notes.md', file_text: first },
      { command: 'str_replace', path: '/memories/notes.md', old_str: 'two', new_str: 'TWO' },
      { command: 'rename', old_path: '/memories/notes.md', new_path: '/memories/renamed.md' },
    );
    const r = await runCliProcess(HISTORY_CLI, ['restore', '--workspace', ws, 'renamed.md', '--version', '1'], ws);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Restored /memories/renamed.md to version 1 (recorded as version 4).\n');
    assert.equal(fs.readFileSync(path.join(store, 'renamed.md'), 'utf8'), first);
    const last = (await historyJson(ws)).at(-1)!;
    assert.deepEqual([last.version, last.op, last.path, last.author], [4, 'restore', '/memories/renamed.md', 'user']);

    const again = await runCliProcess(HISTORY_CLI, ['restore', '/memories/renamed.md', '--version', '1'], ws);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, '/memories/renamed.md already holds version 1: nothing changed.\n');
    assert.equal((await historyJson(ws)).length, 4);
  });

  it('brings a deleted file back, its folder too', async () => {
    await exec(ws, { command: 'create', path: '/memories/deep/gone.md', file_text: 'keep me\n' }, { command: 'delete', path: '/memories/deep' });
    assert.ok(!fs.existsSync(path.join(store, 'deep')));
    const versions = await historyJson(ws, 'deep/gone.md');
    assert.deepEqual(versions.map((e) => e.op), ['create', 'delete']);
    const r = await runCliProcess(HISTORY_CLI, ['restore', 'deep/gone.md', '--version', String(versions[1].version)], ws);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readFileSync(path.join(store, 'deep', 'gone.md'), 'utf8'), 'keep me\n');
  });

  it('fails with one clear line: unknown version, pruned version, another file’s version, a folder, missing arguments', async () => {
    // 52 edits of one file: retention keeps its newest 50 versions, so version 1 is pruned.
    const edits = Array.from({ length: 52 }, (_, i) => ({ command: 'insert', path: '/memories/busy.md', insert_line: 0, insert_text: `line ${i}` }));
    await exec(ws, { command: 'create', path: '/memories/busy.md', file_text: '' }, ...edits, { command: 'create', path: '/memories/dir/other.md', file_text: 'o' });
    const versions = await historyJson(ws);
    assert.ok(!versions.some((e) => e.version === 1), 'version 1 pruned');
    const newest = versions.at(-1)!.version;
    const before = fs.readFileSync(path.join(store, 'busy.md'));

    const cases: [string[], RegExp][] = [
      [['busy.md', '--version', String(newest + 5)], new RegExp(`^claude-memory restore: there is no version ${newest + 5} \\(the newest is ${newest}\\)\\.\n$`)],
      [['busy.md', '--version', '1'], /^claude-memory restore: version 1 is no longer in the history \(retention pruned it\)\.\n$/],
      [['busy.md', '--version', String(newest)], /^claude-memory restore: version \d+ is a version of \/memories\/dir\/other\.md, not of \/memories\/busy\.md/],
      [['dir', '--version', String(newest)], /^claude-memory restore: \/memories\/dir is a folder/],
      [['/memories', '--version', '2'], /^claude-memory restore: \/memories is the memory folder itself/],
      [['.meta/pins.json', '--version', '2'], /^claude-memory restore: .*\.meta/],
    ];
    for (const [args, want] of cases) {
      const r = await runCliProcess(HISTORY_CLI, ['restore', ...args], ws);
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, want);
      assert.equal(r.stderr.split('\n').filter(Boolean).length, 1);
      assert.equal(r.stdout, '');
    }
    for (const [args, want] of [
      [['busy.md'], /--version N is missing/],
      [['--version', '3'], /PATH is missing/],
      [['busy.md', '--version', 'two'], /--version takes a positive whole number/],
    ] as const) {
      const r = await runCliProcess(HISTORY_CLI, ['restore', ...args], ws);
      assert.equal(r.code, 2);
      assert.match(r.stderr, want);
    }
    assert.deepEqual(fs.readFileSync(path.join(store, 'busy.md')), before, 'no failed restore changed the file');
    assert.equal((await historyJson(ws)).length, versions.length, 'no failed restore recorded a version');
  });
});
