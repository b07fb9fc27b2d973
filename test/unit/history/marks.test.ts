/**
 * Read times: usage.json plus the log of reads, moves and removals appended since, as every
 * writer and reader of one store sees them on disk.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FOLD_AFTER, StoreMarks } from '../../../src/core/memory/history/marks';
import { SafeStore } from '../../../src/core/memory/store';
import { NodeMemoryFileSystem } from '../../../src/platform/node/nodeFileSystem';

describe('store marks: read times as a map and an appended log', () => {
  let dir: string;
  const marksOf = () => new StoreMarks(new SafeStore(new NodeMemoryFileSystem(dir)));
  const onDisk = (name: string) => path.join(dir, '.meta', name);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-marks-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a read is one appended line, not a rewrite of usage.json, and another reader sees it', async () => {
    const writer = marksOf();
    const reader = marksOf();
    assert.deepEqual(await reader.lastReads(), {});
    await writer.noteRead('a.md', 1000);
    await writer.noteRead('notes/b.md', 2000);
    assert.equal(fs.existsSync(onDisk('usage.json')), false);
    assert.deepEqual(fs.readFileSync(onDisk('usage.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)), [{ r: 'a.md', t: 1000 }, { r: 'notes/b.md', t: 2000 }]);
    assert.deepEqual(await reader.lastReads(), { 'a.md': 1000, 'notes/b.md': 2000 });
    // The reader follows by offset: a later append is seen too.
    await writer.noteRead('a.md', 5000);
    assert.deepEqual(await reader.lastReads(), { 'a.md': 5000, 'notes/b.md': 2000 });
  });

  it('moves and removals follow files and folders, across readers', async () => {
    const writer = marksOf();
    await writer.noteRead('notes/a.md', 1);
    await writer.noteRead('notes/deep/b.md', 2);
    await writer.noteRead('notesx.md', 3);
    await writer.moved('notes', 'archive');
    assert.deepEqual(await marksOf().lastReads(), { 'archive/a.md': 1, 'archive/deep/b.md': 2, 'notesx.md': 3 });
    await writer.removed('archive/deep');
    await writer.removed('never-read.md');
    assert.deepEqual(await marksOf().lastReads(), { 'archive/a.md': 1, 'notesx.md': 3 });
    // Nothing to forget, nothing appended.
    assert.equal(fs.readFileSync(onDisk('usage.log'), 'utf8').trim().split('\n').length, 5);
  });

  it(`folds the log into usage.json after ${FOLD_AFTER} records, losing nothing`, async () => {
    const writer = marksOf();
    const reader = marksOf();
    assert.deepEqual(await reader.lastReads(), {});
    for (let i = 0; i < FOLD_AFTER; i++) await writer.noteRead(`f${i % 300}.md`, i);
    assert.equal(fs.existsSync(onDisk('usage.log')), false, 'the log is gone once folded');
    const folded = JSON.parse(fs.readFileSync(onDisk('usage.json'), 'utf8')) as Record<string, number>;
    assert.equal(Object.keys(folded).length, 300);
    assert.equal(folded['f0.md'], 900);
    await writer.noteRead('after.md', 7);
    const seen = await reader.lastReads();
    assert.equal(Object.keys(seen).length, 301);
    assert.equal(seen['f299.md'], 899);
    assert.equal(seen['after.md'], 7);
  });

  it('skips a torn line a killed writer left, and keeps reading after it', async () => {
    const writer = marksOf();
    await writer.noteRead('a.md', 1);
    fs.appendFileSync(onDisk('usage.log'), '{"r":"half');
    const reader = marksOf();
    assert.deepEqual(await reader.lastReads(), { 'a.md': 1 });
    fs.appendFileSync(onDisk('usage.log'), '\n{"r":"b.md","t":2}\n["not a record"]\n{"m":5}\n');
    assert.deepEqual(await reader.lastReads(), { 'a.md': 1, 'b.md': 2 });
  });

  it('a file named like an object property is just a path', async () => {
    const writer = marksOf();
    await writer.noteRead('__proto__', 1);
    await writer.noteRead('constructor', 2);
    const reads = await marksOf().lastReads();
    assert.deepEqual(Object.keys(reads).sort(), ['__proto__', 'constructor']);
    assert.equal(reads['constructor'], 2);
  });
});
