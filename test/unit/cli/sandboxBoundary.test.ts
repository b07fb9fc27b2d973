/**
 * The OS sandbox's boundary, second round (issues 32 and 35), through the real `claude-memory run`
 * (the bundle, spawned) and a scripted model, with every effect checked where it lands: the files
 * on disk, what a `git status` run outside the sandbox afterwards executes, the process table.
 *
 * - The workspace as commands see it: only the user's files (no placeholder entries), so
 *   `git add -A && git commit` works, from any working directory of the CLI.
 * - Protected places a command makes are not on disk after it; those that exist cannot be changed.
 * - Git's configuration and hooks reached around .git/config and .git/hooks: commondir,
 *   config.worktree, modules/, worktrees/, nested and new repositories, info/attributes, a hooks
 *   path, an include file, a linked worktree whose git directory lies elsewhere.
 * - Credentials beyond the first list, other projects' checkpoints, other shells' TMPDIR.
 *
 * The cases that need bubblewrap skip when it is missing; the rules-only cases run without it.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bundleCli, hasBwrap, REPO, runScriptedCli, type ScriptedRun } from './support';

const CLI = path.join(REPO, 'out', 'test-cli', 'boundary-cli.js');
const KEY = 'sk-ant-api03-BOUNDARY-SUITE-KEY-1a2b3c4d5e6f';


/** git outside any sandbox, as the user's next `git status` would run it. */
function git(cwd: string, args: string[], home: string): string {
  return execFileSync('git', args, { cwd, env: { ...gitIdentity(home), PATH: process.env.PATH }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function gitIdentity(home: string): NodeJS.ProcessEnv {
  return {
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'User',
    GIT_AUTHOR_EMAIL: 'user@example.com',
    GIT_COMMITTER_NAME: 'User',
    GIT_COMMITTER_EMAIL: 'user@example.com',
  };
}

const suite = hasBwrap ? describe : describe.skip;

suite('sandbox boundary through claude-memory run (bubblewrap)', function () {
  this.timeout(120_000);
  let base: string;
  let ws: string;
  let home: string;
  let state: string;

  before(async () => {
    fs.mkdirSync(path.dirname(CLI), { recursive: true });
    await bundleCli(CLI);
  });
  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-boundary-')));
    ws = path.join(base, 'ws');
    home = path.join(base, 'home');
    state = path.join(base, 'state');
    for (const dir of [ws, home, state]) fs.mkdirSync(dir);
    fs.writeFileSync(path.join(ws, 'README.md'), '# project\n');
    fs.mkdirSync(path.join(ws, 'src'));
    fs.writeFileSync(path.join(ws, 'src', 'a.js'), 'module.exports = 1;\n');
    fs.writeFileSync(path.join(ws, '.gitignore'), 'node_modules/\n');
    git(ws, ['init', '-q', '-b', 'main'], home);
    git(ws, ['add', '-A'], home);
    git(ws, ['commit', '-qm', 'init'], home);
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  const run = (commands: string[], cwd = ws): Promise<ScriptedRun> =>
    runScriptedCli({
      cli: CLI,
      workspace: ws,
      commands,
      flags: ['--allow-command', '*'],
      cwd,
      env: { ...gitIdentity(home), PATH: process.env.PATH, ANTHROPIC_API_KEY: KEY, XDG_STATE_HOME: state },
    });

  /** What the quarantine holds (paths relative to its per-workspace folder, any check). */
  function quarantined(): string[] {
    const root = path.join(state, 'claude-memory', 'quarantine');
    if (!fs.existsSync(root)) return [];
    const out: string[] = [];
    for (const project of fs.readdirSync(root)) {
      for (const stamp of fs.readdirSync(path.join(root, project))) {
        const walk = (dir: string, rel: string) => {
          for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
            const r = rel === '' ? e.name : `${rel}/${e.name}`;
            if (e.isDirectory()) walk(path.join(dir, e.name), r);
            else out.push(r);
          }
        };
        walk(path.join(root, project, stamp), '');
      }
    }
    return out.sort();
  }

  for (const where of ['the workspace', 'another folder'] as const) {
    it(`commands see only the user's files, and git add -A && git commit works (the CLI run from ${where})`, async () => {
      fs.mkdirSync(path.join(ws, '.claude-memories'));
      const outcome = await run(
        [
          'echo made > new.txt; ls -A; echo ---; find . -path ./.git -prune -o -print | sort; echo ---; git status --porcelain --untracked-files=all; git add -A && git commit -qm "from claude" && echo COMMITTED',
        ],
        where === 'the workspace' ? ws : '/',
      );
      assert.equal(outcome.code, 0, outcome.stderr);
      const [ls, found, status] = outcome.results[0].split('---\n');
      assert.deepEqual(ls.trim().split('\n'), ['.claude-memories', '.git', '.gitignore', 'README.md', 'new.txt', 'src']);
      assert.deepEqual(found.trim().split('\n'), ['.', './.claude-memories', './.gitignore', './README.md', './new.txt', './src', './src/a.js']);
      assert.match(status, /^\?\? new\.txt\nCOMMITTED\n?$/);
      // On disk: the commit is there with only the user's file, and nothing else appeared.
      assert.equal(git(ws, ['log', '-1', '--format=%s'], home).trim(), 'from claude');
      assert.deepEqual(git(ws, ['show', '--name-only', '--format=', 'HEAD'], home).trim().split('\n'), ['new.txt']);
      assert.equal(git(ws, ['status', '--porcelain'], home), '');
      assert.deepEqual(fs.readdirSync(ws).sort(), ['.claude-memories', '.git', '.gitignore', 'README.md', 'new.txt', 'src']);
    });
  }

  it('protected places a command makes are not on disk after it (moved to the quarantine, the model told); existing ones cannot be changed', async () => {
    fs.mkdirSync(path.join(ws, '.idea'));
    fs.writeFileSync(path.join(ws, '.idea', 'workspace.xml'), '<project/>\n');
    fs.writeFileSync(path.join(ws, '.npmrc'), 'registry=https://registry.npmjs.org/\n');
    const made = [
      '.envrc', '.husky/pre-commit', '.vscode/tasks.json', '.github/workflows/ci.yml', 'lefthook.yml', '.pre-commit-config.yaml',
      '.devcontainer/devcontainer.json', '.mcp.json', '.claude/settings.json', '.gitmodules', '.yarnrc.yml', '.pnpmfile.cjs',
    ];
    const outcome = await run([
      `${made.map((p) => `mkdir -p "$(dirname ${p})"; echo evil > ${p}`).join('; ')}; echo made-them`,
      'echo evil > .npmrc; echo "rc=$?"; echo x > .idea/workspace.xml; echo "rc=$?"; mkdir .idea/runConfigurations; echo "rc=$?"; ls -A',
    ]);
    assert.equal(outcome.code, 0, outcome.stderr);
    assert.match(outcome.results[0], /made-them/);
    assert.match(outcome.results[0], /The sandbox moved what this command made in protected places out of the folder/);
    for (const p of made) assert.equal(fs.existsSync(path.join(ws, p.split('/')[0])), false, `${p} is on disk`);
    assert.deepEqual(quarantined(), [...made].sort());
    // The existing ones stayed as they were.
    assert.match(outcome.results[1], /^.*Read-only file system[\s\S]*rc=1[\s\S]*rc=1[\s\S]*rc=1/);
    assert.equal(fs.readFileSync(path.join(ws, '.npmrc'), 'utf8'), 'registry=https://registry.npmjs.org/\n');
    assert.equal(fs.readFileSync(path.join(ws, '.idea', 'workspace.xml'), 'utf8'), '<project/>\n');
    assert.deepEqual(fs.readdirSync(path.join(ws, '.idea')), ['workspace.xml']);
    // (The run makes the memory folder itself.)
    assert.deepEqual(fs.readdirSync(ws).sort(), ['.claude-memories', '.git', '.gitignore', '.idea', '.npmrc', 'README.md', 'src']);
  });

  it('git configuration reached around .git/config: commondir, config.worktree, info/attributes, an include file and a hooks path; a git status outside runs none of it', async () => {
    git(ws, ['config', 'include.path', '../.gitconfig.shared'], home);
    git(ws, ['config', 'core.hooksPath', '.githooks'], home);
    const marker = (tag: string) => path.join(base, `PWNED-${tag}`);
    const evilConfig = (tag: string) => `printf '[core]\\n\\tfsmonitor = touch ${marker(tag)}\\n'`;
    const outcome = await run(
      [
        `mkdir -p evil && ${evilConfig('commondir')} > evil/config && cp -r .git/objects .git/refs .git/HEAD evil/ && echo "$PWD/evil" > .git/commondir; echo "rc=$?"`,
        `${evilConfig('worktree')} > .git/config.worktree; git config extensions.worktreeConfig true; echo "rc=$?"; ${evilConfig('config')} >> .git/config; echo "rc=$?"`,
        `echo '* filter=evil' > .git/info/attributes; echo "rc=$?"; ${evilConfig('include')} > .gitconfig.shared; mkdir -p .githooks && printf '#!/bin/sh\\ntouch ${marker('hook')}\\n' > .githooks/pre-commit && chmod +x .githooks/pre-commit; echo done`,
      ],
      '/',
    );
    assert.equal(outcome.code, 0, outcome.stderr);
    for (const p of ['.git/commondir', '.git/config.worktree', '.gitconfig.shared', '.githooks']) assert.equal(fs.existsSync(path.join(ws, p)), false, `${p} is on disk`);
    assert.doesNotMatch(fs.readFileSync(path.join(ws, '.git', 'config'), 'utf8'), /fsmonitor|worktreeConfig/);
    assert.equal(fs.existsSync(path.join(ws, '.git', 'info', 'attributes')), false);
    // The user's next git commands, outside any sandbox.
    git(ws, ['status'], home);
    fs.writeFileSync(path.join(ws, 'x.txt'), 'x\n');
    git(ws, ['add', 'x.txt'], home);
    git(ws, ['commit', '-qm', 'user commit'], home);
    for (const tag of ['commondir', 'worktree', 'config', 'include', 'hook']) assert.equal(fs.existsSync(marker(tag)), false, `${tag}: a planted program ran`);
  });

  it('nested, submodule and worktree repositories keep their configuration and hooks; a new repository keeps only what git init writes', async () => {
    const other = path.join(base, 'other');
    fs.mkdirSync(other);
    git(other, ['init', '-q', '-b', 'main'], home);
    git(other, ['commit', '-q', '--allow-empty', '-m', 'other'], home);
    fs.mkdirSync(path.join(ws, 'vendor'));
    git(path.join(ws, 'vendor'), ['init', '-q', '-b', 'main'], home);
    git(ws, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', other, 'sub'], home);
    git(ws, ['commit', '-qm', 'submodule'], home);
    git(ws, ['worktree', 'add', '-q', 'wt'], home);
    const configs = ['vendor/.git/config', '.git/modules/sub/config', '.git/worktrees/wt/commondir', '.git/worktrees/wt/gitdir', 'sub/.git', 'wt/.git'];
    const before = new Map(configs.map((p) => [p, fs.readFileSync(path.join(ws, p), 'utf8')]));
    const marker = (tag: string) => path.join(base, `PWNED-${tag}`);
    const outcome = await run(
      [
        `git -C vendor config core.fsmonitor "touch ${marker('vendor')}"; echo "rc=$?"; echo x > vendor/.git/hooks/post-checkout; echo "rc=$?"`,
        `git -C sub config core.fsmonitor "touch ${marker('sub')}"; echo "rc=$?"; echo "gitdir: /tmp" > sub/.git; echo "rc=$?"; echo /tmp > .git/worktrees/wt/commondir; echo "rc=$?"`,
        `git init -q newrepo && git -C newrepo config core.fsmonitor "touch ${marker('new')}" && printf '#!/bin/sh\\ntouch ${marker('newhook')}\\n' > newrepo/.git/hooks/post-checkout && chmod +x newrepo/.git/hooks/post-checkout; git init -q plainrepo; echo done`,
        `git init -q --bare .git/modules/evil && printf '[core]\\n\\tfsmonitor = touch ${marker('module')}\\n' >> .git/modules/evil/config && mkdir evilsub && echo "gitdir: ../.git/modules/evil" > evilsub/.git; echo done`,
      ],
      '/',
    );
    assert.equal(outcome.code, 0, outcome.stderr);
    for (const result of outcome.results.slice(0, 2)) assert.doesNotMatch(result, /rc=0/);
    for (const [p, content] of before) assert.equal(fs.readFileSync(path.join(ws, p), 'utf8'), content, `${p} changed`);
    assert.equal(fs.existsSync(path.join(ws, 'vendor', '.git', 'hooks', 'post-checkout')), false);
    // The new repository keeps its objects and refs, not the program its config named, nor its hook.
    assert.equal(fs.existsSync(path.join(ws, 'newrepo', '.git', 'HEAD')), true);
    assert.equal(fs.existsSync(path.join(ws, 'newrepo', '.git', 'config')), false);
    assert.equal(fs.existsSync(path.join(ws, 'newrepo', '.git', 'hooks', 'post-checkout')), false);
    assert.equal(fs.existsSync(path.join(ws, '.git', 'modules', 'evil', 'config')), false);
    // A plain git init is left alone.
    assert.match(fs.readFileSync(path.join(ws, 'plainrepo', '.git', 'config'), 'utf8'), /repositoryformatversion/);
    assert.match(outcome.results[2], /The sandbox moved .*newrepo\/\.git\/config/);
    for (const dir of ['vendor', 'sub', 'wt', 'newrepo', 'plainrepo', 'evilsub']) {
      try {
        git(path.join(ws, dir), ['status'], home);
      } catch {
        // A repository without its config is no repository to git: nothing runs either way.
      }
    }
    git(ws, ['status'], home);
    for (const tag of ['vendor', 'sub', 'new', 'newhook', 'module']) assert.equal(fs.existsSync(marker(tag)), false, `${tag}: a planted program ran`);
  });

  it('a workspace that is a linked worktree commits in the sandbox; the main repository\'s configuration and hooks stay out of reach', async () => {
    const main = path.join(base, 'main');
    fs.mkdirSync(main);
    git(main, ['init', '-q', '-b', 'main'], home);
    fs.writeFileSync(path.join(main, 'f.txt'), 'f\n');
    git(main, ['add', '-A'], home);
    git(main, ['commit', '-qm', 'main'], home);
    fs.rmSync(ws, { recursive: true, force: true });
    git(main, ['worktree', 'add', '-q', '-b', 'feature', ws], home);
    const configBefore = fs.readFileSync(path.join(main, '.git', 'config'), 'utf8');
    const marker = path.join(base, 'PWNED-main');
    const outcome = await run([
      'echo change >> f.txt && git commit -qam "in the worktree" && echo COMMITTED',
      `git config core.fsmonitor "touch ${marker}"; echo "rc=$?"; echo x > ${main}/.git/hooks/pre-commit; echo "rc=$?"; echo /tmp > ${main}/.git/commondir; echo "rc=$?"; echo /tmp > "$(git rev-parse --git-dir)/commondir"; echo "rc=$?"`,
    ]);
    assert.equal(outcome.code, 0, outcome.stderr);
    assert.match(outcome.results[0], /COMMITTED/);
    assert.equal(git(main, ['log', '-1', '--format=%s', 'feature'], home).trim(), 'in the worktree');
    assert.doesNotMatch(outcome.results[1], /rc=0/);
    assert.equal(fs.readFileSync(path.join(main, '.git', 'config'), 'utf8'), configBefore);
    assert.equal(fs.existsSync(path.join(main, '.git', 'hooks', 'pre-commit')), false);
    assert.equal(fs.existsSync(path.join(main, '.git', 'commondir')), false);
    git(ws, ['status'], home);
    git(main, ['status'], home);
    assert.equal(fs.existsSync(marker), false);
  });

  it('credentials beyond the first list, other projects\' checkpoints and other shells\' TMPDIR are not readable; the own TMPDIR is', async () => {
    const secrets: Record<string, string> = {
      '.config/git/credentials': 'https://u:GITCRED-SECRET@example.com',
      '.claude/.credentials.json': '{"token":"CLAUDE-SECRET"}',
      '.pgpass': 'db:5432:*:u:PGPASS-SECRET',
      '.npmrc': '//registry.npmjs.org/:_authToken=NPM-SECRET',
      '.yarnrc.yml': 'npmAuthToken: YARN-SECRET',
      '.gradle/gradle.properties': 'signing.password=GRADLE-SECRET',
      '.m2/settings.xml': '<password>MAVEN-SECRET</password>',
      '.docker/config.json': '{"auths":{"x":{"auth":"DOCKER-SECRET"}}}',
      '.kube/config': 'token: KUBE-SECRET',
      '.cargo/credentials.toml': 'token = "CARGO-SECRET"',
      '.bash_history': 'export TOKEN=BASHHIST-SECRET',
      '.zsh_history': ': 1:0;export TOKEN=ZSHHIST-SECRET',
      '.config/gcloud/application_default_credentials.json': '{"client_secret":"GCLOUD-SECRET"}',
    };
    for (const [rel, content] of Object.entries(secrets)) {
      fs.mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
      fs.writeFileSync(path.join(home, rel), `${content}\n`);
    }
    const otherCheckpoints = path.join(state, 'claude-memory', 'checkpoints', 'other-0123456789abcdef');
    fs.mkdirSync(otherCheckpoints, { recursive: true });
    fs.writeFileSync(path.join(otherCheckpoints, 'HEAD'), 'CHECKPOINT-SECRET\n');
    const shells = path.join(os.tmpdir(), `claude-memory-shells-${process.getuid?.() ?? 0}`);
    fs.mkdirSync(shells, { recursive: true, mode: 0o700 });
    const otherShell = fs.mkdtempSync(path.join(shells, 'shell-'));
    fs.mkdirSync(path.join(otherShell, 'tmp'));
    fs.writeFileSync(path.join(otherShell, 'tmp', 'scratch'), 'OTHER-TMPDIR-SECRET\n');
    try {
      const outcome = await run([
        `${Object.keys(secrets).map((rel) => `cat ~/${rel}`).join('; ')}; cat ${otherCheckpoints}/HEAD; cat ${otherShell}/tmp/scratch; ls ${shells} | wc -l; echo own > "$TMPDIR/own" && cat "$TMPDIR/own"`,
      ]);
      assert.equal(outcome.code, 0, outcome.stderr);
      for (const content of [...Object.values(secrets), 'CHECKPOINT-SECRET', 'OTHER-TMPDIR-SECRET']) {
        const secret = /[A-Z]+-SECRET/.exec(content)![0];
        assert.ok(!outcome.results[0].includes(secret), `${secret} was read`);
      }
      assert.match(outcome.results[0], /^1\nown$/m, 'the own shell folder alone is seen, and its TMPDIR works');
    } finally {
      fs.rmSync(otherShell, { recursive: true, force: true });
    }
  });
});

describe('sandbox boundary without bubblewrap: the rules', function () {
  this.timeout(120_000);
  let base: string;

  before(async () => {
    fs.mkdirSync(path.dirname(CLI), { recursive: true });
    await bundleCli(CLI);
  });
  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-boundary-rules-')));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('a read-only default that names a credential place of the new list, and a command that writes git\'s or the protected places, are not run unasked', async () => {
    const ws = path.join(base, 'ws');
    const home = path.join(base, 'home');
    fs.mkdirSync(ws);
    fs.mkdirSync(path.join(home, '.config', 'git'), { recursive: true });
    fs.writeFileSync(path.join(home, '.config', 'git', 'credentials'), 'GITCRED-SECRET\n');
    fs.writeFileSync(path.join(home, '.pgpass'), 'PGPASS-SECRET\n');
    fs.mkdirSync(path.join(home, '.m2'));
    fs.writeFileSync(path.join(home, '.m2', 'settings.xml'), 'MAVEN-SECRET\n');
    fs.writeFileSync(path.join(home, '.yarnrc.yml'), 'YARN-SECRET\n');
    fs.writeFileSync(path.join(home, '.bash_history'), 'HISTORY-SECRET\n');
    git(ws, ['init', '-q'], home);
    fs.mkdirSync(path.join(ws, 'vendor'));
    git(path.join(ws, 'vendor'), ['init', '-q'], home);
    const writes = ['echo /tmp > .git/commondir', 'echo x > .git/config.worktree', 'echo x >> vendor/.git/config', "echo '* filter=x' > .git/info/attributes", 'echo x > .envrc', 'tee .npmrc < /dev/null'];
    const outcome = await runScriptedCli({
      cli: CLI,
      workspace: ws,
      commands: ['cat ~/.config/git/credentials', 'cat ~/.pgpass', 'head -1 ~/.claude/.credentials.json', 'cat ~/.m2/settings.xml', 'grep -h SECRET ~/.yarnrc.yml', 'tail ~/.bash_history', ...writes],
      flags: ['--no-sandbox'],
      env: { HOME: home, PATH: process.env.PATH, ANTHROPIC_API_KEY: KEY, XDG_STATE_HOME: path.join(base, 'state') },
    });
    assert.equal(outcome.code, 0, outcome.stderr);
    for (const result of outcome.results) assert.match(result, /not allowed in this run/);
    assert.ok(!outcome.results.join('\n').includes('SECRET'));
    for (const p of ['.git/commondir', '.git/config.worktree', '.git/info/attributes', '.envrc', '.npmrc']) assert.equal(fs.existsSync(path.join(ws, p)), false, p);
    assert.doesNotMatch(fs.readFileSync(path.join(ws, 'vendor', '.git', 'config'), 'utf8'), /^x$/m);
  });
});
