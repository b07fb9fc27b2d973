// The change summary's extension side (features/chat/changeSummary.ts) against its port, with a
// real checkpoint store (git in a temp folder) and a real memory engine: what it counts, Keep,
// Undo (byte for byte, through the checkpoint), the question when later answers changed a row,
// Undo All, what is saved with the chat, and the note for Claude.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ChangeSummary, type ChangeSummaryPort } from '../../../src/features/chat/changeSummary';
import { notCoveredLine, type ChangeSummaryView } from '../../../src/features/chat/shared/changeSummary';
import { makeWorkspace, type Workspace } from '../checkpoints/checkpointSupport';
import { summaryMemoryOf } from './summaryMemory';

const FOLDER = 'file:///project';
const chat = { name: 'chat' };

describe('change summary against its port (real git and memory engine)', () => {
  let ws: Workspace;
  let questions: string[];
  let answer: boolean;
  let views: (ChangeSummaryView | undefined)[];
  let saves: number;
  let checkpointsOfMessages: number[];
  let reviewed: { folder: string; versions: number[] }[];
  let memoryCardsUndone: { rels: string[]; from: string }[];

  const port = (): ChangeSummaryPort => ({
    checkpoints: (folder) => (folder === FOLDER ? Promise.resolve(ws.store) : undefined),
    memory: (folder) => (folder === FOLDER ? summaryMemoryOf(ws) : undefined),
    confirm: async (message) => {
      questions.push(message);
      return answer;
    },
    markReviewed: async (folder, versions) => void reviewed.push({ folder, versions: [...versions] }),
    log: { info: () => undefined, warn: () => undefined },
  });
  const summary = (): ChangeSummary =>
    new ChangeSummary(port(), {
      onView: (view) => views.push(view),
      onState: async () => void saves++,
      messageCheckpoints: () => checkpointsOfMessages,
      memoryUndone: (rels, from) => void memoryCardsUndone.push({ rels, from }),
    });
  /** A user message: its checkpoint is taken and handed to the summary. */
  const message = async (s: ChangeSummary, text: string): Promise<number> => {
    const cp = await ws.store.create({ kind: 'chat', prompt: text });
    checkpointsOfMessages.push(cp.id);
    await s.checkpointTaken(FOLDER, cp.id, `e${cp.id}`, text);
    return cp.id;
  };

  beforeEach(async () => {
    ws = await makeWorkspace();
    questions = [];
    answer = false;
    views = [];
    saves = 0;
    checkpointsOfMessages = [];
    reviewed = [];
    memoryCardsUndone = [];
    ws.write('src/app.js', 'const a = 1;\r\nconsole.log(a);\r\n');
    ws.write('src/legacy.js', '// legacy\n');
    ws.write('README.md', '# project\n');
    await ws.engine.createFile('features.json', Buffer.from(JSON.stringify([{ id: 'F001', category: 'c', description: 'd', steps: [], passes: false }], null, 2) + '\n'));
  });
  afterEach(() => ws.cleanup());

  /** What an answer does: an editor edit, a file made and one removed by commands, memory writes, a feature ticked. */
  const answerChangesThings = async (): Promise<void> => {
    ws.write('src/app.js', 'const a = 2;\nconsole.log(a);\nconsole.log("done");\n');
    ws.write('src/generated.js', 'generated\n');
    fs.rmSync(path.join(ws.folder, 'src/legacy.js'));
    await ws.engine.execute({ command: 'create', path: '/memories/progress.md', file_text: '- did things\n' }, undefined, chat);
    await ws.engine.execute({ command: 'str_replace', path: '/memories/features.json', old_str: '"passes": false', new_str: '"passes": true' }, undefined, chat);
  };

  it('counts what changed since the message: files (commands included) with +/− lines, memory files, the feature flipped', async () => {
    const s = summary();
    await message(s, 'Fix the app');
    s.setRunning(true);
    await answerChangesThings();
    await s.refresh();
    const view = s.view!;
    assert.deepEqual({ files: view.files, memory: view.memory, features: view.features, running: view.running }, { files: 3, memory: 2, features: 1, running: true });
    const rows = Object.fromEntries(view.rows.map((r) => [`${r.kind}:${r.path}`, [r.change, r.added, r.removed]]));
    assert.deepEqual(rows, {
      'file:src/app.js': ['modified', 3, 2],
      'file:src/generated.js': ['created', 1, 0],
      'file:src/legacy.js': ['deleted', 0, 1],
      'memory:progress.md': ['created', 1, 0],
      'memory:features.json': ['modified', 1, 1],
    });
    assert.equal(view.rows.find((r) => r.path === 'features.json')?.note, 'F001 now passes');
    // Undo waits for the answer to end.
    const refused = await s.undo('file', 'src/app.js');
    assert.equal(refused.ok, false);
    assert.match(!refused.ok ? refused.reason : '', /Stop the running answer first/);
  });

  it('Undo of one file restores it byte for byte (and a created one goes, a deleted one comes back); Claude is told once', async () => {
    const s = summary();
    await message(s, 'Fix the app');
    await answerChangesThings();
    await s.refresh();
    assert.deepEqual(await s.undo('file', 'src/app.js'), { ok: true, message: 'Undid src/app.js; Claude is told with your next message' });
    assert.deepEqual(ws.read('src/app.js'), Buffer.from('const a = 1;\r\nconsole.log(a);\r\n'));
    // Nothing else moved.
    assert.ok(ws.exists('src/generated.js'));
    assert.ok(!ws.exists('src/legacy.js'));
    assert.equal(s.view?.files, 2);
    assert.equal(s.view?.undone, 1);
    assert.deepEqual((await s.undo('file', 'src/legacy.js')).ok, true);
    assert.deepEqual(ws.read('src/legacy.js').toString(), '// legacy\n');
    assert.deepEqual((await s.undo('file', 'src/generated.js')).ok, true);
    assert.ok(!ws.exists('src/generated.js'));
    assert.equal(questions.length, 0, 'one answer changed them: no question');
    const note = s.takeNote()!;
    assert.match(note, /src\/app\.js: back to its content before the change/);
    assert.match(note, /src\/legacy\.js: deleted since, brought back/);
    assert.match(note, /src\/generated\.js: created since, removed again/);
    assert.equal(s.takeNote(), undefined);
  });

  it('Keep and Undo survive a reload of the chat (saved state → a new summary), the note for Claude too; a later change to a kept file shows it again', async () => {
    const s = summary();
    await message(s, 'Fix the app');
    await answerChangesThings();
    await s.refresh();
    const savesBefore = saves;
    assert.equal((await s.keep('file', 'src/app.js')).ok, true);
    assert.ok(saves > savesBefore, 'a decision is saved with the chat');
    assert.equal(s.view?.files, 2);
    assert.equal(s.view?.kept, 1);
    assert.equal((await s.undo('file', 'src/legacy.js')).ok, true);
    // The window reloads: the chat's saved state comes back into a new summary.
    const saved = JSON.parse(JSON.stringify(s.saved()));
    const again = summary();
    await again.restore(saved);
    assert.equal(again.view?.undone, 1);
    // What was undone before the reload is still told to Claude after it, once.
    assert.match(again.takeNote() ?? '', /src\/legacy\.js: deleted since, brought back/);
    assert.equal(again.takeNote(), undefined);
    assert.deepEqual(
      again.view?.rows.map((r) => r.path),
      s.view?.rows.map((r) => r.path),
    );
    assert.equal(again.view?.kept, 1);
    // Claude changes the kept file again: it is back in the list.
    ws.write('src/app.js', 'changed again\n');
    await again.refresh();
    assert.ok(again.view?.rows.some((r) => r.path === 'src/app.js'));
  });

  it('Undo of a file later answers changed too asks first; No leaves it, Undo brings it back to the base', async () => {
    const s = summary();
    const first = await message(s, 'Step one');
    ws.write('src/app.js', 'step one\n');
    ws.write('README.md', '# project, step one\n');
    await s.refresh();
    // The second message while rows are open: the changes add up from the first message's checkpoint.
    await message(s, 'Step two');
    assert.equal((await s.saved()).base?.checkpoint, first);
    ws.write('src/app.js', 'step two builds on step one\n');
    await s.refresh();
    answer = false;
    const no = await s.undo('file', 'src/app.js');
    assert.deepEqual(no, { ok: false, reason: 'Not undone.', cancelled: true });
    assert.equal(questions.length, 1);
    assert.match(questions[0], /Undo src\/app\.js\? Later answers changed it too\./);
    assert.equal(ws.read('src/app.js').toString(), 'step two builds on step one\n');
    // README changed in one step only: no question.
    assert.equal((await s.undo('file', 'README.md')).ok, true);
    assert.equal(questions.length, 1);
    answer = true;
    assert.equal((await s.undo('file', 'src/app.js')).ok, true);
    assert.deepEqual(ws.read('src/app.js'), Buffer.from('const a = 1;\r\nconsole.log(a);\r\n'));
    // Everything reviewed: the next message starts a new summary from its own checkpoint.
    const third = await message(s, 'Step three');
    assert.equal(s.saved().base?.checkpoint, third);
    assert.equal(s.view, undefined);
  });

  it('Undo All brings back files and memory (as the user\'s versions: the checklist flip is reverted); Keep All clears the rest', async () => {
    const s = summary();
    await message(s, 'Fix the app');
    await answerChangesThings();
    await s.refresh();
    assert.equal((await s.keep('memory', 'progress.md')).ok, true);
    const done = await s.undoAll();
    assert.equal(done.ok, true, JSON.stringify(done));
    assert.deepEqual(ws.read('src/app.js'), Buffer.from('const a = 1;\r\nconsole.log(a);\r\n'));
    assert.ok(!ws.exists('src/generated.js'));
    assert.equal(ws.read('src/legacy.js').toString(), '// legacy\n');
    const features = JSON.parse(fs.readFileSync(path.join(ws.folder, '.claude-memories', 'features.json'), 'utf8')) as { passes: boolean }[];
    assert.equal(features[0].passes, false);
    const last = (await ws.engine.history()).at(-1)!;
    assert.deepEqual([last.path, last.author.name], ['features.json', 'user']);
    // The kept memory file stays as Claude wrote it.
    assert.ok(fs.existsSync(path.join(ws.folder, '.claude-memories', 'progress.md')));
    assert.deepEqual({ rows: s.view?.rows.length, kept: s.view?.kept, undone: s.view?.undone }, { rows: 0, kept: 1, undone: 4 });
    assert.deepEqual(await s.keepAll(), { ok: false, reason: 'There are no changes to keep.' });
  });

  it('one review state per memory file: Keep marks its versions reviewed in Memory Changes; Undo marks them too and its memory cards undone', async () => {
    const s = summary();
    await message(s, 'Fix the app');
    await answerChangesThings();
    await s.refresh();
    const history = await ws.engine.history();
    const versionOf = (rel: string) => history.filter((e) => e.path === rel && e.author.name === 'chat').map((e) => e.version);
    assert.equal((await s.keep('memory', 'progress.md')).ok, true);
    assert.deepEqual(reviewed, [{ folder: FOLDER, versions: versionOf('progress.md') }]);
    assert.equal((await s.keep('file', 'src/app.js')).ok, true);
    assert.equal(reviewed.length, 1, 'a workspace file has no Memory Changes rows');
    assert.equal((await s.undo('memory', 'features.json')).ok, true);
    assert.deepEqual(reviewed[1], { folder: FOLDER, versions: versionOf('features.json') });
    assert.deepEqual(memoryCardsUndone, [{ rels: ['features.json'], from: `e${checkpointsOfMessages[0]}` }]);
  });

  it('the user\'s own Restore (Recently Deleted, a history version) and hand edits are not Claude\'s changes: not in the summary', async () => {
    await ws.engine.createFile('old-api-decisions.md', Buffer.from('# old\n- a\n- b\n'));
    await ws.engine.delete('old-api-decisions.md');
    const deleted = (await ws.engine.history()).filter((e) => e.path === 'old-api-decisions.md' && e.op !== 'delete').at(-1)!;
    const s = summary();
    await message(s, 'Fix the app');
    // The user restores the deleted file (as the Memory view's Restore does: the user's version) and edits features.json by hand.
    await ws.engine.restore('old-api-decisions.md', deleted.version, { name: 'user' });
    fs.writeFileSync(path.join(ws.folder, '.claude-memories', 'features.json'), '[]\n');
    await ws.engine.noticeChange('features.json');
    await s.refresh();
    const view: ChangeSummaryView | undefined = s.view;
    assert.equal(view, undefined, `nothing of Claude's: ${JSON.stringify(view?.rows)}`);
    // Claude's own write shows, with its +/− counted as its card counts it.
    await ws.engine.execute({ command: 'create', path: '/memories/progress.md', file_text: Array.from({ length: 8 }, (_, i) => `- ${i}`).join('\n') + '\n' }, undefined, chat);
    await s.refresh();
    assert.deepEqual(s.view?.rows.map((r) => [r.path, r.added, r.removed]), [['progress.md', 8, 0]]);
  });

  it('says under the summary which ignored files changed since (checkpoints do not cover them), also when nothing else changed', async () => {
    ws.write('.gitignore', 'todos.json\n');
    const s = summary();
    const cp = await message(s, 'Add a todo');
    ws.write('todos.json', '[{"id":1}]\n');
    const later = ((await ws.store.get(cp)).time + 5_000) / 1000;
    fs.utimesSync(path.join(ws.folder, 'todos.json'), later, later);
    await s.refresh();
    assert.deepEqual(s.view?.notCovered, { paths: ['todos.json'], total: 1 });
    assert.deepEqual(s.view?.rows, []);
    assert.equal(notCoveredLine(s.view!.notCovered!), 'Not covered by checkpoints (ignored by .gitignore), so Undo and Rewind leave it: todos.json');
  });

  it('names the features flipped since any message\'s checkpoint, with their descriptions (a routine chat\'s title)', async () => {
    const s = summary();
    const cp = await message(s, 'Resume Session · next: F001');
    await answerChangesThings();
    assert.deepEqual(await s.featureFlipsSince(FOLDER, cp), [{ id: 'F001', passes: true, description: 'd' }]);
    assert.deepEqual(await s.featureFlipsSince('file:///elsewhere', cp), []);
  });

  it('a rewind to the base or before ends the summary; a reset (another chat) shows nothing', async () => {
    const s = summary();
    const cp = await message(s, 'Fix the app');
    await answerChangesThings();
    await s.refresh();
    assert.ok(s.view);
    await s.rewound(cp);
    assert.equal(s.view, undefined);
    assert.equal(s.saved().base, undefined);
    await message(s, 'Again');
    ws.write('x.txt', 'x\n');
    await s.refresh();
    assert.ok(s.view);
    s.reset();
    assert.equal(s.view, undefined);
    assert.equal(views.at(-1), undefined);
  });
});
