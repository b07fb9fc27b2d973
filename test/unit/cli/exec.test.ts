import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { parseStoreCommandArgs } from '../../../src/cli/exec';
import { execJsonLines } from '../../../src/cli/jsonLines';
import { DEFAULT_STORE_SETTINGS, storeSettingsArgs, type StoreSettings } from '../../../src/core/memory/storeSettings';
import type { MemoryToolExecutor, MemoryToolResult } from '../../../src/core/memory/types';
import { bundleCli, REPO } from './support';

// Bundled here from the current sources (not dist/, which may be stale); inside out/ so that
// --version finds package.json two levels up, as dist/cli.js does one level up.
const CLI = path.join(REPO, 'out', 'test-cli', 'cli.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  lines: { is_error: boolean; content: unknown }[];
}

function runCli(args: string[], stdin: string, cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      // Only exec prints JSON Lines; usage and version output is checked as text.
      const lines = args[0] === 'exec' && !args.includes('--help') ? parseLines(stdout) : [];
      resolve({ code, stdout, stderr, lines });
    });
    child.stdin.end(stdin);
  });
}

const parseLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Run['lines'][number]);
const jsonl = (...inputs: unknown[]) => inputs.map((i) => (typeof i === 'string' ? i : JSON.stringify(i))).join('\n') + '\n';
const text = (r: { content: unknown }) => (typeof r.content === 'string' ? r.content : JSON.stringify(r.content));

function assertNoStack(s: string): void {
  assert.ok(!/\n\s+at /.test(s), `stack trace in output:\n${s}`);
}

