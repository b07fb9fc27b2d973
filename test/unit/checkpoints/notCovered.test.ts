/**
 * What checkpoints do not cover (issue 32, item 11): ignored files a command wrote since a
 * checkpoint are named, so the change summary and the rewind preview can say so. Real git.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeWorkspace, type Workspace } from './checkpointSupport';

describe('checkpoints: ignored files changed since', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await makeWorkspace();
  });
  afterEach(() => ws.cleanup());

  /** Sets a file's (or folder's) modification time, in ms since the epoch. */
  const touch = (rel: string, ms: number) => fs.utimesSync(path.join(ws.folder, rel), ms / 1000, ms / 1000);

  it('names ignored entries modified after the checkpoint (an ignored folder as one entry), never tracked files, the memory folder or .git', async () => {
    ws.write('.gitignore', 'todos.json\nnode_modules/\n*.log\n');
    ws.write('src/app.js', 'a\n');
    ws.write('todos.json', '[]\n');
    ws.write('old.log', 'old\n');
    ws.write('node_modules/dep/index.js', '1\n');
    fs.mkdirSync(path.join(ws.folder, '.git'));
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    for (const rel of ['todos.json', 'old.log', 'node_modules', '.gitignore', 'src/app.js']) touch(rel, cp.time - 60_000);
    // After the checkpoint: a command writes the app's data, a new ignored file, and the memory folder changes.
    ws.write('todos.json', '[{"id":1}]\n');
    ws.write('debug.log', 'new\n');
    ws.write('src/app.js', 'b\n');
    await ws.engine.createFile('notes.md', Buffer.from('x\n'));
    for (const rel of ['todos.json', 'debug.log', 'src/app.js', '.claude-memories', '.git']) touch(rel, cp.time + 5_000);
    assert.deepEqual(await ws.store.ignoredChangedSince(cp.id), { paths: ['debug.log', 'todos.json'], total: 2 });
    // A package installed into the ignored folder: the folder is one entry.
    ws.write('node_modules/new-dep/index.js', '2\n');
    touch('node_modules', cp.time + 5_000);
    assert.deepEqual(await ws.store.ignoredChangedSince(cp.id), { paths: ['debug.log', 'node_modules/', 'todos.json'], total: 3 });
    assert.deepEqual(await ws.store.ignoredChangedSince(cp.id, 1), { paths: ['debug.log'], total: 3 });
  });
});
