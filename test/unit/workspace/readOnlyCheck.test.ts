/**
 * Without the sandbox, a read-only default asks when what it reads is not what its text says
 * (issue 35, class 7): links the repository ships (`keys -> ~/.ssh`), options that follow links,
 * and a repository whose git configuration names a program for `git diff`. Real files, a real
 * git, a real shell: the planted secret never reaches the output and the planted program never
 * runs unless the user allows it.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ApprovalRequest } from '../../../src/core/agent/tools';
import { BashTool } from '../../../src/core/workspace/bashTool';
import { judgeCommand } from '../../../src/core/workspace/commandRules';
import { PersistentShell } from '../../../src/platform/node/persistentShell';
import { readOnlyCheck } from '../../../src/platform/node/readOnlyCheck';

const SECRET = 'PLANTED-KEY-MATERIAL-4242';

describe('read-only defaults without the sandbox: links, link-following options, git configuration (readOnlyCheck)', function () {
  this.timeout(20_000);
  let root: string;
  let workspace: string;
  let home: string;
  let outside: string;

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-roc-')));
    workspace = path.join(root, 'ws');
    home = path.join(root, 'home');
    outside = path.join(root, 'elsewhere');
    fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
    fs.writeFileSync(path.join(home, '.ssh', 'id_ed25519'), `${SECRET}\n`);
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'notes.txt'), `${SECRET}\n`);
    fs.mkdirSync(path.join(workspace, 'src'), { recursive: true });
    fs.writeFileSync(path.join(workspace, 'src', 'a.ts'), 'export const a = 1;\n');
    // What a repository can ship: links to a credential place and out of the workspace.
    fs.symlinkSync(path.join(home, '.ssh'), path.join(workspace, 'keys'));
    fs.symlinkSync(outside, path.join(workspace, 'docs'));
  });

  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  async function why(command: string, cwd?: string): Promise<string | undefined> {
    const verdict = await judgeCommand(command, { allow: [], deny: [] });
    assert.ok(verdict.kind === 'allowed' && verdict.readOnly, `${command} is a read-only default`);
    return readOnlyCheck(verdict.parts ?? [], cwd, { workspace, home });
  }

  it('asks for an argument that is, or passes through, a link out of the workspace or into a credential place', async () => {
    assert.match((await why('cat keys/id_ed25519')) ?? '', /credential place/);
    assert.match((await why('head -c 100 ./keys/../keys/id_ed25519')) ?? '', /credential place/);
    assert.match((await why('cat keys/*')) ?? '', /credential place/);
    assert.match((await why('cat */id_ed25519')) ?? '', /credential place|out of the workspace/);
    assert.match((await why('ls keys')) ?? '', /credential place/);
    assert.match((await why('grep -n x docs/notes.txt')) ?? '', /out of the workspace/);
    assert.match((await why('cat id_ed25519', path.join(workspace, 'keys'))) ?? '', /credential place/, 'from the shell\'s directory');
    for (const command of ['cat src/a.ts', 'ls -la', 'cat src/*.ts', 'wc -l src/a.ts src/none.ts', 'git status', 'cat /etc/hostname']) {
      assert.equal(await why(command), undefined, command);
    }
  });

  it('asks for options that follow links', async () => {
    for (const command of ['grep -R x .', 'grep -rRn x src', 'grep --dereference-recursive x .', 'rg -L x', 'rg --follow x', 'du -L .', 'ls -lL', 'stat -L src']) {
      assert.match((await why(command)) ?? '', /follows links/, command);
    }
    assert.equal(await why('grep -rn x src'), undefined);
  });

  it('asks before a git command in a repository whose own configuration names a program; not for a plain clone', async () => {
    const git = (...args: string[]) => spawnSync('git', args, { cwd: workspace, encoding: 'utf8' });
    git('init', '-q');
    git('remote', 'add', 'origin', 'https://example.com/x.git');
    assert.equal(await why('git diff'), undefined, 'a plain repository');
    for (const [key, value] of [
      ['diff.external', './run.sh'],
      ['diff.pic.textconv', './run.sh'],
      ['filter.crlf.clean', './run.sh'],
      ['core.pager', './run.sh'],
    ]) {
      git('config', key, value);
      assert.match((await why('git log -p')) ?? '', new RegExp(key.replace(/\./g, '\\.'), 'i'), key);
      git('config', '--unset', key);
    }
    // Through an include of the repository's own config too.
    fs.writeFileSync(path.join(workspace, 'extra.cfg'), '[diff]\n\texternal = ./run.sh\n');
    git('config', 'include.path', '../extra.cfg');
    assert.match((await why('git show')) ?? '', /diff\.external|include\.path/);
  });

  it('through the bash tool with a real shell: declined, the secret is never printed and the planted program never runs', async function () {
    if (process.platform === 'win32') this.skip();
    const git = (...args: string[]) => spawnSync('git', args, { cwd: workspace, encoding: 'utf8' });
    git('init', '-q');
    fs.writeFileSync(path.join(workspace, 'run.sh'), `#!/bin/sh\ntouch "${path.join(root, 'ran')}"\n`, { mode: 0o755 });
    git('add', 'src/a.ts');
    fs.appendFileSync(path.join(workspace, 'src', 'a.ts'), 'export const b = 2;\n');
    git('config', 'diff.external', path.join(workspace, 'run.sh'));
    const asked: ApprovalRequest[] = [];
    const shell = new PersistentShell({ cwd: workspace });
    const tool = new BashTool({
      shell: () => shell,
      sandboxed: () => false,
      policy: () => ({ mode: 'rules' }),
      rules: () => ({ allow: [], deny: [] }),
      approver: { ask: async (request) => (asked.push(request), 'deny') },
      readOnlyCheck: (parts, cwd) => readOnlyCheck(parts, cwd, { workspace, home }),
    });
    try {
      let n = 0;
      const run = (command: string) => tool.execute({ command }, { toolUseId: `t${++n}`, onOutput: () => undefined });
      const read = await run('cat keys/id_ed25519');
      assert.equal(read.is_error, true);
      assert.ok(!String(read.content).includes(SECRET));
      const diff = await run('git diff');
      assert.equal(diff.is_error, true);
      assert.equal(fs.existsSync(path.join(root, 'ran')), false, 'the planted diff.external never ran');
      assert.equal(asked.length, 2);
      assert.ok(asked.every((a) => a.kind === 'command' && a.prefixes.length === 0 && /credential place|diff\.external/.test(a.stillAsks ?? '')));
      // An ordinary read still runs without asking.
      const plain = await run('cat src/a.ts');
      assert.equal(plain.is_error, false);
      assert.match(String(plain.content), /export const a/);
    } finally {
      tool.dispose();
    }
  });
});
