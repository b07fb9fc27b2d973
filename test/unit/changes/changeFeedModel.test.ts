/**
 * The Memory Changes feed's pure parts over a real engine's history: newest first, an expiry sweep
 * as one row, what counts as unseen, the row wording, and the two sides of each change's diff.
 */
import * as assert from 'node:assert/strict';
import { DEFAULT_HISTORY_RETENTION, MemoryEngine, type HistoryEntry } from '../../../src/core/memory';
import {
  NO_REVIEW,
  badgeTooltip,
  changeDescription,
  changeLabel,
  changeTooltipLines,
  diffSides,
  expiryLabel,
  feedRows,
  markAllReviewed,
  markReviewed,
  parseReviewState,
  undoDropsLaterWork,
  unseenCount,
  type FeedRow,
} from '../../../src/features/changes/changeFeedModel';
import { InMemoryFileSystem } from '../../support/inMemoryFileSystem';

const DAY = 24 * 60 * 60 * 1000;
const KEY = 'file:///work/project';
const chat = { name: 'chat', session: 'c-1', turn: 3, title: 'Fix login' };
const dec = new TextDecoder();

function shape(rows: readonly FeedRow[]): string[] {
  return rows.map((r) =>
    r.kind === 'change'
      ? `${r.entry.version} ${r.entry.op} ${changeLabel(r.entry)}${r.unseen ? ' *' : ''}`
      : `expiry [${r.entries.map((e) => `${e.entry.version} ${e.entry.path}${e.unseen ? ' *' : ''}`).join(', ')}]${r.unseen ? ' *' : ''}`,
  );
}

