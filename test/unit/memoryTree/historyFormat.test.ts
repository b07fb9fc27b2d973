/** Show History's rows, the tooltip's last writer, Recently Deleted and version document paths. */
import * as assert from 'assert';
import { parseVersionDocumentPath, versionDocumentPath } from '../../../src/ui/versionPaths';
import type { HistoryEntry } from '../../../src/core/memory/history/types';
import {
  deletedDescription, deletedFilesOf, lastChangeLine, newestByPath, versionDiffTitle, versionRow,
} from '../../../src/features/memoryTree/historyFormat';

const now = Date.UTC(2026, 10, 30, 12, 0, 0);
const MIN = 60_000;
let next = 1;
function v(op: HistoryEntry['op'], path: string, extra: Partial<HistoryEntry> = {}): HistoryEntry {
  const version = next++;
  return { version, time: now - 60 * MIN + version * MIN, op, path, author: { name: 'user' }, sha256: 'a'.repeat(64), size: 1200, blob: 'a'.repeat(64), ...extra };
}

describe('history rows and paths in the Memory tree', () => {
  it('a version row: what happened, who and when, then version and size', () => {
    const row = versionRow(v('str_replace', 'notes.md', { author: { name: 'chat', session: 's', turn: 1, title: 'Fix login' }, time: now - 3 * MIN, version: 7 }), now, true);
    assert.deepStrictEqual(row, {
      label: 'Claude edited',
      description: "Claude, chat 'Fix login' · 3 min ago",
      detail: 'v7 · 1.2K (1,200 bytes) · the current content',
    });
    const restored = versionRow(v('restore', 'notes.md', { restoredFrom: 3, version: 9, redacted: true, time: now - 2 * 24 * 60 * MIN }), now, false);
    assert.strictEqual(restored.label, 'You restored v3');
    assert.strictEqual(restored.description, 'You · 2 days ago');
    assert.strictEqual(restored.detail, 'v9 · 1.2K (1,200 bytes) · secrets redacted in this copy');
  });

  it('the tooltip line names the last writer', () => {
    assert.strictEqual(lastChangeLine(v('edit', 'a.md', { time: now - 3 * MIN, author: { name: 'chat', title: 'Fix login' } }), now), "Last change: Claude, chat 'Fix login', 3 min ago");
    assert.strictEqual(lastChangeLine(v('edit', 'a.md', { time: now - 2 * 24 * 60 * MIN }), now), 'Last change: You, 2 days ago');
    assert.strictEqual(lastChangeLine(v('create', 'a.md', { time: now, author: { name: 'mcp:Claude Code' } }), now), "Last change: MCP client 'Claude Code', just now");
  });

  it('recently deleted: files whose newest version is a delete, newest first; renamed or re-created files are not', () => {
    next = 1;
    const sorted = [
      v('create', 'a.md'),
      v('create', 'b.md'),
      v('create', 'c.md'),
      v('delete', 'a.md'), // 4
      v('rename', 'moved.md', { oldPath: 'b.md' }),
      v('delete', 'c.md'), // 6
      v('create', 'c.md'), // made again
      v('create', 'dir/d.md'),
      v('delete', 'dir/d.md', { author: { name: 'lm-tool' } }), // 9
    ];
    assert.deepStrictEqual(deletedFilesOf(sorted).map((e) => `${e.version} ${e.path}`), ['9 dir/d.md', '4 a.md']);
    assert.strictEqual(newestByPath(sorted).get('c.md')?.version, 7);
    assert.match(deletedDescription(sorted[8], now), /^Copilot \(language model tool\) · \d+ min ago$/);
  });

  it('version document paths round-trip, names with spaces and folders included; others are refused', () => {
    const p = versionDocumentPath(1, 42, 'notes/my file.md');
    assert.strictEqual(p, '/1/42/notes/my file.md');
    assert.deepStrictEqual(parseVersionDocumentPath(p), { folderIndex: 1, version: 42, rel: 'notes/my file.md' });
    for (const bad of ['/x/1/a.md', '/1/a.md', '/1/2/', '1/2/a.md']) assert.strictEqual(parseVersionDocumentPath(bad), undefined, bad);
    assert.strictEqual(versionDiffTitle('notes/a.md', 7), 'a.md (v7 ↔ current)');
  });
});
