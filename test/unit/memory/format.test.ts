import * as assert from 'node:assert/strict';
import { formatSize, numberLine } from '../../../src/core/memory';
import { countLines, displayLines, dominantEol, decodeText, encodeText } from '../../../src/core/memory/text';

describe('formatSize', () => {
  const table: [number, string][] = [
    [0, '0B'],
    [1, '1B'],
    [512, '512B'],
    [1023, '1023B'],
    [1024, '1.0K'],
    [1025, '1.1K'],
    [1536, '1.5K'],
    [2048, '2.0K'],
    [4096, '4.0K'],
    [10 * 1024, '10K'],
    [10 * 1024 + 1, '11K'],
    [1024 * 1024 - 1, '1.0M'],
    [1024 * 1024, '1.0M'],
    [1.2 * 1024 * 1024, '1.2M'],
    [50 * 1024 * 1024, '50M'],
    [3 * 1024 ** 3, '3.0G'],
  ];
  for (const [bytes, shown] of table) {
    it(`${bytes} → ${shown}`, () => assert.equal(formatSize(bytes), shown));
  }
});

describe('text helpers', () => {
  it('numbers lines %6d + tab', () => {
    assert.equal(numberLine(1, 'x'), '     1\tx');
    assert.equal(numberLine(999999, ''), '999999\t');
  });

  it('counts lines without a phantom line after the final newline', () => {
    assert.deepEqual([countLines(''), countLines('a'), countLines('a\n'), countLines('a\nb'), countLines('\n'), countLines('a\r\nb\r\n')], [0, 1, 1, 2, 1, 2]);
    assert.deepEqual(displayLines('a\r\nb\n\nc'), ['a', 'b', '', 'c']);
  });

  it('finds the dominant line ending', () => {
    assert.equal(dominantEol('a\r\nb\r\nc\n'), '\r\n');
    assert.equal(dominantEol('a\r\nb\nc\n'), '\n');
    assert.equal(dominantEol('no breaks'), '\n');
  });

  it('round-trips a BOM and refuses invalid UTF-8 and NUL bytes', () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]);
    assert.deepEqual(decodeText(withBom), { text: 'hi', bom: true });
    assert.deepEqual(encodeText('hi', true), withBom);
    assert.equal(decodeText(new Uint8Array([0xff, 0xfe, 0x68, 0x00])), undefined);
    assert.equal(decodeText(new Uint8Array([0xc3])), undefined);
    assert.equal(decodeText(new Uint8Array([0x61, 0x00, 0x62])), undefined);
  });
});

describe('resolveMemoryEngineOptions', () => {
  it('fills defaults, ignores undefined fields and rejects non-positive limits', async () => {
    const { resolveMemoryEngineOptions, DEFAULT_MEMORY_ENGINE_OPTIONS } = await import('../../../src/core/memory');
    const resolved = resolveMemoryEngineOptions({ maxFileBytes: undefined, quotaBytes: 10 });
    assert.equal(resolved.maxFileBytes, 1024 * 1024);
    assert.equal(resolved.quotaBytes, 10);
    assert.equal(resolved.viewCharLimit, 16000);
    assert.equal(resolved.redactSecrets, true);
    assert.equal(resolved.createPolicy, 'error');
    assert.notEqual(resolved.writeGuards, DEFAULT_MEMORY_ENGINE_OPTIONS.writeGuards);
    assert.equal(resolveMemoryEngineOptions({ createPolicy: 'bogus' as never }).createPolicy, 'error');
    assert.throws(() => resolveMemoryEngineOptions({ maxFileBytes: 0 }), RangeError);
    assert.throws(() => resolveMemoryEngineOptions({ viewCharLimit: Number.NaN }), RangeError);
  });
});