/** A store with five chat writes, a hand edit, then an expiry sweep of three files and a later one. */
async function storeWithSweep(): Promise<{ engine: MemoryEngine; history: readonly HistoryEntry[]; clock: { now: number } }> {
  const clock = { now: Date.UTC(2026, 0, 1) };
  const fs = new InMemoryFileSystem();
  // History kept long enough that the sweep 40 days later does not prune the earlier versions.
  const engine = new MemoryEngine(fs, { now: () => clock.now, author: { name: 'agent' }, history: { ...DEFAULT_HISTORY_RETENTION, maxDays: 365 } });
  const run = async (input: object) => assert.equal((await engine.execute(input, undefined, chat)).is_error, false);
  await run({ command: 'create', path: '/memories/a.md', file_text: 'one\n' });
  await run({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'two' });
  await run({ command: 'insert', path: '/memories/a.md', insert_line: 1, insert_text: 'three' });
  await run({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' });
  await run({ command: 'create', path: '/memories/c.md', file_text: 'c\n' });
  await engine.createFile('d.md', new TextEncoder().encode('d\n'));
  await run({ command: 'delete', path: '/memories/c.md' });
  // Everything idle for 40 days; the sweep deletes b.md and d.md.
  clock.now += 40 * DAY;
  const expired = await engine.expire({ days: 30 });
  assert.deepEqual(expired.map((e) => e.rel).sort(), ['b.md', 'd.md']);
  return { engine, history: await engine.history(), clock };
}

describe('Memory Changes feed', () => {
  it('lists the newest first, a sweep\'s deletes as one row, everyone\'s changes but the user\'s unseen', async () => {
    const { history } = await storeWithSweep();
    const rows = feedRows(KEY, history, NO_REVIEW);
    assert.deepEqual(shape(rows), [
      'expiry [9 d.md *, 8 b.md *] *',
      '7 delete c.md *',
      '6 create d.md',
      '5 create c.md *',
      '4 rename a.md → b.md *',
      '3 insert a.md *',
      '2 str_replace a.md *',
      '1 create a.md *',
    ]);
    // Six chat changes and the two expired files; the user's own create is not to review.
    assert.equal(unseenCount(rows), 8);
    assert.equal(expiryLabel(2), '2 memories expired');
    assert.equal(expiryLabel(1), '1 memory expired');
    assert.equal(badgeTooltip(8), '8 memory changes to review');
    assert.equal(badgeTooltip(1), '1 memory change to review');
  });

  it('keeps sweeps apart when another change or a long pause lies between', () => {
    const entry = (version: number, time: number, name = 'expiry', op: HistoryEntry['op'] = 'delete'): HistoryEntry => ({
      version, time, op, path: `f${version}.md`, author: { name }, sha256: '0'.repeat(64), size: 1, blob: '0'.repeat(64),
    });
    const history = [entry(1, 0), entry(2, 1000), entry(3, 2000, 'agent', 'create'), entry(4, 3000), entry(5, 3000 + 11 * 60 * 1000), entry(6, 3000 + 11 * 60 * 1000 + 5)];
    assert.deepEqual(shape(feedRows(KEY, history, NO_REVIEW)), ['expiry [6 f6.md *, 5 f5.md *] *', 'expiry [4 f4.md *] *', '3 create f3.md *', 'expiry [2 f2.md *, 1 f1.md *] *']);
    // The limit keeps the newest versions only.
    assert.deepEqual(shape(feedRows(KEY, history, NO_REVIEW, 2)), ['expiry [6 f6.md *, 5 f5.md *] *']);
  });

  it('does not list the first version history takes of a file that was already there (a baseline), but lists every change after it', () => {
    const entry = (version: number, path: string, name: string, op: HistoryEntry['op']): HistoryEntry => ({
      version, time: version * 1000, op, path, author: { name }, sha256: String(version).padStart(64, '0'), size: 1, blob: '0'.repeat(64),
    });
    const history = [
      entry(1, 'project.md', 'user', 'edit'), // there before history: a checkpoint noticed it
      entry(2, 'notes.md', 'chat', 'create'),
      entry(3, 'project.md', 'chat', 'delete'),
      entry(4, 'project.md', 'user', 'edit'), // written again by hand after a delete: a change
      entry(5, 'notes.md', 'user', 'edit'), // a hand edit of a file history has: a change
    ];
    assert.deepEqual(shape(feedRows(KEY, history, NO_REVIEW)), ['5 edit notes.md', '4 edit project.md', '3 delete project.md *', '2 create notes.md *']);
  });

  it('Mark All Reviewed clears the count; a later change counts again; opening one marks only it', async () => {
    const { engine, history } = await storeWithSweep();
    let review = markAllReviewed(NO_REVIEW, { [KEY]: history.at(-1)!.version });
    assert.equal(unseenCount(feedRows(KEY, history, review)), 0);
    assert.equal(unseenCount(feedRows('file:///other', history, review)), 8, 'marks are per store');

    await engine.execute({ command: 'create', path: '/memories/e.md', file_text: 'e\n' }, undefined, { name: 'run' });
    await engine.execute({ command: 'create', path: '/memories/f.md', file_text: 'f\n' }, undefined, { name: 'mcp:Claude Code' });
    const later = await engine.history();
    assert.equal(unseenCount(feedRows(KEY, later, review)), 2);
    review = markReviewed(review, KEY, 10);
    assert.deepEqual(shape(feedRows(KEY, later, review)).slice(0, 2), ['11 create f.md *', '10 create e.md']);
    assert.equal(unseenCount(feedRows(KEY, later, review)), 1);
    assert.equal(markReviewed(review, KEY, 10), review, 'marking twice changes nothing');
    // What workspaceState gives back is checked, not trusted.
    assert.deepEqual(parseReviewState(JSON.parse(JSON.stringify(review))), review);
    assert.deepEqual(parseReviewState({ marks: { a: 'x', b: 3 }, seen: { c: [1, 'y'] } }), { marks: { b: 3 }, seen: { c: [1] } });
    assert.deepEqual(parseReviewState(undefined), NO_REVIEW);
  });

  it('words a row by its author, its time and its operation', async () => {
    const { history, clock } = await storeWithSweep();
    const create = history[0];
    assert.equal(changeDescription(create, create.time + 3 * 60_000), "3 min ago · Claude, chat 'Fix login'");
    assert.deepEqual(changeTooltipLines(create).slice(0, 2), ['a.md created', "by Claude, chat 'Fix login', turn 3"]);
    assert.equal(changeTooltipLines(history[3])[0], 'a.md renamed to b.md');
    assert.equal(changeDescription(history.at(-1)!, clock.now), 'just now · Memory expiry (unused file)');
    assert.equal(changeDescription(history[5], clock.now), '2026-01-01 · You');
  });

  it('diffs a change against the file\'s previous version: empty before a create, empty after a delete, both paths of a rename', async () => {
    const { engine, history } = await storeWithSweep();
    const side = async (e: HistoryEntry | undefined) => (e === undefined ? '' : dec.decode(await engine.versionContent(e.version)));
    const pair = async (version: number) => {
      const sides = diffSides(history, history.find((e) => e.version === version)!);
      return [sides.beforePath, await side(sides.before), sides.afterPath, await side(sides.after)];
    };
    assert.deepEqual(await pair(1), ['a.md', '', 'a.md', 'one\n']);
    assert.deepEqual(await pair(2), ['a.md', 'one\n', 'a.md', 'two\n']);
    assert.deepEqual(await pair(3), ['a.md', 'two\n', 'a.md', 'two\nthree\n']);
    assert.deepEqual(await pair(4), ['a.md', 'two\nthree\n', 'b.md', 'two\nthree\n']);
    assert.deepEqual(await pair(7), ['c.md', 'c\n', 'c.md', '']);
    // Undo of the delete (a restore) compares against the deleted state: empty ↔ content.
    await engine.undo(7);
    const restored = (await engine.history()).at(-1)!;
    assert.equal(restored.op, 'restore');
    const sides = diffSides(await engine.history(), restored);
    assert.equal(sides.before, undefined);
    assert.equal(await side(sides.after), 'c\n');
  });

  it('asks before an undo only while later changes to the file still hold work that would go', async () => {
    const fs = new InMemoryFileSystem();
    const engine = new MemoryEngine(fs);
    const run = async (input: object) => assert.equal((await engine.execute(input, undefined, chat)).is_error, false);
    await run({ command: 'create', path: '/memories/a.md', file_text: 'one\n' });
    await run({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'two' });
    await run({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' });
    await run({ command: 'delete', path: '/memories/b.md' });
    const drops = async (version: number) => {
      const history = await engine.history();
      return undoDropsLaterWork(history, history.find((e) => e.version === version)!);
    };
    assert.deepEqual([await drops(1), await drops(2), await drops(3), await drops(4)], [true, true, true, false]);
    // Undone newest first: each older change then drops nothing any more.
    await engine.undo(4);
    assert.equal(await drops(3), false, 'the restore brought back what the rename left');
    await engine.undo(3);
    assert.equal(await drops(2), false);
    assert.equal(await drops(1), true, 'the str_replace still stands');
    await engine.undo(2);
    assert.equal(await drops(1), false);
    await engine.undo(1);
    assert.deepEqual(fs.snapshot().filter((p) => !p.startsWith('.meta/')), [], 'every change undone: the store is empty again');
  });
});
