import * as assert from 'node:assert/strict';
import {
  afterCheckpoint,
  decide,
  featureFlips,
  flipNote,
  isSummaryPath,
  isSummaryView,
  openRows,
  parseSummaryState,
  stepsChanging,
  summaryLine,
  summaryView,
  undoneChangesNote,
  type ObservedChange,
  type SummaryBase,
  type SummaryState,
} from '../../../src/features/chat/shared/changeSummary';
import { parseExtensionMessage, parseWebviewMessage } from '../../../src/features/chat/shared/protocol';
import { addLineCounts, parseRaw } from '../../../src/core/checkpoints';

const base = (checkpoint: number, folder = 'file:///ws'): SummaryBase => ({ checkpoint, folder, entryId: `e${checkpoint}`, message: `message ${checkpoint}` });
const file = (path: string, stamp: string, over: Partial<ObservedChange> = {}): ObservedChange => ({ kind: 'file', path, change: 'modified', added: 1, removed: 1, stamp, ...over });
const memory = (path: string, stamp: string, over: Partial<ObservedChange> = {}): ObservedChange => ({ kind: 'memory', path, change: 'modified', added: 1, removed: 1, stamp, ...over });

describe('change summary model (pure)', () => {
  it('counts files, memory files and feature flips in one line, leaving out the zeros', () => {
    assert.equal(summaryLine({ files: 3, memory: 2, features: 1 }), '3 files changed · 2 memory files · 1 feature');
    assert.equal(summaryLine({ files: 1, memory: 0, features: 0 }), '1 file changed');
    assert.equal(summaryLine({ files: 0, memory: 1, features: 2 }), '1 memory file · 2 features');
    assert.equal(summaryLine({ files: 0, memory: 0, features: 0 }), 'No changes to review');
  });

  it('moves the base only when nothing is left to review; a message while rows are open adds up', () => {
    let state: SummaryState = { decisions: [] };
    state = afterCheckpoint(state, base(1), 0);
    assert.equal(state.base?.checkpoint, 1);
    // Rows open: the next message's changes add up from checkpoint 1.
    assert.equal(afterCheckpoint(state, base(2), 3).base?.checkpoint, 1);
    // All reviewed: the next message starts a new summary, and the old decisions go.
    const decided = decide(state, [file('a.js', 's1')], 'kept');
    const moved = afterCheckpoint(decided, base(2), 0);
    assert.equal(moved.base?.checkpoint, 2);
    assert.deepEqual(moved.decisions, []);
    // Another folder: a new base whatever is open.
    assert.equal(afterCheckpoint(state, base(5, 'file:///other'), 3).base?.folder, 'file:///other');
  });

  it('Keep hides a row while its content is the one kept; a later change shows it again', () => {
    let state: SummaryState = { base: base(1), decisions: [] };
    const a = file('src/a.js', 'blob-1');
    const b = file('src/b.js', 'blob-2');
    state = decide(state, [a], 'kept');
    assert.deepEqual(openRows([a, b], state.decisions).map((r) => r.path), ['src/b.js']);
    const view = summaryView(state, [a, b], [], false);
    assert.equal(view?.files, 1);
    assert.equal(view?.kept, 1);
    // Claude changes a.js again: its blob differs from the one kept.
    const a2 = file('src/a.js', 'blob-3');
    assert.deepEqual(openRows([a2, b], state.decisions).map((r) => r.path), ['src/a.js', 'src/b.js']);
    assert.equal(summaryView(state, [a2, b], [], false)?.kept, 0);
  });

  it('an undone row leaves the list (it no longer differs) and is counted as undone; no base or nothing to show: no view', () => {
    const a = file('src/a.js', 'blob-1');
    const state = decide({ base: base(1), decisions: [] }, [a], 'undone');
    const view = summaryView(state, [], [], false);
    assert.deepEqual({ rows: view?.rows.length, undone: view?.undone, kept: view?.kept }, { rows: 0, undone: 1, kept: 0 });
    assert.equal(summaryView({ decisions: [] }, [a], [], false), undefined);
    assert.equal(summaryView({ base: base(1), decisions: [] }, [], [], true), undefined);
  });

  it('features.json: the flips count as features and name themselves on its row', () => {
    const before = JSON.stringify([
      { id: 'F001', passes: true },
      { id: 'F002', passes: false },
      { id: 'F003', passes: false },
    ]);
    const after = JSON.stringify([
      { id: 'F001', passes: true },
      { id: 'F002', passes: true },
      { id: 'F003', passes: false },
      { id: 'F004', passes: true },
    ]);
    const flips = featureFlips(before, after);
    assert.deepEqual(flips, [
      { id: 'F002', passes: true },
      { id: 'F004', passes: true },
    ]);
    assert.deepEqual(featureFlips(after, before), [
      { id: 'F002', passes: false },
      { id: 'F004', passes: false },
    ]);
    assert.deepEqual(featureFlips('not json', after), []);
    const view = summaryView({ base: base(1), decisions: [] }, [file('a.js', 's'), memory('features.json', 'm'), memory('progress.md', 'p')], flips, true);
    assert.equal(summaryLine(view!), '1 file changed · 2 memory files · 2 features');
    assert.equal(view?.rows.find((r) => r.path === 'features.json')?.note, 'F002 now passes, F004 now passes');
    assert.equal(flipNote([1, 2, 3, 4, 5].map((n) => ({ id: `F${n}`, passes: true }))), 'F1 now passes, F2 now passes, F3 now passes and 2 more');
  });

  it('counts the steps that changed a path (more than one: Undo asks)', () => {
    const steps = [new Set(['a.js', 'b.js']), new Set(['b.js']), new Set<string>()];
    assert.equal(stepsChanging('a.js', steps), 1);
    assert.equal(stepsChanging('b.js', steps), 2);
    assert.equal(stepsChanging('c.js', steps), 0);
  });

  it('tells Claude what was undone, per kind of change', () => {
    assert.equal(undoneChangesNote([]), undefined);
    const note = undoneChangesNote([
      { kind: 'file', path: 'src/a.js', change: 'modified' },
      { kind: 'file', path: 'gen.js', change: 'created' },
      { kind: 'file', path: 'old.js', change: 'deleted' },
      { kind: 'memory', path: 'progress.md', change: 'modified' },
    ])!;
    assert.match(note, /the user undid these changes with the chat's change summary/);
    assert.match(note, /- src\/a\.js: back to its content before the change\./);
    assert.match(note, /- gen\.js: created since, removed again\./);
    assert.match(note, /- old\.js: deleted since, brought back\./);
    assert.match(note, /- \/memories\/progress\.md: back to its content/);
  });

  it('reads its saved state back, refusing anything else', () => {
    const state: SummaryState = { base: base(4), decisions: [{ kind: 'file', path: 'a.js', decision: 'kept', stamp: 'x' }] };
    assert.deepEqual(parseSummaryState(JSON.parse(JSON.stringify(state))), state);
    assert.deepEqual(parseSummaryState({ decisions: [] }), { decisions: [] });
    const untold: SummaryState = { decisions: [], untold: [{ kind: 'memory', path: 'progress.md', change: 'created' }] };
    assert.deepEqual(parseSummaryState(JSON.parse(JSON.stringify(untold))), untold);
    assert.equal(parseSummaryState({ decisions: [], untold: [{ kind: 'file', path: 'a', change: 'renamed' }] }), undefined);
    for (const bad of [undefined, null, [], { decisions: [{ kind: 'dir', path: 'a', decision: 'kept', stamp: '' }] }, { decisions: [], base: { checkpoint: 'one' } }]) {
      assert.equal(parseSummaryState(bad), undefined, JSON.stringify(bad));
    }
  });

  it('the protocol: summary buttons are validated like every webview message; the view like every extension message', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'summary', action: 'undo', kind: 'file', path: 'src/a.js' }), { type: 'summary', action: 'undo', kind: 'file', path: 'src/a.js' });
    assert.deepEqual(parseWebviewMessage({ type: 'summaryAll', action: 'keep' }), { type: 'summaryAll', action: 'keep' });
    for (const bad of [
      { type: 'summary', action: 'delete', kind: 'file', path: 'a' },
      { type: 'summary', action: 'keep', kind: 'folder', path: 'a' },
      { type: 'summary', action: 'keep', kind: 'file', path: '../a' },
      { type: 'summary', action: 'keep', kind: 'file', path: '/etc/passwd' },
      { type: 'summary', action: 'keep', kind: 'file', path: 'a\u0000b' },
      { type: 'summary', action: 'keep', kind: 'file', path: 'x'.repeat(1001) },
      { type: 'summaryAll', action: 'diff' },
    ]) {
      assert.equal(parseWebviewMessage(bad), undefined, JSON.stringify(bad));
    }
    assert.ok(isSummaryPath('a/b c/d.md'));
    const view = summaryView({ base: base(1), decisions: [] }, [file('a.js', 's')], [], false)!;
    assert.ok(isSummaryView(view));
    assert.deepEqual(parseExtensionMessage({ type: 'changes', changes: view }), { type: 'changes', changes: view });
    assert.deepEqual(parseExtensionMessage({ type: 'changes' }), { type: 'changes' });
    assert.equal(parseExtensionMessage({ type: 'changes', changes: { rows: 'x' } }), undefined);
  });
});

