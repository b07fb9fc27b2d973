/**
 * The sandbox's file boundary as data: what the mounts are (no mount for a place that does not
 * exist, pins above the protected ones, hides after the binds), how the runtime's bubblewrap line
 * is taken apart (any other form is refused, so nothing runs unconfined), and which git
 * configuration keys a new repository may keep.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runtimeWords, withOwnMounts } from '../../../src/platform/node/commandSandbox';
import { findGitPlaces } from '../../../src/platform/node/gitPlaces';
import { isSafeConfigKey } from '../../../src/platform/node/sandboxCheck';
import { bwrapArgs, planBoundary } from '../../../src/platform/node/sandboxPlan';

describe('sandbox boundary plan', () => {
  let base: string;
  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-plan-')));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  function layout() {
    const ws = path.join(base, 'ws');
    const home = path.join(base, 'home');
    const shells = path.join(base, 'shells');
    const shell = path.join(shells, 'shell-1');
    for (const dir of [path.join(ws, '.git', 'hooks'), path.join(ws, '.vscode'), path.join(home, '.ssh'), path.join(shell, 'tmp'), path.join(shell, 'cmd')]) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(ws, '.git', 'config'), '[core]\n');
    fs.writeFileSync(path.join(ws, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    fs.writeFileSync(path.join(home, '.pgpass'), 'x\n');
    return { ws, home, shells, shell };
  }

  it('binds read-only what exists, mounts nothing for what does not (it is watched instead), pins the folders above, hides credentials last', () => {
    const { ws, home, shells, shell } = layout();
    const boundary = planBoundary({ workspace: ws, access: 'workspace', shellDir: shell, tmpDir: path.join(shell, 'tmp'), shellsRoot: shells, readOnly: [], home, pathEnv: '/usr/bin', gitConfig: false });
    const args = bwrapArgs(boundary);
    const mountedAt = (flag: string) => args.flatMap((a, i) => (a === flag ? [flag === '--tmpfs' || flag === '--remount-ro' ? args[i + 1] : args[i + 2]] : []));
    // Every mount lands on something that exists: no placeholder entry anywhere.
    for (const dest of [...mountedAt('--ro-bind'), ...mountedAt('--bind'), ...mountedAt('--tmpfs')]) assert.ok(fs.existsSync(dest), `a mount at ${dest}, which does not exist`);
    assert.ok(mountedAt('--ro-bind').includes(path.join(ws, '.git', 'config')));
    assert.ok(mountedAt('--ro-bind').includes(path.join(ws, '.git', 'hooks')));
    assert.ok(mountedAt('--ro-bind').includes(path.join(ws, '.vscode')));
    // .git is pinned beneath the workspace's writable bind (so it cannot be moved aside), the workspace itself is not.
    const pin = args.findIndex((a, i) => a === '--ro-bind' && args[i + 2] === path.join(ws, '.git'));
    const wsBind = args.findIndex((a, i) => a === '--bind' && args[i + 2] === ws);
    assert.ok(pin > 0 && pin < wsBind, 'the .git pin is not beneath the workspace bind');
    // Absent places are watched for the check after the command, not mounted.
    assert.equal(boundary.snapshot?.watched.get(path.join(ws, '.envrc'))?.kind, 'absent');
    assert.equal(boundary.snapshot?.watched.get(path.join(ws, '.git', 'commondir'))?.kind, 'absent');
    // Credentials are hidden after every bind (nothing brings them back), other shells too.
    const lastBind = Math.max(...args.flatMap((a, i) => (a === '--ro-bind' && args[i + 1] !== '/dev/null' && !args[i + 2].startsWith(shell) ? [i] : [])));
    assert.ok(args.indexOf(path.join(home, '.ssh')) > lastBind);
    assert.ok(args.indexOf(path.join(home, '.pgpass')) > lastBind);
    assert.deepEqual(args.slice(args.indexOf(shells) - 1, args.indexOf(shells) + 3), ['--tmpfs', shells, '--ro-bind', shell]);
  });

  it('a workspace that is the home folder protects its start-up files, credential places and PATH folders too', () => {
    const { shells, shell } = layout();
    const home = path.join(base, 'userhome');
    fs.mkdirSync(path.join(home, '.local', 'bin'), { recursive: true });
    fs.writeFileSync(path.join(home, '.bashrc'), '# mine\n');
    const boundary = planBoundary({ workspace: home, access: 'workspace', shellDir: shell, tmpDir: path.join(shell, 'tmp'), shellsRoot: shells, readOnly: [], home, pathEnv: `${path.join(home, '.local', 'bin')}:/usr/bin`, gitConfig: false });
    assert.ok(boundary.readOnlyBinds.includes(path.join(home, '.bashrc')));
    assert.ok(boundary.readOnlyBinds.includes(path.join(home, '.local')));
    for (const absent of ['.zshrc', '.aws', '.gitconfig', '.config', '.ssh']) assert.equal(boundary.snapshot?.watched.get(path.join(home, absent))?.kind, 'absent', absent);
  });

  it('with read-only access nothing is writable and nothing is watched', () => {
    const { ws, home, shells, shell } = layout();
    const boundary = planBoundary({ workspace: ws, access: 'read-only', shellDir: shell, tmpDir: path.join(shell, 'tmp'), shellsRoot: shells, readOnly: [], home, gitConfig: false });
    assert.deepEqual(boundary.writeRoots, []);
    assert.equal(boundary.snapshot, undefined);
    assert.equal(bwrapArgs(boundary).includes('--bind'), false);
  });

  it('takes the runtime\'s bubblewrap line apart exactly, and refuses any other form', () => {
    const line = `bwrap --new-session --die-with-parent --setenv A 'it'"'"'s a b' --bind / / --dev /dev -- /bin/bash -c 'echo "$HOME"'`;
    assert.deepEqual(runtimeWords(line), ['bwrap', '--new-session', '--die-with-parent', '--setenv', 'A', "it's a b", '--bind', '/', '/', '--dev', '/dev', '--', '/bin/bash', '-c', 'echo "$HOME"']);
    assert.deepEqual(withOwnMounts(line, ['--ro-bind', '/', '/', '--bind', '/w', '/w']).slice(3, 11), ['--setenv', 'A', "it's a b", '--ro-bind', '/', '/', '--bind', '/w']);
    for (const bad of [
      'bwrap --die-with-parent --bind / / --  /bin/bash', // two spaces
      'bwrap --die-with-parent --bind / / -- $(id)', // an expansion
      "bwrap --die-with-parent --bind / / -- 'open", // an open quote
      "bwrap --die-with-parent --bind / / -- 'a'\\''b'", // another quoting
      'bwrap --die-with-parent --ro-bind / / -- x', // no --bind / /
      'bwrap --die-with-parent --bind / / --bind / / -- x', // two
      'bwrap --bind / / -- x', // not dying with its parent
      'sandbox-exec -p x --bind / / -- x', // not bubblewrap
      'bwrap --die-with-parent --bind / /', // no command
    ]) {
      assert.throws(() => withOwnMounts(bad, []), Error, bad);
    }
  });

  it('lets a new repository keep what git init, clone, remote, branch and submodule write, nothing that names a program or a file', () => {
    for (const key of ['core.repositoryformatversion', 'core.bare', 'core.logallrefupdates', 'remote.origin.url', 'remote.origin.fetch', 'branch.main.remote', 'branch.feat.x.merge', 'submodule.lib.url', 'user.email', 'init.defaultbranch', 'advice.detachedhead', 'color.diff.meta', 'extensions.objectformat']) {
      assert.equal(isSafeConfigKey(key), true, key);
    }
    for (const key of [
      'core.fsmonitor', 'core.hookspath', 'core.sshcommand', 'core.pager', 'core.editor', 'core.askpass', 'core.gitproxy', 'core.excludesfile', 'core.attributesfile',
      'diff.external', 'diff.x.textconv', 'diff.x.command', 'filter.x.clean', 'filter.x.process', 'merge.x.driver', 'credential.helper', 'credential.https://x.helper',
      'gpg.program', 'gpg.ssh.program', 'alias.st', 'include.path', 'includeif.gitdir:/x/.path', 'pager.log', 'sequence.editor', 'remote.origin.uploadpack',
      'remote.origin.receivepack', 'remote.origin.vcs', 'url.x.insteadof', 'submodule.lib.update', 'uploadpack.packobjectshook', 'lfs.customtransfer.x.path',
      'trailer.x.command', 'core', 'core.', '.x',
    ]) {
      assert.equal(isSafeConfigKey(key), false, key);
    }
  });

  it('a walk that reuses earlier listings still finds a repository made deep in an old folder, and git\'s answers are asked again when a config file changes', () => {
    const ws = path.join(base, 'ws');
    fs.mkdirSync(path.join(ws, 'a', 'b', 'c'), { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: ws });
    const find = () => findGitPlaces(ws, { racyMs: 0 });
    const first = find();
    assert.deepEqual([...first.gitDirs.keys()], [path.join(ws, '.git')]);
    // Made in a folder the last walk listed: that folder's mtime moved.
    execFileSync('git', ['init', '-q'], { cwd: path.join(ws, 'a', 'b') });
    assert.ok(find().gitDirs.has(path.join(ws, 'a', 'b', '.git')), 'the new nested repository was not found');
    // A configuration change git would act on (an include file) is seen at once, though git was asked before.
    assert.equal([...find().programs].some((p) => p.endsWith('shared.gitconfig')), false);
    execFileSync('git', ['config', 'include.path', '../shared.gitconfig'], { cwd: ws });
    assert.ok([...find().programs].includes(path.join(ws, 'shared.gitconfig')), 'the include target was not seen');
  });
});

