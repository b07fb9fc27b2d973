import * as assert from 'assert';
import { compareEntries, describeEntry, formatAge, isVisibleName, touchLabel } from '../../../src/ui/treeFormat';

describe('Memory tree formatting', () => {
  const now = Date.UTC(2026, 10, 30, 12, 0, 0);
  const ago = (ms: number) => now - ms;
  const MIN = 60_000;

  it('ages read like the Explorer\'s', () => {
    assert.strictEqual(formatAge(ago(10_000), now), 'just now');
    assert.strictEqual(formatAge(ago(5 * MIN), now), '5 min ago');
    assert.strictEqual(formatAge(ago(59 * MIN), now), '59 min ago');
    assert.strictEqual(formatAge(ago(3 * 60 * MIN), now), '3 h ago');
    assert.strictEqual(formatAge(ago(30 * 60 * MIN), now), 'yesterday');
    assert.strictEqual(formatAge(ago(10 * 24 * 60 * MIN), now), '10 days ago');
    assert.strictEqual(formatAge(ago(90 * 24 * 60 * MIN), now), '2026-09-01');
    // A file from the future (clock skew on a share) is not "-3 min ago".
    assert.strictEqual(formatAge(now + 3 * MIN, now), 'just now');
  });

  it('files show size and age, folders age only', () => {
    assert.strictEqual(describeEntry('file', 1228, ago(5 * MIN), now), '1.2K · 5 min ago');
    assert.strictEqual(describeEntry('file', 0, now, now), '0B · just now');
    assert.strictEqual(describeEntry('folder', 4096, ago(5 * MIN), now), '5 min ago');
  });

  it('touch labels name what Claude did', () => {
    assert.deepStrictEqual((['read', 'write', 'delete', 'rename'] as const).map((k) => touchLabel(k)), ['Claude read', 'Claude wrote', 'Claude deleted', 'Claude moved']);
  });

  it('touch labels name another writer when one is given', () => {
    assert.equal(touchLabel('write', 'Chat agent'), 'Chat agent wrote');
  });

  it('dot-names are hidden (temporary files, .git)', () => {
    assert.deepStrictEqual(['a.md', '.~tmp-1', '.git', 'b'].filter(isVisibleName), ['a.md', 'b']);
  });

  it('folders first, then natural name order', () => {
    const entries = [
      { name: 'note10.md', isFolder: false },
      { name: 'zeta', isFolder: true },
      { name: 'Note2.md', isFolder: false },
      { name: 'alpha', isFolder: true },
      { name: 'note1.md', isFolder: false },
    ];
    assert.deepStrictEqual(entries.sort(compareEntries).map((e) => e.name), ['alpha', 'zeta', 'note1.md', 'Note2.md', 'note10.md']);
  });
});