describe('file deltas from git (pure parsing)', () => {
  it('reads --raw records and adds the patch\'s line counts per file, in order; NUL bytes mark a binary file', () => {
    const raw = [
      ':100644 100644 aaa bbb M', 'src/a.js',
      ':000000 100644 0000000000000000000000000000000000000000 ccc A', 'src/new.js',
      ':100644 000000 ddd 0000000000000000000000000000000000000000 D', 'old.bin',
    ];
    const files = parseRaw(raw);
    assert.deepEqual(files.map((f) => [f.path, f.change, f.stamp]), [
      ['src/a.js', 'modified', 'bbb'],
      ['src/new.js', 'created', 'ccc'],
      ['old.bin', 'deleted', ''],
    ]);
    const patch = [
      'diff --git a/src/a.js b/src/a.js',
      'index aaa..bbb 100644',
      '--- a/src/a.js',
      '+++ b/src/a.js',
      '@@ -1 +1,2 @@',
      '-one',
      '+uno',
      '+dos',
      'diff --git a/src/new.js b/src/new.js',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/src/new.js',
      '@@ -0,0 +1 @@',
      '+created',
      'diff --git a/old.bin b/old.bin',
      'deleted file mode 100644',
      '--- a/old.bin',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-\u0000\u0001',
    ].join('\n');
    assert.deepEqual(addLineCounts(files, patch).map((f) => [f.path, f.added, f.removed, f.binary ?? false]), [
      ['src/a.js', 2, 1, false],
      ['src/new.js', 1, 0, false],
      ['old.bin', 0, 0, true],
    ]);
  });
});
