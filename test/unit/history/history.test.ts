/**
 * The store's history: every writer records a version with its author; restore and undo bring
 * back exact bytes; retention drops the oldest but never a live file's current content; the
 * history folder is private (redacted, unreachable through the memory tool).
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { MemoryEngine, type HistoryEntry, type MemoryToolResult } from '../../../src/core/memory';
import { fileHistoryOf, undoPlanOf } from '../../../src/core/memory/history/entries';
import { InMemoryFileSystem } from '../../support/inMemoryFileSystem';

const enc = new TextEncoder();
const dec = new TextDecoder();
const sha = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex');

function ok(result: MemoryToolResult): MemoryToolResult {
  assert.equal(result.is_error, false, String(result.content));
  return result;
}

function text(fs: InMemoryFileSystem, rel: string): Promise<string> {
  return fs.readFile(rel).then((b) => dec.decode(b));
}

function brief(entries: readonly HistoryEntry[]): string[] {
  return entries.map((e) => `${e.version} ${e.op} ${e.oldPath ? `${e.oldPath}->` : ''}${e.path} ${e.author.name}`);
}

describe('history: every change is a version with its author', () => {
  it('records each memory command with op, path, sha256, size and the call\'s author; the result names the version', async () => {
    const fs = new InMemoryFileSystem();
    const engine = new MemoryEngine(fs, { author: { name: 'exec' } });
    const chat = { name: 'chat', session: 'c-1', turn: 2, title: 'Fix login' };
    const created = ok(await engine.execute({ command: 'create', path: '/memories/notes/a.md', file_text: 'one\n' }, undefined, chat));
    assert.equal(created.touched?.version, 1);
    ok(await engine.execute({ command: 'str_replace', path: '/memories/notes/a.md', old_str: 'one', new_str: 'two' }));
    ok(await engine.execute({ command: 'insert', path: '/memories/notes/a.md', insert_line: 1, insert_text: 'three' }, undefined, { name: 'mcp:Claude Code' }));
    ok(await engine.execute({ command: 'rename', old_path: '/memories/notes', new_path: '/memories/kept' }, undefined, { name: 'lm-tool' }));
    ok(await engine.execute({ command: 'delete', path: '/memories/kept/a.md' }, undefined, { name: 'run' }));
    ok(await engine.execute({ command: 'view', path: '/memories' }));
    const history = await engine.history();
    assert.deepEqual(brief(history), [
      '1 create notes/a.md chat',
      '2 str_replace notes/a.md exec',
      '3 insert notes/a.md mcp:Claude Code',
      '4 rename notes/a.md->kept/a.md lm-tool',
      '5 delete kept/a.md run',
    ]);
    assert.deepEqual(history[0].author, chat);
    assert.equal(history[0].sha256, sha('one\n'));
    assert.equal(history[2].sha256, sha('two\nthree\n'));
    assert.equal(history[2].size, 10);
    // A delete keeps what the file held; a rename the content it moved.
    assert.equal(history[4].sha256, sha('two\nthree\n'));
    assert.equal(dec.decode(await engine.versionContent(5)), 'two\nthree\n');
    assert.ok(history.every((e, i) => i === 0 || e.time >= history[i - 1].time));
  });

  it('records the user\'s hand edits (tree, Features ticks) as `user`, and another author when named', async () => {
    const fs = new InMemoryFileSystem();
    const engine = new MemoryEngine(fs);
    assert.equal(await engine.createFile('f.md', enc.encode('a')), true);
    assert.equal(await engine.update('f.md', (t) => `${t}b`), true);
    assert.equal(await engine.update('f.md', (t) => t), false, 'no change, no version');
    await engine.rename('f.md', 'g.md');
    await engine.createFolder('empty');
    await engine.delete('g.md', { name: 'expiry' });
    assert.deepEqual(brief(await engine.history()), ['1 create f.md user', '2 edit f.md user', '3 rename f.md->g.md user', '4 delete g.md expiry']);
  });

  it('first records a content it never saw (a hand edit in the editor) as the user\'s, so the agent\'s change can be undone to it', async () => {
    const fs = new InMemoryFileSystem();
    const engine = new MemoryEngine(fs);
    ok(await engine.execute({ command: 'create', path: '/memories/p.md', file_text: 'agent\n' }));
    await fs.writeFile('p.md', enc.encode('agent\nhand-typed\n'));
    ok(await engine.execute({ command: 'insert', path: '/memories/p.md', insert_line: 2, insert_text: 'agent again' }));
    assert.deepEqual(brief(await engine.history()), ['1 create p.md agent', '2 edit p.md user', '3 insert p.md agent']);
    await engine.undo(3);
    assert.equal(await text(fs, 'p.md'), 'agent\nhand-typed\n');
  });

  it('records what a watcher saw: a hand edit as `edit`, a file removed by hand as `delete` (restorable)', async () => {
    const fs = new InMemoryFileSystem();
    const engine = new MemoryEngine(fs);
    ok(await engine.execute({ command: 'create', path: '/memories/w.md', file_text: 'v1' }));
    assert.equal(await engine.noticeChange('w.md'), undefined, 'the engine\'s own write is known');
    await fs.writeFile('w.md', enc.encode('v2 by hand'));
    assert.equal(await engine.noticeChange('w.md'), 2);
    await fs.delete('w.md', { recursive: false });
    assert.equal(await engine.noticeChange('w.md'), 3);
    assert.deepEqual(brief(await engine.history()), ['1 create w.md agent', '2 edit w.md user', '3 delete w.md user']);
    await engine.restore('w.md', 3);
    assert.equal(await text(fs, 'w.md'), 'v2 by hand');
  });

  it('a folder\'s notice records the files gone below it (the watcher drops a file added and removed in one batch)', async () => {
    const fs = new InMemoryFileSystem();
    const engine = new MemoryEngine(fs);
    ok(await engine.execute({ command: 'create', path: '/memories/d/gone.md', file_text: 'short-lived' }));
    ok(await engine.execute({ command: 'create', path: '/memories/d/kept.md', file_text: 'stays' }));
    ok(await engine.execute({ command: 'create', path: '/memories/other.md', file_text: 'elsewhere' }));
    await fs.delete('d/gone.md', { recursive: false });
    await fs.delete('other.md', { recursive: false });
    assert.equal(await engine.noticeChange('d'), 4);
    assert.deepEqual(brief(await engine.history()).slice(3), ['4 delete d/gone.md user'], 'only what is below the folder');
    assert.equal(await engine.noticeChange('d'), undefined, 'recorded once');
    await engine.restore('d/gone.md', 4);
    assert.equal(await text(fs, 'd/gone.md'), 'short-lived');
  });

  it('records nothing for a refused command', async () => {
    const engine = new MemoryEngine(new InMemoryFileSystem());
    ok(await engine.execute({ command: 'create', path: '/memories/a.md', file_text: 'x' }));
    assert.equal((await engine.execute({ command: 'create', path: '/memories/a.md', file_text: 'y' })).is_error, true);
    assert.equal((await engine.execute({ command: 'str_replace', path: '/memories/a.md', old_str: 'nope', new_str: 'z' })).is_error, true);
    assert.equal((await engine.execute({ command: 'delete', path: '/memories/none.md' })).is_error, true);
    assert.equal((await engine.history()).length, 1);
  });

  it('keeps no history when it is off', async () => {
    const fs = new InMemoryFileSystem();
    const engine = new MemoryEngine(fs, { history: false });
    const result = ok(await engine.execute({ command: 'create', path: '/memories/a.md', file_text: 'x' }));
    assert.equal(result.touched?.version, undefined);
    assert.deepEqual(await engine.history(), []);
    assert.deepEqual(fs.snapshot().filter((p) => p.startsWith('.meta')), []);
    await assert.rejects(engine.restore('a.md', 1), /History is off/);
  });
});

describe('history: restore and undo give back exact bytes', () => {
  it('restores an edit, a delete (the file comes back) and follows a rename back', async () => {
    const fs = new InMemoryFileSystem();
    const engine = new MemoryEngine(fs, { createPolicy: 'overwrite' });
    const bytes = '\ufeffline 1\r\nline 2\r\n';
    ok(await engine.execute({ command: 'create', path: '/memories/a.md', file_text: 'first' }));
    await fs.writeFile('a.md', enc.encode(bytes));
    ok(await engine.execute({ command: 'str_replace', path: '/memories/a.md', old_str: 'line 2', new_str: 'changed' }));
    ok(await engine.execute({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' }));
    const versions = await engine.fileHistory('b.md');
    assert.deepEqual(brief(versions), ['1 create a.md agent', '2 edit a.md user', '3 str_replace a.md agent', '4 rename a.md->b.md agent']);
    const restored = await engine.restore('b.md', 2);
    assert.deepEqual(await fs.readFile('b.md'), enc.encode(bytes));
    const last = (await engine.history()).at(-1)!;
    assert.equal(last.version, restored);
    assert.equal(last.op, 'restore');
    assert.equal(last.restoredFrom, 2);
    assert.equal(await engine.restore('b.md', 2), undefined, 'already that content: nothing recorded');
    ok(await engine.execute({ command: 'delete', path: '/memories/b.md' }));
    const deleted = (await engine.history()).at(-1)!;
    await engine.restore('b.md', deleted.version);
    assert.deepEqual(await fs.readFile('b.md'), enc.encode(bytes));
  });

  it('undoes five agent writes one by one, newest first, back to the first bytes', async () => {
    const fs = new InMemoryFileSystem();
    const engine = new MemoryEngine(fs);
    fs.seed('log.md', 'start\n');
    const first = await fs.readFile('log.md');
    const calls = [
      { command: 'insert', path: '/memories/log.md', insert_line: 1, insert_text: 'one' },
      { command: 'str_replace', path: '/memories/log.md', old_str: 'start', new_str: 'begin' },
      { command: 'create', path: '/memories/extra.md', file_text: 'extra' },
      { command: 'rename', old_path: '/memories/extra.md', new_path: '/memories/moved.md' },
      { command: 'delete', path: '/memories/log.md' },
    ];
    const versions: number[] = [];
    for (const call of calls) {
      const before = fs.snapshot();
      versions.push(ok(await engine.execute(call)).touched!.version!);
      assert.notDeepEqual(fs.snapshot(), before);
    }
    const memory = () => fs.snapshot().filter((p) => !p.startsWith('.meta'));
    const final = memory();
    assert.ok(final.every((p) => !p.startsWith('log.md')));
    for (const version of [...versions].reverse()) await engine.undo(version);
    assert.deepEqual(memory(), [`log.md (6) ${Buffer.from('start\n').toString('base64')}`]);
    assert.deepEqual(await fs.readFile('log.md'), first);
  });

  it('plans each undo: create → delete, edit → previous version, delete → back, rename → back; later changes are counted', () => {
    const e = (version: number, op: HistoryEntry['op'], path: string, oldPath?: string): HistoryEntry => ({
      version, op, path, ...(oldPath ? { oldPath } : {}), time: version, author: { name: 'agent' }, sha256: `s${version}`, size: 1, blob: 'b'.repeat(64),
    });
    const sorted = [e(1, 'create', 'a'), e(2, 'str_replace', 'a'), e(3, 'rename', 'b', 'a'), e(4, 'insert', 'b'), e(5, 'delete', 'b')];
    assert.deepEqual(undoPlanOf(sorted, 1), { plan: { kind: 'delete', path: 'b', sha256: 's1' }, later: 4 });
    assert.deepEqual(undoPlanOf(sorted, 2), { plan: { kind: 'restore', path: 'b', version: 1 }, later: 3 });
    assert.deepEqual(undoPlanOf(sorted, 3), { plan: { kind: 'rename', from: 'b', to: 'a' }, later: 2 });
    assert.deepEqual(undoPlanOf(sorted, 4), { plan: { kind: 'restore', path: 'b', version: 3 }, later: 1 });
    assert.deepEqual(undoPlanOf(sorted, 5), { plan: { kind: 'restore', path: 'b', version: 5 }, later: 0 });
    assert.equal(undoPlanOf(sorted, 9), undefined);
    assert.deepEqual(fileHistoryOf(sorted, 'b').map((x) => x.version), [1, 2, 3, 4, 5]);
  });
});

describe('history: retention', () => {
  it('keeps the newest versions per file, drops old days and stays under the size cap, never a live file\'s current content', async () => {
    let now = Date.UTC(2026, 0, 1);
    const fs = new InMemoryFileSystem();
    const engine = new MemoryEngine(fs, { now: () => now, history: { maxVersionsPerFile: 3, maxDays: 10, maxBytes: 1000 } });
    ok(await engine.execute({ command: 'create', path: '/memories/a.md', file_text: 'v0' }));
    for (let i = 1; i < 6; i++) ok(await engine.execute({ command: 'str_replace', path: '/memories/a.md', old_str: `v${i - 1}`, new_str: `v${i}` }));
    assert.deepEqual((await engine.fileHistory('a.md')).map((e) => e.version), [4, 5, 6]);
    ok(await engine.execute({ command: 'create', path: '/memories/gone.md', file_text: 'bye' }));
    ok(await engine.execute({ command: 'delete', path: '/memories/gone.md' }));
    now += 11 * 24 * 3600 * 1000;
    ok(await engine.execute({ command: 'create', path: '/memories/new.md', file_text: 'n' }));
    // 11 days later: everything old goes except a.md's current version; the deleted file's too.
    assert.deepEqual(brief(await engine.history()), ['6 str_replace a.md agent', '9 create new.md agent']);
    assert.equal(dec.decode(await engine.versionContent(6)), 'v5');
    // Dropped versions are gone for every reader at once (a drop record in the journal); a new engine sees the same.
    assert.deepEqual(brief(await new MemoryEngine(fs, { now: () => now }).history()), ['6 str_replace a.md agent', '9 create new.md agent']);
    // The size cap: big versions of one file push out its older ones, but not the current one.
    const big = `${'x'.repeat(600)}END`;
    ok(await engine.execute({ command: 'create', path: '/memories/big.md', file_text: big }));
    ok(await engine.execute({ command: 'str_replace', path: '/memories/big.md', old_str: 'END', new_str: 'FIN' }));
    const left = await engine.history();
    assert.deepEqual(brief(left), ['6 str_replace a.md agent', '9 create new.md agent', '11 str_replace big.md agent']);
  });
});

describe('history: private and redacted', () => {
  it('is refused through the memory tool and never listed', async () => {
    const fs = new InMemoryFileSystem();
    const engine = new MemoryEngine(fs);
    ok(await engine.execute({ command: 'create', path: '/memories/a.md', file_text: 'x' }));
    assert.ok(fs.snapshot().some((p) => p.startsWith('.meta/history/journal-')));
    const listing = ok(await engine.execute({ command: 'view', path: '/memories' }));
    assert.doesNotMatch(String(listing.content), /meta|history/);
    for (const call of [
      { command: 'view', path: '/memories/.meta/history' },
      { command: 'view', path: '/memories/.meta/history/journal-000001' },
      { command: 'create', path: '/memories/.meta/history/journal-000002', file_text: '{}' },
      { command: 'delete', path: '/memories/.meta/history' },
      { command: 'rename', old_path: '/memories/a.md', new_path: '/memories/.META/history/a.md' },
    ]) {
      const result = await engine.execute(call);
      assert.equal(result.is_error, true, JSON.stringify(call));
    }
    assert.deepEqual(brief(await engine.history()), ['1 create a.md agent']);
  });

  it('keeps a secret typed by hand only redacted, while sha256 names the file\'s real content', async () => {
    const fs = new InMemoryFileSystem();
    const engine = new MemoryEngine(fs);
    const secret = 'sk-ant-api03-' + 'a'.repeat(95);
    await engine.createFile('keys.md', enc.encode(`token: ${secret}\n`));
    const [entry] = await engine.history();
    assert.equal(entry.redacted, true);
    assert.equal(entry.sha256, sha(`token: ${secret}\n`));
    const stored = fs.snapshot().filter((p) => p.startsWith('.meta/')).map((p) => Buffer.from(p.split(' ').at(-1) ?? '', 'base64').toString());
    assert.ok(!stored.some((s) => s.includes(secret)), 'the secret reached the history folder');
    assert.match(dec.decode(await engine.versionContent(entry.version)), /\[REDACTED:/);
  });

  it('numbers versions once across engines on one store and each sees the other\'s', async () => {
    const fs = new InMemoryFileSystem();
    const a = new MemoryEngine(fs, { author: { name: 'exec' } });
    const b = new MemoryEngine(fs, { author: { name: 'mcp:x' } });
    ok(await a.execute({ command: 'create', path: '/memories/a.md', file_text: '1' }));
    ok(await b.execute({ command: 'create', path: '/memories/b.md', file_text: '2' }));
    ok(await a.execute({ command: 'str_replace', path: '/memories/b.md', old_str: '2', new_str: '3' }));
    assert.deepEqual(brief(await b.history()), ['1 create a.md exec', '2 create b.md mcp:x', '3 str_replace b.md exec']);
    assert.deepEqual(brief(await a.history()), brief(await b.history()));
  });
});
