/**
 * `claude-memory run` records a checkpoint before its prompt; `checkpoints` lists it with what
 * changed since; `rewind` brings back what the editor, bash and the memory tool did.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { checkpointsCommand, rewindCommand } from '../../../src/cli/checkpoints';
import { runCommand } from '../../../src/cli/run';
import { startMockMessagesApi, type MockMessagesApi } from '../../support/mockMessagesApi';
import { treeOf } from '../checkpoints/checkpointSupport';

const KEY = 'sk-ant-api03-CHECKPOINT-TEST-KEY-1q2w3e4r';

function io(cwd: string) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out = { stdout: '', stderr: '' };
  stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  return { io: { stdout, stderr, cwd }, out };
}

describe('claude-memory checkpoints and rewind', function () {
  this.timeout(60_000);
  let ws: string;
  let server: MockMessagesApi | undefined;

  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-cli-checkpoints-')));
    fs.writeFileSync(path.join(ws, '.gitignore'), 'node_modules/\n');
    fs.mkdirSync(path.join(ws, 'src'));
    fs.writeFileSync(path.join(ws, 'src', 'add.js'), 'exports.add = (a, b) => a - b;\n');
    fs.writeFileSync(path.join(ws, 'old.txt'), 'old\n');
    fs.writeFileSync(path.join(ws, 'mine.txt'), 'the user\'s own untracked file\n');
    fs.mkdirSync(path.join(ws, 'node_modules', 'dep'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'node_modules', 'dep', 'index.js'), 'v1\n');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(ws, { recursive: true, force: true });
  });

  it('run checkpoints before its prompt; rewind brings back editor, bash and memory changes and nothing else', async () => {
    const before = treeOf(ws);
    const editor = { type: 'tool_use' as const, id: 't1', name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'src/add.js', old_str: 'a - b', new_str: 'a + b' } };
    const bash = { type: 'tool_use' as const, id: 't2', name: 'bash', input: { command: 'printf made > made.txt && rm old.txt && echo v2 > node_modules/dep/index.js' } };
    const memory = { type: 'tool_use' as const, id: 't3', input: { command: 'create', path: '/memories/progress.md', file_text: '- fixed add\n' } };
    server = await startMockMessagesApi([{ content: [editor] }, { content: [bash] }, { content: [memory] }, { content: [{ type: 'text', text: 'Done.' }] }]);
    const run = io(ws);
    const code = await runCommand(['--workspace', ws, '--allow-edits', '--allow-command', '*', 'fix add'], {
      ...run.io,
      stdin: new PassThrough(),
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url },
      signal: new AbortController().signal,
    });
    assert.equal(code, 0, run.out.stderr);
    assert.equal(fs.readFileSync(path.join(ws, 'made.txt'), 'utf8'), 'made');
    assert.equal(fs.existsSync(path.join(ws, 'old.txt')), false);
    const ignoredAfter = treeOf(path.join(ws, 'node_modules'));

    const list = io(ws);
    assert.equal(await checkpointsCommand(['--json'], list.io), 0, list.out.stderr);
    const json = JSON.parse(list.out.stdout) as Array<{ id: number; kind: string; prompt: string; files: unknown[]; memory: unknown[] }>;
    assert.deepEqual(json.map((c) => [c.id, c.kind, c.prompt]), [[1, 'run', 'fix add']]);
    assert.deepEqual(json[0].files, [
      { path: 'made.txt', change: 'remove' },
      { path: 'old.txt', change: 'bring back' },
      { path: 'src/add.js', change: 'restore' },
    ]);
    assert.deepEqual(json[0].memory, [{ path: '/memories/progress.md', action: 'remove' }]);
    const table = io(ws);
    assert.equal(await checkpointsCommand(['--workspace', ws], table.io), 0);
    assert.match(table.out.stdout, /^ID +TIME +PROMPT +CHANGED SINCE\n1 +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +run: fix add +3 files, 1 memory file\n$/);

    const dry = io(ws);
    assert.equal(await rewindCommand(['--workspace', ws, '--dry-run', '1'], dry.io), 0, dry.out.stderr);
    assert.match(dry.out.stdout, /would change 3 files, 1 memory file/);
    assert.equal(fs.existsSync(path.join(ws, 'made.txt')), true, 'a dry run changes nothing');

    const rewind = io(ws);
    assert.equal(await rewindCommand(['--workspace', ws, '1'], rewind.io), 0, rewind.out.stderr);
    assert.equal(
      rewind.out.stdout,
      [
        'Rewound to checkpoint 1: 3 files, 1 memory file.',
        '  removed      made.txt',
        '  brought back old.txt',
        '  restored     src/add.js',
        '  removed      /memories/progress.md',
        "Undo this rewind with 'claude-memory rewind 2'.",
        '',
      ].join('\n'),
    );
    // Byte for byte as before the run, the ignored folder as the run left it, the memory file gone.
    const now = treeOf(ws);
    for (const rel of Object.keys(now)) if (rel.startsWith('.claude-memories/')) delete now[rel];
    assert.deepEqual({ ...now, 'node_modules/dep/index.js': undefined }, { ...before, 'node_modules/dep/index.js': undefined });
    assert.deepEqual(treeOf(path.join(ws, 'node_modules')), ignoredAfter);
    assert.equal(fs.existsSync(path.join(ws, '.claude-memories', 'progress.md')), false);
  });

  it('rewind names the commits made since; --move-branch moves the branch back (the reflog keeps the commit) and its Undo forward', async () => {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { cwd: ws, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: ws, GIT_CONFIG_NOSYSTEM: '1' } }).trim();
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'first');
    const first = git('rev-parse', 'HEAD');
    // A run whose bash step commits, as the Resume routine does.
    const bash = { type: 'tool_use' as const, id: 't1', name: 'bash', input: { command: "printf 'exports.add = (a, b) => a + b;\\n' > src/add.js && git -c user.name=c -c user.email=c@c commit -qam 'Fix add'" } };
    server = await startMockMessagesApi([{ content: [bash] }, { content: [{ type: 'text', text: 'Committed.' }] }]);
    const run = io(ws);
    assert.equal(await runCommand(['--workspace', ws, '--allow-command', '*', '--no-sandbox', 'fix add'], { ...run.io, stdin: new PassThrough(), env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url }, signal: new AbortController().signal }), 0, run.out.stderr);
    const second = git('rev-parse', 'HEAD');
    assert.notEqual(second, first, 'the run committed');
    const short = git('rev-parse', '--short', 'HEAD');

    const dry = io(ws);
    assert.equal(await rewindCommand(['--workspace', ws, '--dry-run', '1'], dry.io), 0, dry.out.stderr);
    assert.match(dry.out.stdout, new RegExp(`^1 commit since stays on main: ${short} Fix add\nAdd --move-branch to move main back too\\.$`, 'm'));

    const rewind = io(ws);
    assert.equal(await rewindCommand(['--workspace', ws, '--move-branch', '1'], rewind.io), 0, rewind.out.stderr);
    assert.match(rewind.out.stdout, new RegExp(`^Branch main moves back: 1 commit leaves it \\(kept in the reflog\\): ${short} Fix add$`, 'm'));
    assert.match(rewind.out.stdout, /^Undo this rewind with 'claude-memory rewind 2 --move-branch'\.$/m);
    assert.equal(git('rev-parse', 'HEAD'), first);
    assert.equal(git('status', '--porcelain', '--untracked-files=no'), '');
    assert.match(git('reflog', 'show', '--format=%H %gs', 'main'), new RegExp(`^${second} commit: Fix add$`, 'm'));

    const undo = io(ws);
    assert.equal(await rewindCommand(['--workspace', ws, '--move-branch', '2'], undo.io), 0, undo.out.stderr);
    assert.match(undo.out.stdout, /^Branch main moves forward again: 1 commit comes back/m);
    assert.equal(git('rev-parse', 'HEAD'), second);

    // A branch the checkpoint cannot explain (Claude's commit amended; checkpoint 2 was taken on it): --move-branch refuses and changes nothing.
    fs.writeFileSync(path.join(ws, 'src', 'add.js'), 'amended\n');
    git('commit', '-q', '-a', '--amend', '-m', 'Fix add, amended');
    const amended = git('rev-parse', 'HEAD');
    const refused = io(ws);
    assert.equal(await rewindCommand(['--workspace', ws, '--move-branch', '2'], refused.io), 1);
    assert.match(refused.out.stderr, /^claude-memory rewind: The branch cannot be moved with this rewind: main was rebased, reset or amended since this message.* Nothing was rewound/);
    assert.equal(git('rev-parse', 'HEAD'), amended);
    assert.equal(fs.readFileSync(path.join(ws, 'src', 'add.js'), 'utf8'), 'amended\n');
  });

  it('a bad or unknown id is one line on stderr and exit 2', async () => {
    for (const id of ['7', 'abc', '0', '1.5', '1; rm -rf ~', 'refs/checkpoints/1']) {
      const r = io(ws);
      assert.equal(await rewindCommand(['--workspace', ws, id], r.io), 2, id);
      assert.equal(r.out.stderr.split('\n').filter(Boolean).length, 1, r.out.stderr);
      assert.match(r.out.stderr, /^claude-memory rewind: there is no checkpoint '.*' \(see 'claude-memory checkpoints'\)\.\n$/);
      assert.equal(r.out.stdout, '');
    }
    const none = io(ws);
    assert.equal(await checkpointsCommand(['--workspace', ws], none.io), 0);
    assert.match(none.out.stdout, /^No checkpoints yet/);
  });
});