describe('claude-memory exec (process)', function () {
  this.timeout(30_000);
  let tmp: string;

  before(() => bundleCli(CLI));
  beforeEach(() => (tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-exec-')))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('creates the store owner-only and views the empty root', async () => {
    const r = await runCli(['exec'], jsonl({ command: 'view', path: '/memories' }), tmp);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.lines.length, 1);
    assert.equal(r.lines[0].is_error, false);
    assert.match(text(r.lines[0]), /^Here're the files and directories up to 2 levels deep in \/memories/);
    assert.equal(fs.statSync(path.join(tmp, '.claude-memories')).mode & 0o777, 0o700);
  });

  it('runs lines in order, answers bad lines with an error line and keeps going', async () => {
    const r = await runCli(
      ['exec'],
      jsonl(
        { command: 'create', path: '/memories/notes.md', file_text: 'alpha\nbeta\n' },
        '',
        '{not json',
        '   ',
        '[1,2]',
        { command: 'str_replace', path: '/memories/notes.md', old_str: 'beta', new_str: 'gamma' },
        { command: 'view', path: '/memories/notes.md' },
        { command: 'view', path: '/memories/../etc/passwd' },
      ),
      tmp,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.lines.length, 6, r.stdout);
    assert.deepEqual(r.lines[0], { is_error: false, content: 'File created successfully at: /memories/notes.md' });
    assert.equal(r.lines[1].is_error, true);
    assert.match(text(r.lines[1]), /^Input line 3 is not valid JSON/);
    assert.equal(r.lines[2].is_error, true);
    assert.match(text(r.lines[2]), /^Input line 5 is not a JSON object/);
    assert.equal(r.lines[3].is_error, false);
    assert.match(text(r.lines[3]), /^The memory file has been edited\./);
    assert.equal(r.lines[4].is_error, false);
    assert.match(text(r.lines[4]), /\n\s+2\tgamma/);
    assert.equal(r.lines[5].is_error, true);
    assert.equal(fs.readFileSync(path.join(tmp, '.claude-memories/notes.md'), 'utf8'), 'alpha\ngamma\n');
    assert.ok(!r.stdout.includes(tmp), 'host path leaked into stdout');
  });

  it('handles CRLF and a last line without a newline', async () => {
    const input = `${JSON.stringify({ command: 'create', path: '/memories/a.md', file_text: 'x' })}\r\n${JSON.stringify({ command: 'view', path: '/memories/a.md' })}`;
    const r = await runCli(['exec'], input, tmp);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.lines.length, 2);
    assert.ok(r.lines.every((l) => !l.is_error), r.stdout);
  });

  it('uses --workspace relative to the current folder', async () => {
    fs.mkdirSync(path.join(tmp, 'ws'));
    const r = await runCli(['exec', '--workspace', 'ws'], jsonl({ command: 'create', path: '/memories/k.md', file_text: 'k' }), tmp);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(fs.existsSync(path.join(tmp, 'ws/.claude-memories/k.md')));
    assert.ok(!fs.existsSync(path.join(tmp, '.claude-memories')));
  });

  it('returns image views as content blocks', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
      'base64',
    );
    fs.mkdirSync(path.join(tmp, '.claude-memories'), { mode: 0o700 });
    fs.writeFileSync(path.join(tmp, '.claude-memories/dot.png'), png);
    const r = await runCli(['exec'], jsonl({ command: 'view', path: '/memories/dot.png' }), tmp);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.lines[0].is_error, false, text(r.lines[0]));
    assert.ok(Array.isArray(r.lines[0].content));
    const blocks = r.lines[0].content as { type: string }[];
    assert.ok(blocks.some((b) => b.type === 'image'), text(r.lines[0]));
  });

  it('honours --max-file-bytes', async () => {
    const r = await runCli(
      ['exec', '--max-file-bytes', '10'],
      jsonl({ command: 'create', path: '/memories/big.md', file_text: 'x'.repeat(100) }),
      tmp,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.lines[0].is_error, true);
    assert.ok(!fs.existsSync(path.join(tmp, '.claude-memories/big.md')));
  });

  describe('the checklist guards (on by default, --no-guards turns them off)', () => {
    const features = JSON.stringify([{ id: 'F001', category: 'functional', description: 'ship', steps: [], passes: false }], null, 2) + '\n';
    const seed = () => {
      fs.mkdirSync(path.join(tmp, '.claude-memories'), { mode: 0o700 });
      fs.writeFileSync(path.join(tmp, '.claude-memories/features.json'), features);
      fs.writeFileSync(path.join(tmp, '.claude-memories/progress.md'), '# Progress\n\n## day 1\nstarted\n');
    };
    const edits = jsonl(
      { command: 'str_replace', path: '/memories/features.json', old_str: '"passes": false', new_str: '"passes": true' },
      { command: 'str_replace', path: '/memories/progress.md', old_str: 'started', new_str: 'finished everything' },
      { command: 'delete', path: '/memories/features.json' },
    );

    it('by default: flipping passes is allowed, rewriting history and deleting the checklist are refused', async () => {
      seed();
      const r = await runCli(['exec'], edits, tmp);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(r.lines.map((l) => l.is_error), [false, true, true]);
      assert.match(text(r.lines[1]), /progress\.md is append-only/);
      assert.match(text(r.lines[2]), /features\.json is the project's feature checklist and cannot be deleted/);
      assert.match(fs.readFileSync(path.join(tmp, '.claude-memories/features.json'), 'utf8'), /"passes": true/);
      assert.match(fs.readFileSync(path.join(tmp, '.claude-memories/progress.md'), 'utf8'), /started/);
    });

    it('with --no-guards: all three run', async () => {
      seed();
      const r = await runCli(['exec', '--no-guards'], edits, tmp);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(r.lines.map((l) => l.is_error), [false, false, false], r.stdout);
      assert.equal(fs.existsSync(path.join(tmp, '.claude-memories/features.json')), false);
      assert.match(fs.readFileSync(path.join(tmp, '.claude-memories/progress.md'), 'utf8'), /finished everything/);
    });

    it('--help says so, for exec and run', async () => {
      for (const command of ['exec', 'run']) {
        const r = await runCli([command, '--help'], '', tmp);
        assert.equal(r.code, 0);
        assert.match(r.stdout, /applies the checklist guards by default/);
        assert.match(r.stdout, /--no-guards\s+Turn off the checklist guards/);
      }
    });

    it('keeps its lock in .claude-memories/.meta, ignored by git, and leaves no lock behind', async () => {
      const r = await runCli(['exec'], jsonl({ command: 'create', path: '/memories/a.md', file_text: 'a' }), tmp);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(fs.readFileSync(path.join(tmp, '.claude-memories/.meta/.gitignore'), 'utf8'), '*\n');
      assert.deepEqual(fs.readdirSync(path.join(tmp, '.claude-memories/.meta')).sort(), ['.gitignore', 'history']);
    });
  });

  it('honours the window\'s engine settings given as flags: quota, create policy, history off or its retention', async () => {
    const store = path.join(tmp, '.claude-memories');
    const off = await runCli(
      ['exec', ...storeSettingsArgs({ ...DEFAULT_STORE_SETTINGS, quotaBytes: 64, createPolicy: 'overwrite', history: false })],
      jsonl(
        { command: 'create', path: '/memories/a.md', file_text: 'one' },
        { command: 'create', path: '/memories/a.md', file_text: 'two' },
        { command: 'create', path: '/memories/big.md', file_text: 'x'.repeat(100) },
      ),
      tmp,
    );
    assert.equal(off.code, 0, off.stderr);
    assert.deepEqual(off.lines.map((l) => l.is_error), [false, false, true], 'overwrite allowed, the quota refuses the big file');
    assert.equal(fs.readFileSync(path.join(store, 'a.md'), 'utf8'), 'two');
    assert.ok(!fs.existsSync(path.join(store, '.meta', 'history')), 'history off: nothing recorded');

    const kept = await runCli(
      ['exec', ...storeSettingsArgs({ ...DEFAULT_STORE_SETTINGS, history: { maxVersionsPerFile: 2, maxDays: 30, maxBytes: 1 << 20 } })],
      jsonl(...[1, 2, 3, 4].map((n) => ({ command: 'str_replace', path: '/memories/a.md', old_str: n === 1 ? 'two' : `v${n - 1}`, new_str: `v${n}` }))),
      tmp,
    );
    assert.equal(kept.code, 0, kept.stderr);
    const history = await runCli(['history', '--json', 'a.md'], '', tmp);
    assert.equal(JSON.parse(history.stdout).length, 2, 'two versions per file kept');
  });

  it('reads back exactly the settings storeSettingsArgs gives it', () => {
    const cases: StoreSettings[] = [
      DEFAULT_STORE_SETTINGS,
      { maxFileBytes: 10, quotaBytes: 20, redactSecrets: false, checklistGuard: false, createPolicy: 'overwrite', history: false },
      { ...DEFAULT_STORE_SETTINGS, history: { maxVersionsPerFile: 3, maxDays: 4, maxBytes: 5 } },
    ];
    for (const s of cases) {
      const { engineOptions } = parseStoreCommandArgs(storeSettingsArgs(s));
      assert.deepEqual(
        {
          maxFileBytes: engineOptions.maxFileBytes,
          quotaBytes: engineOptions.quotaBytes,
          redactSecrets: engineOptions.redactSecrets ?? true,
          checklistGuard: engineOptions.guards,
          createPolicy: engineOptions.createPolicy,
          history: engineOptions.history ?? DEFAULT_STORE_SETTINGS.history,
        },
        s,
      );
    }
    assert.throws(() => parseStoreCommandArgs(['--no-history', '--history-max-days', '3']), /cannot go together/);
    assert.throws(() => parseStoreCommandArgs(['--create-policy', 'sometimes']), /'error' or 'overwrite'/);
  });

  describe('usage and failures: exit codes, one-line messages, no stack traces', () => {
    const cases: { args: string[]; code: number; stream: 'stdout' | 'stderr'; match: RegExp }[] = [
      { args: [], code: 2, stream: 'stderr', match: /no command given[\s\S]*Usage: claude-memory/ },
      { args: ['frobnicate'], code: 2, stream: 'stderr', match: /unknown command 'frobnicate'[\s\S]*Usage:/ },
      { args: ['--help'], code: 0, stream: 'stdout', match: /Usage: claude-memory <command>/ },
      { args: ['exec', '--help'], code: 0, stream: 'stdout', match: /Usage: claude-memory exec/ },
      { args: ['exec', '--bogus'], code: 2, stream: 'stderr', match: /Unknown option '--bogus'[\s\S]*Usage: claude-memory exec/ },
      { args: ['exec', 'extra'], code: 2, stream: 'stderr', match: /Unexpected argument 'extra'/ },
      { args: ['exec', '--max-file-bytes', '-5'], code: 2, stream: 'stderr', match: /.+/ },
      { args: ['exec', '--max-file-bytes', 'lots'], code: 2, stream: 'stderr', match: /positive whole number/ },
      { args: ['exec', '--workspace', 'no/such/dir'], code: 1, stream: 'stderr', match: /does not exist or is not a folder/ },
    ];
    for (const c of cases) {
      it(`${c.args.join(' ') || '(no arguments)'} → exit ${c.code}`, async () => {
        const r = await runCli(c.args, '', tmp);
        assert.equal(r.code, c.code, r.stderr);
        assert.match(r[c.stream], c.match);
        assertNoStack(r.stderr);
      });
    }

    it('refuses a store path that is a file, in one sentence', async () => {
      fs.writeFileSync(path.join(tmp, '.claude-memories'), 'not a folder');
      const r = await runCli(['exec'], jsonl({ command: 'view', path: '/memories' }), tmp);
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^claude-memory exec: cannot use .*\.claude-memories as the memory store: it exists and is not a folder\.\n$/);
    });

    it('--version prints the package version', async () => {
      const { version } = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string };
      const r = await runCli(['--version'], '', tmp);
      assert.equal(r.code, 0);
      assert.equal(r.stdout.trim(), version);
    });

    it('exits quietly when the reader closes stdout early', async () => {
      const many = jsonl(...Array.from({ length: 3000 }, () => ({ command: 'view', path: '/memories' })));
      const r = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [CLI, 'exec'], { cwd: tmp, stdio: ['pipe', 'pipe', 'pipe'] });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        child.stdout.once('data', () => child.stdout.destroy());
        child.stdin.on('error', () => undefined); // the child may exit before reading all of it
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stderr }));
        child.stdin.end(many);
      });
      assert.equal(r.code, 1);
      assert.equal(r.stderr, '');
    });
  });
});

