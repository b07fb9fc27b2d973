import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { UnknownCheckpointError } from '../../../src/core/checkpoints';
import { checkpointRepositoryDir, checkpointsHome } from '../../../src/platform/node/checkpointRepository';
import { makeWorkspace, treeOf, type Workspace } from './checkpointSupport';

const gitIn = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' } });

describe('checkpoints (real git in temp folders)', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await makeWorkspace({ maxFileBytes: 1024 });
  });
  afterEach(() => ws.cleanup());

  it('rewinds edited, created and deleted files byte for byte; ignored and unrelated untracked files, .git and its commits stay', async () => {
    gitIn(ws.folder, 'init', '-q');
    ws.write('.gitignore', 'node_modules/\n*.log\n');
    ws.write('src/app.js', 'const a = 1;\r\nconsole.log(a);\r\n');
    ws.write('src/keep.bin', Buffer.from([0, 1, 2, 255, 13, 10]));
    ws.write('docs/old.md', '# old\n');
    gitIn(ws.folder, 'add', '-A');
    gitIn(ws.folder, 'commit', '-q', '-m', 'first');
    ws.write('untracked.txt', 'mine, not Claude\'s\n');
    ws.write('node_modules/pkg/index.js', 'module.exports = 1;\n');
    const userIndex = fs.readFileSync(path.join(ws.folder, '.git', 'index'));
    const userHead = gitIn(ws.folder, 'rev-parse', 'HEAD');

    const cp = await ws.store.create({ kind: 'chat', prompt: 'Fix the app' });
    assert.equal(cp.id, 1);

    // What a session does: an editor edit, a bash-created file, a bash deletion, a new folder.
    ws.write('src/app.js', 'const a = 2;\n');
    ws.write('src/new.js', 'created\n');
    fs.rmSync(path.join(ws.folder, 'docs/old.md'));
    ws.write('gen/deep/x.txt', 'x');
    fs.chmodSync(path.join(ws.folder, 'src/keep.bin'), 0o755);
    // …and things that must stay: the ignored folder changes, the user's untracked file does not.
    ws.write('node_modules/pkg/index.js', 'module.exports = 2;\n');
    ws.write('debug.log', 'ignored log\n');
    const ignoredAfter = treeOf(path.join(ws.folder, 'node_modules'));

    const plan = await ws.store.preview(cp.id);
    assert.deepEqual(plan.files, [
      { path: 'docs/old.md', change: 'bring back' },
      { path: 'gen/deep/x.txt', change: 'remove' },
      { path: 'src/app.js', change: 'restore' },
      { path: 'src/keep.bin', change: 'restore' },
      { path: 'src/new.js', change: 'remove' },
    ]);
    // The preview changed nothing.
    assert.equal(ws.read('src/app.js').toString(), 'const a = 2;\n');

    const result = await ws.store.rewind(cp.id);
    assert.deepEqual(result.files, plan.files);
    assert.deepEqual(ws.read('src/app.js'), Buffer.from('const a = 1;\r\nconsole.log(a);\r\n'));
    assert.deepEqual(ws.read('src/keep.bin'), Buffer.from([0, 1, 2, 255, 13, 10]));
    assert.equal(fs.statSync(path.join(ws.folder, 'src/keep.bin')).mode & 0o777, 0o644);
    assert.equal(ws.read('docs/old.md').toString(), '# old\n');
    assert.equal(ws.exists('src/new.js'), false);
    assert.equal(ws.exists('gen'), false, 'the folders made since go with their files');
    assert.equal(ws.read('untracked.txt').toString(), 'mine, not Claude\'s\n');
    assert.deepEqual(treeOf(path.join(ws.folder, 'node_modules')), ignoredAfter);
    assert.equal(ws.read('debug.log').toString(), 'ignored log\n');
    // The user's repository: same index bytes, same HEAD, one commit, nothing staged or stashed.
    assert.deepEqual(fs.readFileSync(path.join(ws.folder, '.git', 'index')), userIndex);
    assert.equal(gitIn(ws.folder, 'rev-parse', 'HEAD'), userHead);
    assert.equal(gitIn(ws.folder, 'rev-list', '--count', '--all'), '1\n');
    assert.equal(gitIn(ws.folder, 'stash', 'list'), '');
    // The checkpoint repository is outside the folder.
    assert.ok(!checkpointRepositoryDir(ws.folder, ws.home).startsWith(ws.folder + path.sep));
  });

  it('a rewind is a checkpoint of its own: rewinding to its backup undoes it', async () => {
    ws.write('a.txt', 'one\n');
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    ws.write('a.txt', 'two\n');
    ws.write('b.txt', 'new\n');
    const after = treeOf(ws.folder);
    const result = await ws.store.rewind(cp.id);
    assert.equal(ws.read('a.txt').toString(), 'one\n');
    assert.equal(result.backup.kind, 'rewind');
    await ws.store.rewind(result.backup.id);
    assert.deepEqual(treeOf(ws.folder), after);
  });

  it('a file replaced by a symlink to a file outside is restored as a file; nothing outside is written', async () => {
    ws.write('config.json', '{"safe": true}\n');
    ws.write('src/lib/a.js', 'a\n');
    fs.writeFileSync(path.join(ws.outside, 'secret.txt'), 'outside\n');
    fs.mkdirSync(path.join(ws.outside, 'lib'));
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    fs.rmSync(path.join(ws.folder, 'config.json'));
    fs.symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.folder, 'config.json'));
    // A folder replaced by a link to a folder outside: restoring src/lib/a.js must not write there.
    fs.rmSync(path.join(ws.folder, 'src/lib'), { recursive: true });
    fs.symlinkSync(path.join(ws.outside, 'lib'), path.join(ws.folder, 'src/lib'));
    const outsideBefore = treeOf(ws.outside);

    await ws.store.rewind(cp.id);
    assert.deepEqual(treeOf(ws.outside), outsideBefore);
    assert.equal(fs.lstatSync(path.join(ws.folder, 'config.json')).isFile(), true);
    assert.equal(ws.read('config.json').toString(), '{"safe": true}\n');
    assert.equal(fs.lstatSync(path.join(ws.folder, 'src/lib')).isDirectory(), true);
    assert.equal(ws.read('src/lib/a.js').toString(), 'a\n');
  });

  it('symlinks are checkpointed and restored as symlinks, never followed', async () => {
    fs.writeFileSync(path.join(ws.outside, 'target.txt'), 'outside\n');
    fs.symlinkSync(path.join(ws.outside, 'target.txt'), path.join(ws.folder, 'link'));
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    fs.rmSync(path.join(ws.folder, 'link'));
    ws.write('link', 'now a file\n');
    await ws.store.rewind(cp.id);
    assert.equal(fs.readlinkSync(path.join(ws.folder, 'link')), path.join(ws.outside, 'target.txt'));
    assert.equal(fs.readFileSync(path.join(ws.outside, 'target.txt'), 'utf8'), 'outside\n');
  });

  it('the workspace\'s .gitattributes, hooks and config cannot convert bytes or run code', async () => {
    gitIn(ws.folder, 'init', '-q');
    const marker = path.join(ws.outside, 'ran');
    // A config a cloned repository could carry in .git (hooks, fsmonitor, a filter) and attributes asking for CRLF and a filter.
    fs.writeFileSync(path.join(ws.folder, '.git', 'hooks', 'post-index-change'), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    gitIn(ws.folder, 'config', 'core.fsmonitor', `touch ${marker}-fsmonitor; echo`);
    gitIn(ws.folder, 'config', 'filter.evil.clean', `touch ${marker}-filter; cat`);
    ws.write('.gitattributes', '* text eol=crlf filter=evil\n');
    ws.write('mixed.txt', 'a\nb\r\nc\n');
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    ws.write('mixed.txt', 'changed');
    await ws.store.rewind(cp.id);
    assert.deepEqual(ws.read('mixed.txt'), Buffer.from('a\nb\r\nc\n'));
    assert.deepEqual(fs.readdirSync(ws.outside), []);
  });

  it('files over the size limit are not checkpointed, and the rewind says which it could not restore (and leaves them)', async () => {
    ws.write('big.bin', Buffer.alloc(2000, 1));
    ws.write('small.txt', 'small\n');
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    assert.deepEqual(cp.skipped, [{ path: 'big.bin', size: 2000 }]);
    ws.write('big.bin', Buffer.alloc(3000, 2));
    ws.write('small.txt', Buffer.alloc(1500, 3)); // grew over the limit since
    const plan = await ws.store.preview(cp.id);
    assert.deepEqual(plan.notRestored, [
      { path: 'big.bin', size: 3000 },
      { path: 'small.txt', size: 1500 },
    ]);
    assert.deepEqual(plan.files, []);
    await ws.store.rewind(cp.id);
    assert.deepEqual(ws.read('big.bin'), Buffer.alloc(3000, 2));
    assert.deepEqual(ws.read('small.txt'), Buffer.alloc(1500, 3));
  });

  it('a file that shrank under the limit since is neither removed nor overwritten (it was too big to hold then)', async () => {
    ws.write('data.bin', Buffer.alloc(5000, 1));
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    ws.write('data.bin', 'tiny');
    const plan = await ws.store.preview(cp.id);
    assert.deepEqual(plan.files, []);
    await ws.store.rewind(cp.id);
    assert.equal(ws.read('data.bin').toString(), 'tiny');
  });

  it('a file ignored after it was checkpointed is not touched by a rewind', async () => {
    ws.write('build/out.js', 'v1');
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    ws.write('.gitignore', 'build/\n');
    ws.write('build/out.js', 'v2');
    await ws.store.create({ kind: 'chat', prompt: 'q' });
    const plan = await ws.store.preview(cp.id);
    assert.deepEqual(plan.files, [{ path: '.gitignore', change: 'remove' }]);
    assert.deepEqual(plan.leftIgnored, ['build/out.js']);
    await ws.store.rewind(cp.id);
    assert.equal(ws.read('build/out.js').toString(), 'v2');
    assert.equal(ws.exists('.gitignore'), false);
  });

  it('nested repositories (with or without a commit) are left out and left alone', async () => {
    fs.mkdirSync(path.join(ws.folder, 'vendor/empty'), { recursive: true });
    gitIn(path.join(ws.folder, 'vendor/empty'), 'init', '-q');
    fs.mkdirSync(path.join(ws.folder, 'vendor/lib'), { recursive: true });
    gitIn(path.join(ws.folder, 'vendor/lib'), 'init', '-q');
    fs.writeFileSync(path.join(ws.folder, 'vendor/lib/x'), 'x');
    gitIn(path.join(ws.folder, 'vendor/lib'), 'add', '-A');
    gitIn(path.join(ws.folder, 'vendor/lib'), 'commit', '-q', '-m', 'x');
    ws.write('a.txt', 'a');
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    fs.writeFileSync(path.join(ws.folder, 'vendor/lib/x'), 'changed');
    ws.write('a.txt', 'b');
    const result = await ws.store.rewind(cp.id);
    assert.deepEqual(result.files, [{ path: 'a.txt', change: 'restore' }]);
    assert.equal(fs.readFileSync(path.join(ws.folder, 'vendor/lib/x'), 'utf8'), 'changed');
  });

  it('memory comes back through history as the user\'s versions (undoable); the memory folder is not in the file checkpoint', async () => {
    await ws.engine.createFile('notes.md', Buffer.from('before\n'));
    await ws.engine.createFile('gone.md', Buffer.from('keep me\n'));
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    assert.equal(typeof cp.memoryVersion, 'number');
    await ws.engine.execute({ command: 'str_replace', path: '/memories/notes.md', old_str: 'before', new_str: 'after' }, undefined, { name: 'chat' });
    await ws.engine.execute({ command: 'create', path: '/memories/new.md', file_text: 'new\n' }, undefined, { name: 'chat' });
    await ws.engine.execute({ command: 'delete', path: '/memories/gone.md' }, undefined, { name: 'chat' });
    // A hand edit outside the engine, after the checkpoint: history notices it only now.
    const plan = await ws.store.preview(cp.id);
    assert.deepEqual(plan.files, []);
    assert.deepEqual(
      plan.memory.map((m) => [m.rel, m.action]),
      [['new.md', 'remove'], ['gone.md', 'restore'], ['notes.md', 'restore']],
    );
    const versionsBefore = (await ws.engine.history()).length;
    await ws.store.rewind(cp.id);
    const mem = path.join(ws.folder, '.claude-memories');
    assert.equal(fs.readFileSync(path.join(mem, 'notes.md'), 'utf8'), 'before\n');
    assert.equal(fs.readFileSync(path.join(mem, 'gone.md'), 'utf8'), 'keep me\n');
    assert.equal(fs.existsSync(path.join(mem, 'new.md')), false);
    const added = (await ws.engine.history()).slice(versionsBefore);
    assert.equal(added.length, 3);
    assert.ok(added.every((e) => e.author.name === 'user'));
    // Undoable like any change: undo the restore of notes.md.
    const restoreOfNotes = added.find((e) => e.path === 'notes.md');
    assert.ok(restoreOfNotes);
    await ws.engine.undo(restoreOfNotes.version);
    assert.equal(fs.readFileSync(path.join(mem, 'notes.md'), 'utf8'), 'after\n');
  });

  it('a memory file edited by hand (outside the engine) before the checkpoint comes back to that hand edit', async () => {
    await ws.engine.createFile('notes.md', Buffer.from('v1\n'));
    fs.writeFileSync(path.join(ws.folder, '.claude-memories', 'notes.md'), 'hand edit\n');
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    await ws.engine.execute({ command: 'create', path: '/memories/notes.md', file_text: 'claude\n' }, undefined, { name: 'chat' });
    await ws.store.rewind(cp.id);
    assert.equal(fs.readFileSync(path.join(ws.folder, '.claude-memories', 'notes.md'), 'utf8'), 'hand edit\n');
  });

  it('lists checkpoints with what changed since; unknown and malformed ids are refused', async () => {
    ws.write('a.txt', '1');
    const one = await ws.store.create({ kind: 'chat', prompt: 'first\nmessage', session: 's1' });
    ws.write('a.txt', '2');
    const two = await ws.store.create({ kind: 'run', prompt: 'second' });
    ws.write('b.txt', 'b');
    const list = await ws.store.list();
    assert.deepEqual(list.map((c) => [c.id, c.kind, c.prompt, c.session]), [[1, 'chat', 'first\nmessage', 's1'], [2, 'run', 'second', undefined]]);
    const since = await ws.store.changesSince(list);
    assert.deepEqual(since.get(one.id)?.files.map((f) => f.path), ['a.txt', 'b.txt']);
    assert.deepEqual(since.get(two.id)?.files.map((f) => f.path), ['b.txt']);
    for (const bad of ['3', '0', '-1', 'abc', '1.5', '', '1; rm -rf /', 'refs/heads/main', '../1']) {
      await assert.rejects(ws.store.preview(bad), UnknownCheckpointError, bad);
    }
  });

  it('the extension and the CLI find the same repository for a folder, by its real path', () => {
    const link = path.join(ws.root, 'link-to-project');
    fs.symlinkSync(ws.folder, link);
    assert.equal(checkpointRepositoryDir(link, ws.home), checkpointRepositoryDir(ws.folder, ws.home));
    assert.equal(checkpointsHome({ XDG_STATE_HOME: '/s' }, 'linux', '/h'), path.join('/s', 'claude-memory', 'checkpoints'));
    assert.equal(checkpointsHome({}, 'linux', '/h'), path.join('/h', '.local', 'state', 'claude-memory', 'checkpoints'));
    assert.equal(checkpointsHome({ XDG_STATE_HOME: 'relative' }, 'linux', '/h'), path.join('/h', '.local', 'state', 'claude-memory', 'checkpoints'));
  });
});

describe('checkpoints: the host environment cannot redirect git', () => {
  it('GIT_DIR, GIT_INDEX_FILE and GIT_WORK_TREE of the host reach neither git nor the user\'s repository', async () => {
    const ws = await makeWorkspace();
    const saved = { ...process.env };
    try {
      gitIn(ws.folder, 'init', '-q');
      ws.write('a.txt', 'a');
      const userGit = path.join(ws.folder, '.git');
      process.env.GIT_DIR = userGit;
      process.env.GIT_INDEX_FILE = path.join(userGit, 'index');
      process.env.GIT_WORK_TREE = ws.outside;
      const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
      ws.write('a.txt', 'b');
      await ws.store.rewind(cp.id);
      assert.equal(ws.read('a.txt').toString(), 'a');
      assert.equal(fs.existsSync(path.join(userGit, 'index')), false, 'the user\'s repository got no index');
      assert.equal(gitIn(ws.folder, 'for-each-ref').trim(), '');
      assert.deepEqual(fs.readdirSync(ws.outside), []);
    } finally {
      process.env = saved;
      ws.cleanup();
    }
  });
});
