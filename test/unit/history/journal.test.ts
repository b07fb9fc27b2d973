/**
 * The history journal on disk: one segment file, appended frames, deltas that give back exact
 * bytes, a torn tail ignored and dropped, another engine (process) following by offset,
 * compaction into a new epoch, and the format before the journal migrated once, losing nothing.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MemoryEngine, type MemoryToolResult } from '../../../src/core/memory';
import { encodeRecord, parseRecords } from '../../../src/core/memory/history/journal';
import { parseEntry } from '../../../src/core/memory/history/entries';
import { segmentFile } from '../../../src/core/memory/history/historyStore';
import { createNodeMemoryEngine } from '../../../src/platform/node/nodeMemoryEngine';
import { InMemoryFileSystem } from '../../support/inMemoryFileSystem';

const enc = new TextEncoder();
const dec = new TextDecoder();
const sha = (bytes: string | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function ok(result: MemoryToolResult): MemoryToolResult {
  assert.equal(result.is_error, false, String(result.content));
  return result;
}

function tempStore(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'journal-')), '.claude-memories');
}

function historyFiles(store: string): string[] {
  return fs.readdirSync(path.join(store, '.meta/history')).sort();
}

describe('history journal', () => {
  it('keeps every version in one segment file and gives back each version\'s exact bytes (deltas, CRLF, binary, no final newline)', async () => {
    const store = tempStore();
    const { engine } = createNodeMemoryEngine(store, { guards: false });
    const texts: string[] = [];
    let text = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
    ok(await engine.execute({ command: 'create', path: '/memories/a.md', file_text: text }));
    texts.push(text);
    for (let i = 0; i < 60; i++) {
      const next = i % 7 === 3 ? text.replace(/\n/g, '\r\n') : `${text.replace(`line ${i % 40}`, `line ${i % 40} edited ${i}`)}${i % 5 === 0 ? '\n' : ''}`;
      await engine.update('a.md', () => next);
      text = next;
      texts.push(text);
    }
    await engine.createFile('bin.dat', new Uint8Array([0, 255, 254, 10, 0]));
    assert.deepEqual(historyFiles(store), ['journal-000001']);
    const versions = await engine.fileHistory('a.md');
    // Retention keeps the newest 50; each gives back its bytes, checked against its sha256.
    assert.equal(versions.length, 50);
    for (const v of versions) {
      const bytes = await engine.versionContent(v.version);
      assert.ok(bytes);
      assert.equal(sha(bytes), v.sha256, `v${v.version}`);
    }
    assert.equal(dec.decode(await engine.versionContent(versions.at(-1)!.version)), texts.at(-1));
    const bin = (await engine.history()).at(-1)!;
    assert.deepEqual([...(await engine.versionContent(bin.version))!], [0, 255, 254, 10, 0]);
    // Deltas: far smaller on disk than 61 copies of a 400-byte file.
    assert.ok(fs.statSync(path.join(store, '.meta/history/journal-000001')).size < 61 * 400 / 2);
  });

  it('ignores a torn tail (a writer killed mid-append) and the next writer drops it before appending', async () => {
    const store = tempStore();
    const first = createNodeMemoryEngine(store, { guards: false }).engine;
    ok(await first.execute({ command: 'create', path: '/memories/a.md', file_text: 'one\n' }));
    ok(await first.execute({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'two' }));
    const segment = path.join(store, segmentFile(1));
    const whole = fs.readFileSync(segment);
    // Half a frame at the end, as a killed writer leaves it; then a frame whose checksum fails.
    const frame = encodeRecord({ k: 'drop', versions: [1, 2] });
    fs.appendFileSync(segment, frame.subarray(0, frame.length - 3));
    const reader = createNodeMemoryEngine(store, { guards: false }).engine;
    assert.deepEqual((await reader.history()).map((e) => e.version), [1, 2]);
    const damaged = Buffer.from(frame);
    damaged[damaged.length - 1] ^= 0xff;
    fs.writeFileSync(segment, Buffer.concat([whole, damaged]));
    assert.deepEqual((await createNodeMemoryEngine(store, { guards: false }).engine.history()).map((e) => e.version), [1, 2]);
    // The next writer rewrites the segment without the tail (a new epoch), then appends.
    ok(await reader.execute({ command: 'insert', path: '/memories/a.md', insert_line: 1, insert_text: 'three' }));
    assert.deepEqual(historyFiles(store), ['journal-000002']);
    const fresh = createNodeMemoryEngine(store, { guards: false }).engine;
    assert.deepEqual((await fresh.history()).map((e) => `${e.version} ${e.op}`), ['1 create', '2 str_replace', '3 insert']);
    assert.equal(dec.decode(await fresh.versionContent(3)), 'two\nthree\n');
  });

  it('lets another engine on the same store follow the journal by offset, across a compaction', async () => {
    const store = tempStore();
    const retention = { maxVersionsPerFile: 3, maxDays: 30, maxBytes: 1e9 };
    const writer = createNodeMemoryEngine(store, { guards: false, history: retention }).engine;
    const reader = createNodeMemoryEngine(store, { guards: false, history: retention }).engine;
    ok(await writer.execute({ command: 'create', path: '/memories/a.md', file_text: 'v0\n' }));
    assert.deepEqual((await reader.history()).map((e) => e.version), [1]);
    for (let i = 1; i <= 200; i++) ok(await writer.execute({ command: 'str_replace', path: '/memories/a.md', old_str: `v${i - 1}`, new_str: `v${i}` }));
    // Retention dropped all but 3 versions; compaction moved the journal to a later epoch.
    const files = historyFiles(store);
    assert.equal(files.length, 1);
    assert.notEqual(files[0], 'journal-000001');
    assert.deepEqual((await reader.history()).map((e) => e.version), [199, 200, 201]);
    assert.equal(dec.decode(await reader.versionContent(201)), 'v200\n');
    // The reader records in turn; the writer sees it; version numbers are never reused.
    await reader.update('a.md', (t) => `${t}more\n`);
    assert.deepEqual((await writer.history()).map((e) => e.version), [200, 201, 202]);
  });

  it('repacks versions appended since the last rewrite behind the bytes written then, and every version reads back the same', async () => {
    const store = tempStore();
    const { engine } = createNodeMemoryEngine(store, { guards: false });
    const segment = () => path.join(store, '.meta/history', historyFiles(store)[0]);
    // 40 files edited round-robin: nothing reaches the per-file limit, nothing is dropped.
    const expected = new Map<number, string>();
    let firstRewrite: Buffer | undefined;
    for (let i = 0; i < 700; i++) {
      const file = `/memories/f${i % 40}.md`;
      const text = `note ${i % 40}\nedit ${i}\n`;
      const result = ok(await engine.execute(i < 40 ? { command: 'create', path: file, file_text: text } : { command: 'str_replace', path: file, old_str: `edit ${i - 40}`, new_str: `edit ${i}` }));
      expected.set(result.touched!.version!, text);
      // The bytes of the first rewrite (256 versions appended one frame each) stay the head of every later one.
      if (firstRewrite === undefined && historyFiles(store)[0] !== 'journal-000001') firstRewrite = fs.readFileSync(segment());
    }
    assert.ok(firstRewrite, 'the segment was rewritten');
    const epoch = Number(historyFiles(store)[0].slice('journal-'.length));
    assert.ok(epoch >= 3, `rewritten more than once (epoch ${epoch})`);
    const now = fs.readFileSync(segment());
    assert.ok(now.length > firstRewrite.length);
    assert.equal(Buffer.compare(now.subarray(0, firstRewrite.length), firstRewrite), 0, 'the later rewrites kept the bytes of the first');
    // A fresh engine (another process) reads every version back, each with its exact bytes.
    const fresh = createNodeMemoryEngine(store, { guards: false }).engine;
    const versions = await fresh.history();
    assert.equal(versions.length, 700);
    for (const v of versions) {
      const bytes = await fresh.versionContent(v.version);
      assert.ok(bytes, `v${v.version}`);
      assert.equal(sha(bytes), v.sha256, `v${v.version}`);
      assert.equal(dec.decode(bytes), expected.get(v.version), `v${v.version}`);
    }
    // And it records on top of the repacked segment, numbers going on.
    ok(await fresh.execute({ command: 'create', path: '/memories/last.md', file_text: 'last\n' }));
    assert.deepEqual((await engine.history()).map((e) => e.version).slice(-2), [700, 701]);
  });

  it('migrates the format before the journal (v/ records, b/ contents, head) once, in place, losing nothing', async () => {
    const store = tempStore();
    const meta = path.join(store, '.meta/history');
    fs.mkdirSync(path.join(meta, 'v'), { recursive: true });
    fs.mkdirSync(path.join(meta, 'b'));
    fs.writeFileSync(path.join(store, 'a.md'), 'second\n');
    const contents = ['first\n', 'second\n', 'gone\n'];
    const entries = [
      { version: 3, time: 1000, op: 'create', path: 'a.md', author: { name: 'chat', session: 's1', turn: 2, title: 'Fix' }, sha256: sha(contents[0]), size: 6, blob: sha(contents[0]) },
      { version: 4, time: 2000, op: 'edit', path: 'a.md', author: { name: 'user' }, sha256: sha(contents[1]), size: 7, blob: sha(contents[1]) },
      { version: 7, time: 3000, op: 'delete', path: 'old.md', author: { name: 'expiry' }, sha256: sha('secret=1\n'), size: 9, blob: sha(contents[2]), redacted: true },
    ];
    for (const e of entries) fs.writeFileSync(path.join(meta, 'v', `${String(e.version).padStart(12, '0')}.json`), JSON.stringify(e));
    for (const c of contents) fs.writeFileSync(path.join(meta, 'b', sha(c)), c);
    fs.writeFileSync(path.join(meta, 'head'), JSON.stringify({ last: 9, epoch: 2 }));
    const { engine } = createNodeMemoryEngine(store, { guards: false });
    const history = await engine.history();
    assert.deepEqual(history, entries);
    assert.deepEqual(historyFiles(store), ['journal-000001']);
    for (const [i, e] of entries.entries()) assert.equal(dec.decode(await engine.versionContent(e.version)), contents[i]);
    // Numbers go on after the old head's last, never reusing one.
    await engine.update('a.md', () => 'third\n');
    assert.equal((await engine.history()).at(-1)!.version, 10);
  });

  it('works on a file system without append (vscode.workspace.fs): the segment is rewritten atomically', async () => {
    const memory = new InMemoryFileSystem();
    assert.equal((memory as { append?: unknown }).append, undefined);
    const engine = new MemoryEngine(memory);
    ok(await engine.execute({ command: 'create', path: '/memories/a.md', file_text: 'x\n' }));
    ok(await engine.execute({ command: 'str_replace', path: '/memories/a.md', old_str: 'x', new_str: 'y' }));
    const segment = await memory.readFile(segmentFile(1));
    const parsed = parseRecords(segment, parseEntry);
    assert.equal(parsed.leftover, 0);
    assert.deepEqual(parsed.records.map((r) => (r.k === 'v' ? r.entry.version : -1)), [1, 2]);
    assert.equal(dec.decode(await new MemoryEngine(memory).versionContent(2)), 'y\n');
    assert.ok(!memory.snapshot().some((p) => p.includes('.~tmp-')));
  });

  it('round-trips a frame: the record read back is the record written (blob restored from the sha256)', () => {
    const entry = { version: 1, time: 1, op: 'create' as const, path: 'a.md', author: { name: 'exec' }, sha256: sha('x'), size: 1, blob: sha('x') };
    const frame = encodeRecord({ k: 'v', entry, storage: { s: 'full' }, body: enc.encode('x') });
    const parsed = parseRecords(frame, parseEntry);
    assert.equal(parsed.records.length, 1);
    const [record] = parsed.records;
    assert.ok(record.k === 'v');
    assert.deepEqual(record.entry, entry);
    assert.deepEqual(record.storage, { s: 'full' });
    assert.equal(dec.decode(record.body), 'x');
  });
});