/** A fake executor that records the order of calls. */
function echoExecutor(log: unknown[] = []): MemoryToolExecutor {
  return {
    async execute(input: unknown): Promise<MemoryToolResult> {
      log.push(input);
      await new Promise((r) => setImmediate(r));
      return { is_error: false, content: JSON.stringify(input) };
    },
  };
}

function collect(): { stream: Writable; lines: () => { is_error: boolean; content: unknown }[] } {
  let out = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      out += chunk.toString('utf8');
      cb();
    },
  });
  return { stream, lines: () => out.split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

describe('execJsonLines (in process)', () => {
  it('pulls input only as fast as the output drains (backpressure), in order', async () => {
    const total = 400;
    let produced = 0;
    let written = 0;
    let maxAhead = 0;
    const input = Readable.from(
      (function* () {
        for (let i = 0; i < total; i++) {
          produced++;
          maxAhead = Math.max(maxAhead, produced - written);
          yield `${JSON.stringify({ command: 'view', path: `/memories/${i}` })}\n`;
        }
      })(),
      { objectMode: false, highWaterMark: 4 },
    );
    const seen: number[] = [];
    const slow = new Writable({
      highWaterMark: 64,
      write(chunk: Buffer, _enc, cb) {
        const rec = JSON.parse(chunk.toString('utf8')) as { content: string };
        seen.push(Number((JSON.parse(rec.content) as { path: string }).path.split('/').pop()));
        written++;
        setTimeout(cb, 1); // a consumer much slower than the executor
      },
    });
    await execJsonLines(echoExecutor(), input, slow);
    assert.equal(seen.length, total);
    assert.deepEqual(seen, Array.from({ length: total }, (_, i) => i));
    // Without backpressure the whole input would be read ahead of the writes.
    assert.ok(maxAhead < 50, `input ran ${maxAhead} lines ahead of the output`);
  });

  it('joins a line split across many chunks, including a split multi-byte character', async () => {
    const line = Buffer.from(`${JSON.stringify({ command: 'create', path: '/memories/é.md', file_text: 'ü'.repeat(50) })}\n`, 'utf8');
    const chunks = Array.from({ length: line.length }, (_, i) => line.subarray(i, i + 1));
    const out = collect();
    const log: unknown[] = [];
    await execJsonLines(echoExecutor(log), Readable.from(chunks), out.stream);
    assert.deepEqual(log, [{ command: 'create', path: '/memories/é.md', file_text: 'ü'.repeat(50) }]);
  });

  it('skips an over-long line with an error line and runs the next one', async () => {
    const out = collect();
    const log: unknown[] = [];
    const long = JSON.stringify({ command: 'create', path: '/memories/x', file_text: 'y'.repeat(500) });
    const chunks = [long.slice(0, 100), long.slice(100, 300), long.slice(300), '\n', '{"command":"view","path":"/memories"}\n'];
    await execJsonLines(echoExecutor(log), Readable.from(chunks), out.stream, { maxLineChars: 200 });
    const lines = out.lines();
    assert.equal(lines.length, 2);
    assert.equal(lines[0].is_error, true);
    assert.match(String(lines[0].content), /^Input line 1 is longer than 200 characters/);
    assert.deepEqual(log, [{ command: 'view', path: '/memories' }]);
  });

  it('turns an executor crash into an error line without details and continues', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const executor: MemoryToolExecutor = {
      async execute() {
        if (calls++ === 0) throw new Error('boom at /home/secret/place');
        return { is_error: false, content: 'ok' };
      },
    };
    const out = collect();
    await execJsonLines(executor, Readable.from(['{"command":"view","path":"/memories"}\n{"command":"view","path":"/memories"}\n']), out.stream, {
      onInternalError: (e) => errors.push(e),
    });
    const lines = out.lines();
    assert.equal(lines.length, 2);
    assert.equal(lines[0].is_error, true);
    assert.ok(!String(lines[0].content).includes('/home/secret'));
    assert.deepEqual(lines[1], { is_error: false, content: 'ok' });
    assert.equal(errors.length, 1);
  });

  it('rejects when the output fails', async () => {
    const broken = new Writable({
      write(_c, _e, cb) {
        cb(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const input = Readable.from(Array.from({ length: 50 }, () => '{"command":"view","path":"/memories"}\n'));
    await assert.rejects(execJsonLines(echoExecutor(), input, broken), /EPIPE/);
  });
});
