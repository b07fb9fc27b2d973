/**
 * Rewind and the folder's own commits (issue 32, item 6): a preview names the commits made since
 * the checkpoint; a rewind moves the branch back only when asked and only when the checkpoint
 * explains how the branch moved (branchPlan.ts), keeping the commits in the reflog; rewinding to
 * the rewind's backup moves it forward again. Real git in temp folders.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BranchNotMovableError, branchLine } from '../../../src/core/checkpoints';
import { makeWorkspace, treeOf, type Workspace } from './checkpointSupport';

const gitIn = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' } }).trim();

describe('checkpoints and the folder\'s commits (real git)', () => {
  let ws: Workspace;
  let first: string;
  beforeEach(async () => {
    ws = await makeWorkspace();
    gitIn(ws.folder, 'init', '-q');
    ws.write('.gitignore', 'todos.json\n');
    ws.write('src/todo.js', 'function add() {}\n');
    gitIn(ws.folder, 'add', '-A');
    gitIn(ws.folder, 'commit', '-q', '-m', 'todo-cli: add');
    first = gitIn(ws.folder, 'rev-parse', 'HEAD');
  });
  afterEach(() => ws.cleanup());

  /** What a Resume session does after the checkpoint: an edit, committed (`git add -A && git commit`). */
  function claudeCommits(message = 'Add remove()'): string {
    ws.write('src/todo.js', 'function add() {}\nfunction remove() {}\n');
    gitIn(ws.folder, 'add', '-A');
    gitIn(ws.folder, 'commit', '-q', '-m', message);
    return gitIn(ws.folder, 'rev-parse', 'HEAD');
  }

  it('the checkpoint records HEAD; the preview names the commits since and says they stay on the branch', async () => {
    const cp = await ws.store.create({ kind: 'chat', prompt: 'Add a remove() function' });
    assert.deepEqual(cp.head, { commit: first, ref: 'refs/heads/main' });
    const second = claudeCommits();
    const plan = await ws.store.preview(cp.id);
    assert.deepEqual(plan.files, [{ path: 'src/todo.js', change: 'restore' }]);
    assert.ok(plan.git, 'a git part');
    assert.equal(plan.git.branch, 'main');
    assert.equal(plan.git.direction, 'back');
    assert.equal(plan.git.total, 1);
    assert.deepEqual(plan.git.commits, [{ id: second.slice(0, plan.git.commits[0].id.length), subject: 'Add remove()' }]);
    assert.equal(plan.git.movable, true, plan.git.reason);
    assert.equal(plan.git.from, second);
    assert.equal(plan.git.to, first);
    assert.equal(branchLine(plan.git, false), `1 commit since stays on main: ${plan.git.commits[0].id} Add remove()`);
    assert.match(branchLine(plan.git, true), /^Branch main moves back: 1 commit leaves it \(kept in the reflog\): [0-9a-f]+ Add remove\(\)$/);
  });

  it('without moveBranch the commit stays on the branch (and the rewind is an uncommitted change)', async () => {
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    const second = claudeCommits();
    const result = await ws.store.rewind(cp.id);
    assert.equal(result.branchMoved, undefined);
    assert.equal(result.git?.total, 1);
    assert.equal(gitIn(ws.folder, 'rev-parse', 'HEAD'), second);
    assert.equal(gitIn(ws.folder, 'status', '--porcelain'), 'M src/todo.js');
  });

  it('moveBranch moves the branch back with the files: the commit leaves main, stays in the reflog, status is as before the message', async () => {
    ws.write('notes.txt', 'my uncommitted notes\n');
    const statusBefore = gitIn(ws.folder, 'status', '--porcelain');
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    const second = claudeCommits();
    const preview = await ws.store.preview(cp.id);
    const result = await ws.store.rewind(cp.id, { moveBranch: { from: preview.git!.from } });
    assert.equal(result.branchMoved, true);
    assert.equal(gitIn(ws.folder, 'rev-parse', 'HEAD'), first);
    assert.equal(gitIn(ws.folder, 'symbolic-ref', 'HEAD'), 'refs/heads/main', 'still on the branch');
    assert.equal(gitIn(ws.folder, 'status', '--porcelain'), statusBefore);
    assert.equal(ws.read('src/todo.js').toString(), 'function add() {}\n');
    // The commit is in the branch's reflog and in HEAD's, with our message.
    const reflog = gitIn(ws.folder, 'reflog', 'show', '--format=%H %gs', 'main');
    assert.match(reflog, new RegExp(`^${first} claude-memory: rewind to checkpoint ${cp.id}$`, 'm'));
    assert.match(reflog, new RegExp(`^${second} commit: Add remove\\(\\)$`, 'm'));
    assert.match(gitIn(ws.folder, 'reflog', 'show', '--format=%gs', 'HEAD'), /claude-memory: rewind to checkpoint/);
    assert.equal(gitIn(ws.folder, 'cat-file', '-t', second), 'commit');
  });

  it('the commit stays in the reflog even where reflogs are off (the branch gets one)', async () => {
    gitIn(ws.folder, 'config', 'core.logAllRefUpdates', 'false');
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    const second = claudeCommits();
    fs.rmSync(path.join(ws.folder, '.git', 'logs'), { recursive: true, force: true });
    await ws.store.rewind(cp.id, { moveBranch: true });
    assert.match(gitIn(ws.folder, 'reflog', 'show', '--format=%H %gs', 'main'), new RegExp(`^${first} claude-memory: rewind to checkpoint ${cp.id}$`, 'm'));
    // The entry's old side is the commit that left the branch.
    assert.match(fs.readFileSync(path.join(ws.folder, '.git', 'logs', 'refs', 'heads', 'main'), 'utf8'), new RegExp(`^${second} ${first} `, 'm'));
  });

  it('rewinding to the rewind\'s backup (its Undo) moves the branch forward again and brings the files back', async () => {
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    const second = claudeCommits();
    const after = treeOf(path.join(ws.folder, 'src'));
    const rewound = await ws.store.rewind(cp.id, { moveBranch: true });
    const undoPlan = await ws.store.preview(rewound.backup.id);
    assert.equal(undoPlan.git?.direction, 'forward');
    assert.equal(undoPlan.git?.movable, true, undoPlan.git?.reason);
    assert.match(branchLine(undoPlan.git!, true), /^Branch main moves forward again: 1 commit comes back/);
    const undone = await ws.store.rewind(rewound.backup.id, { moveBranch: true });
    assert.equal(undone.branchMoved, true);
    assert.equal(gitIn(ws.folder, 'rev-parse', 'HEAD'), second);
    assert.equal(gitIn(ws.folder, 'status', '--porcelain'), '');
    assert.deepEqual(treeOf(path.join(ws.folder, 'src')), after);
  });

  it('a commit of memory files (the routine commits progress.md) is covered when memory goes back too', async () => {
    await ws.engine.createFile('progress.md', Buffer.from('# Progress\n'));
    gitIn(ws.folder, 'add', '-A');
    gitIn(ws.folder, 'commit', '-q', '-m', 'memory');
    const base = gitIn(ws.folder, 'rev-parse', 'HEAD');
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    await ws.engine.execute({ command: 'str_replace', path: '/memories/progress.md', old_str: '# Progress', new_str: '# Progress\n- did F002' }, undefined, { name: 'chat' });
    claudeCommits();
    const result = await ws.store.rewind(cp.id, { moveBranch: true });
    assert.equal(result.branchMoved, true);
    assert.equal(gitIn(ws.folder, 'rev-parse', 'HEAD'), base);
    assert.equal(gitIn(ws.folder, 'status', '--porcelain'), '');
  });

  it('the branch is not movable when the checkpoint cannot explain it, and asking anyway changes nothing', async () => {
    const cases: { name: string; setUp: () => void; reason: RegExp }[] = [
      { name: 'amended', setUp: () => { ws.write('src/todo.js', 'other\n'); gitIn(ws.folder, 'commit', '-q', '-a', '--amend', '-m', 'amended'); }, reason: /rebased, reset or amended/ },
      { name: 'other branch', setUp: () => { gitIn(ws.folder, 'checkout', '-q', '-b', 'dev'); claudeCommits(); }, reason: /HEAD is on dev now, not on main/ },
      { name: 'detached', setUp: () => { claudeCommits(); gitIn(ws.folder, 'checkout', '-q', '--detach'); }, reason: /detached/ },
      { name: 'staged', setUp: () => { claudeCommits(); ws.write('staged.txt', 's\n'); gitIn(ws.folder, 'add', 'staged.txt'); }, reason: /staged changes/ },
      { name: 'ignored file committed', setUp: () => { ws.write('todos.json', '[]\n'); gitIn(ws.folder, 'add', '-f', 'todos.json'); gitIn(ws.folder, 'commit', '-qm', 'data'); }, reason: /todos\.json \(not in checkpoints\)/ },
    ];
    for (const c of cases) {
      gitIn(ws.folder, 'checkout', '-q', 'main');
      gitIn(ws.folder, 'reset', '-q', '--hard', first);
      gitIn(ws.folder, 'clean', '-qfdx', '-e', '.claude-memories');
      const cp = await ws.store.create({ kind: 'chat', prompt: c.name });
      c.setUp();
      const plan = await ws.store.preview(cp.id);
      assert.equal(plan.git?.movable, false, c.name);
      assert.match(plan.git?.reason ?? '', c.reason, c.name);
      const head = gitIn(ws.folder, 'rev-parse', 'HEAD');
      const tree = treeOf(ws.folder);
      await assert.rejects(ws.store.rewind(cp.id, { moveBranch: true }), BranchNotMovableError, c.name);
      assert.equal(gitIn(ws.folder, 'rev-parse', 'HEAD'), head, `${c.name}: HEAD unchanged`);
      assert.deepEqual(treeOf(ws.folder), tree, `${c.name}: nothing rewound`);
    }
  });

  it('a branch that moved after the preview is not moved (the preview\'s commit is checked), and nothing is rewound', async () => {
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    claudeCommits();
    const preview = await ws.store.preview(cp.id);
    ws.write('late.txt', 'x\n');
    gitIn(ws.folder, 'add', '-A');
    gitIn(ws.folder, 'commit', '-qm', 'late');
    const head = gitIn(ws.folder, 'rev-parse', 'HEAD');
    await assert.rejects(ws.store.rewind(cp.id, { moveBranch: { from: preview.git!.from } }), /moved since the preview/);
    assert.equal(gitIn(ws.folder, 'rev-parse', 'HEAD'), head);
    assert.equal(ws.exists('late.txt'), true);
  });

  it('a folder inside a bigger repository: commits that change files outside it keep the branch where it is', async () => {
    // The repository's top is the workspace folder's parent here.
    const top = path.dirname(ws.folder);
    fs.rmSync(path.join(ws.folder, '.git'), { recursive: true, force: true });
    gitIn(top, 'init', '-q');
    fs.writeFileSync(path.join(top, 'README.md'), 'top\n');
    gitIn(top, 'add', 'README.md', 'project');
    gitIn(top, 'commit', '-qm', 'top');
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    fs.writeFileSync(path.join(top, 'README.md'), 'top, changed\n');
    ws.write('src/todo.js', 'changed\n');
    gitIn(top, 'commit', '-qam', 'both');
    const plan = await ws.store.preview(cp.id);
    assert.equal(plan.git?.movable, false);
    assert.match(plan.git?.reason ?? '', /README\.md \(outside this folder\)/);
  });

  it('the workspace\'s hooks and config run nothing while HEAD is recorded, commits are listed and the branch moves', async () => {
    const marker = path.join(ws.outside, 'ran');
    for (const hook of ['reference-transaction', 'post-index-change', 'post-checkout', 'post-rewrite']) {
      fs.writeFileSync(path.join(ws.folder, '.git', 'hooks', hook), `#!/bin/sh\ntouch ${marker}-${hook}\n`, { mode: 0o755 });
    }
    gitIn(ws.folder, 'config', 'core.fsmonitor', `touch ${marker}-fsmonitor; echo`);
    gitIn(ws.folder, 'config', 'log.showSignature', 'true');
    gitIn(ws.folder, 'config', 'gpg.program', `${marker}-gpg`);
    gitIn(ws.folder, 'config', 'filter.evil.clean', `touch ${marker}-filter; cat`);
    ws.write('.gitattributes', '* filter=evil\n');
    gitIn(ws.folder, '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', 'add', '.gitattributes');
    gitIn(ws.folder, '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', 'commit', '-qm', 'attributes');
    const base = gitIn(ws.folder, '-c', 'core.fsmonitor=false', 'rev-parse', 'HEAD');
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    ws.write('src/todo.js', 'changed\n');
    gitIn(ws.folder, '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', 'commit', '-qam', 'change');
    fs.rmSync(ws.outside, { recursive: true, force: true });
    fs.mkdirSync(ws.outside);
    const plan = await ws.store.preview(cp.id);
    assert.equal(plan.git?.movable, true, plan.git?.reason);
    const result = await ws.store.rewind(cp.id, { moveBranch: true });
    assert.equal(result.branchMoved, true);
    assert.equal(gitIn(ws.folder, '-c', 'core.fsmonitor=false', 'rev-parse', 'HEAD'), base);
    assert.deepEqual(fs.readdirSync(ws.outside), []);
  });

  it('a folder without a repository (or without a commit) has no git part', async () => {
    fs.rmSync(path.join(ws.folder, '.git'), { recursive: true, force: true });
    const cp = await ws.store.create({ kind: 'chat', prompt: 'p' });
    assert.equal(cp.head, undefined);
    ws.write('src/todo.js', 'changed\n');
    const plan = await ws.store.preview(cp.id);
    assert.equal(plan.git, undefined);
    const result = await ws.store.rewind(cp.id, { moveBranch: true });
    assert.equal(result.branchMoved, undefined);
    assert.equal(ws.read('src/todo.js').toString(), 'function add() {}\n');
  });
});
