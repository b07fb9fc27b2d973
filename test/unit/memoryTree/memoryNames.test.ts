import * as assert from 'assert';
import { entryRel, invalidEntryNameReason } from '../../../src/features/memoryTree/memoryNames';

describe('names typed in the Memory tree', () => {
  it('plain and nested names are accepted where allowed', () => {
    assert.strictEqual(invalidEntryNameReason('notes.md', '', false), undefined);
    assert.strictEqual(invalidEntryNameReason('  notes.md ', 'a', false), undefined);
    assert.strictEqual(invalidEntryNameReason('sub/dir/notes.md', '', true), undefined);
    assert.strictEqual(invalidEntryNameReason('résumé – 2026.md', '', false), undefined);
    assert.strictEqual(entryRel('a/b', ' c.md '), 'a/b/c.md');
    assert.strictEqual(entryRel('', 'c.md'), 'c.md');
  });

  it('anything that could leave the folder, hide or break a path is refused with a reason', () => {
    const refused: [string, boolean, RegExp][] = [
      ['', true, /Enter a name/],
      ['   ', true, /Enter a name/],
      ['a/b', false, /cannot contain \//],
      ['..', true, /not a valid name/],
      ['a/../b', true, /not a valid name/],
      ['./a', true, /not a valid name/],
      ['/abs', true, /empty folder name/],
      ['a//b', true, /empty folder name/],
      ['a/', true, /empty folder name/],
      ['a\\b', true, /not \\/],
      ['.env', true, /hidden/],
      ['a/.git', true, /hidden/],
      ['con:1', true, /not allowed/],
      ['a\u0000b', true, /not allowed/],
      ['line\nbreak', true, /not allowed/],
      ['what?', true, /not allowed/],
      ['x'.repeat(256), true, /at most 255 bytes/],
      ['é'.repeat(128), true, /at most 255 bytes/],
      ['a /b', true, /space/],
    ];
    for (const [name, nested, reason] of refused) {
      assert.match(invalidEntryNameReason(name, '', nested) ?? 'accepted', reason, JSON.stringify(name));
    }
  });

  it('a path the engine could not use (too long overall) is refused', () => {
    const deep = Array.from({ length: 5 }, () => 'd'.repeat(250)).join('/');
    assert.match(invalidEntryNameReason(deep, '', true) ?? 'accepted', /Claude could not use this path/);
  });
});
