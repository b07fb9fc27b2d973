import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startMockMessagesApi, type MockMessagesApi, type MockStep, type MockTurn } from '../../support/mockMessagesApi';
import { createNodeMemoryEngine } from '../../../src/platform/node/nodeMemoryEngine';
import { bundleCli } from './support';

const KEY = 'sk-ant-api03-CLI-RUN-TEST-KEY-9q8w7e6r5t';

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('claude-memory run (spawned CLI against the scripted API)', function () {
  let tmp: string;
  let cli: string;
  let workspace: string;
  let server: MockMessagesApi | undefined;

  before(async function () {
    this.timeout(60000);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-run-test-'));
    // The same bundle as `npm run build` makes, built fresh into a temp dir (dist/ may be stale).
    cli = path.join(tmp, 'cli.js');
    await bundleCli(cli);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  beforeEach(() => {
    workspace = fs.mkdtempSync(path.join(tmp, 'ws-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function run(
    script: MockStep[],
    args: string[],
    env: Record<string, string | undefined> = {},
    onStdout?: (child: import('node:child_process').ChildProcess) => void,
  ): Promise<Result> {
    await server?.close();
    server = await startMockMessagesApi(script);
    const childEnv: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: tmp };
    for (const [k, v] of Object.entries({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, ...env })) if (v !== undefined) childEnv[k] = v;
    const child = spawn(process.execPath, [cli, 'run', '--workspace', workspace, ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      onStdout?.(child);
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.ok(!stdout.includes(KEY) && !stderr.includes(KEY), 'the API key must never be printed');
    return { code, stdout, stderr };
  }

  const createThenAnswer: MockTurn[] = [
    { content: [{ type: 'text', text: 'Saving.' }, { type: 'tool_use', input: { command: 'create', path: '/memories/todo.md', file_text: '- ship\n' } }] },
    { content: [{ type: 'text', text: 'Saved your todo.' }] },
  ];

  it('streams text to stdout, one line per memory operation to stderr, and exits 0', async () => {
    const r = await run(createThenAnswer, ['--model', 'claude-cli-model', 'Remember', 'to ship']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Saving.Saved your todo.\n');
    assert.equal(r.stderr, '[memory] created /memories/todo.md\n');
    assert.equal(fs.readFileSync(path.join(workspace, '.claude-memories', 'todo.md'), 'utf8'), '- ship\n');
    const body = server!.requests[0].body as { model: string; messages: Array<{ content: Array<{ text: string }> }> };
    assert.equal(body.model, 'claude-cli-model');
    assert.equal(body.messages[0].content[0].text, 'Remember to ship');
  });

  it('records its memory writes in history by the author run', async () => {
    const r = await run(createThenAnswer, ['Remember to ship']);
    assert.equal(r.code, 0, r.stderr);
    const { engine } = createNodeMemoryEngine(path.join(workspace, '.claude-memories'));
    assert.deepEqual(
      (await engine.history()).map((e) => [e.op, e.path, e.author]),
      [['create', 'todo.md', { name: 'run' }]],
    );
  });

  it('writes one JSON event per line with --json', async () => {
    const r = await run(createThenAnswer, ['--json', 'Remember to ship']);
    assert.equal(r.code, 0, r.stderr);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; summary?: string });
    assert.deepEqual(events.filter((e) => e.type === 'tool_end').map((e) => e.summary), ['created /memories/todo.md']);
    assert.equal(events.at(-1)!.type, 'done');
  });

  it('--compaction-trigger sets the trigger; after a compaction it reloads progress.md and says so; --json usage events carry the compaction', async function () {
    this.timeout(90_000); // three spawned runs
    fs.mkdirSync(path.join(workspace, '.claude-memories'));
    fs.writeFileSync(path.join(workspace, '.claude-memories', 'progress.md'), '# Progress\n- F001: verified with npm test\n');
    const script: MockTurn[] = [{ content: [{ type: 'compaction', content: 'Summary: F001 done.' }] }, { content: [{ type: 'text', text: 'Continuing.' }] }];
    const human = await run(script, ['--compaction-trigger', '60000', 'go on']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stderr, /^\[context\] Context compacted — .* tokens; progress reloaded from memory$/m);
    const edits = (server!.requests[0].body.context_management as { edits: Array<{ type: string; trigger?: { value: number } }> }).edits;
    assert.equal(edits.find((e) => e.type === 'compact_20260112')?.trigger?.value, 60000);
    const resume = (server!.requests[1].body as { messages: Array<{ role: string; content: Array<{ text?: string }> }> }).messages.at(-1)!;
    assert.match(resume.content[0].text ?? '', /F001: verified with npm test/);

    const json = await run(script, ['--json', 'go on']);
    assert.equal(json.code, 0, json.stderr);
    const events = json.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; usage?: { output_tokens: number }; compaction?: { output_tokens: number } });
    const withCompaction = events.filter((e) => e.type === 'usage' && e.compaction);
    assert.equal(withCompaction.length, 1);
    assert.ok(withCompaction[0].compaction!.output_tokens > 0);
    assert.equal(withCompaction[0].usage!.output_tokens, withCompaction[0].compaction!.output_tokens, 'the pause sampled nothing after the summary');

    const low = await run([], ['--compaction-trigger', '1000', 'x']);
    assert.equal(low.code, 2);
    assert.match(low.stderr, /at least 50000/);
  });

  it('stops at --max-turns with a one-line reason', async () => {
    const view = { content: [{ type: 'tool_use' as const, input: { command: 'view', path: '/memories' } }] };
    const r = await run([view, view], ['--max-turns', '1', 'loop']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^\[memory\] viewed \/memories \(0 entries\)\nclaude-memory run: Stopped after 1 model turns/);
    assert.equal(server!.requests.length, 1);
  });

  it('exits 1 with a clear line when the answer is cut off at max_tokens, refused or empty', async () => {
    const cut = await run([{ content: [{ type: 'text', text: 'The first half' }], stop_reason: 'max_tokens' }], ['--max-tokens', '32', 'explain']);
    assert.equal(cut.code, 1);
    assert.equal(cut.stdout, 'The first half\n');
    assert.match(cut.stderr, /^claude-memory run: Claude's answer was cut off at max_tokens \(32 output tokens per response\)/);
    assert.equal(cut.stderr.split('\n').filter(Boolean).length, 1);

    const refused = await run([{ content: [{ type: 'text', text: 'I' }], stop_reason: 'refusal' }], ['something']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^claude-memory run: Claude declined to answer this request/);

    const empty = await run([{ content: [] }], ['hello']);
    assert.equal(empty.code, 1);
    assert.equal(empty.stdout, '');
    assert.match(empty.stderr, /^claude-memory run: Claude ended its turn without an answer/);
  });

  it('fails with one line and no request when ANTHROPIC_API_KEY is missing', async () => {
    const r = await run(createThenAnswer, ['hi'], { ANTHROPIC_API_KEY: undefined });
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'claude-memory run: ANTHROPIC_API_KEY is not set: export your Anthropic API key and run again.\n');
    assert.equal(server!.requests.length, 0);
  });

  it('fails with one line, no stack, on an auth error', async () => {
    const r = await run([{ ...createThenAnswer[0], faults: [{ type: 'status', status: 401, message: `invalid x-api-key ${KEY}` }] }], ['hi']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr.split('\n').filter(Boolean).length, 1);
    assert.match(r.stderr, /^claude-memory run: The Anthropic API rejected the API key \(401\)/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });

  it('says it gave up after the retries on a persistent 529', async () => {
    const r = await run([{ ...createThenAnswer[1], faults: [{ type: 'status', status: 529, times: Infinity }] }], ['hi']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^claude-memory run: The Anthropic API is overloaded \(529\) and the request was given up after 2 retries/);
    assert.equal(server!.requests.length, 3);
  });

  it('stops cleanly on Ctrl+C with exit code 130', async () => {
    const hanging: MockTurn = { content: [{ type: 'text', text: 'Thinking about it for a long while' }], faults: [{ type: 'hang', afterEvents: 3 }] };
    let interrupted = false;
    const r = await run([hanging], ['hi'], {}, (child) => {
      // Once: the newline printed after the stop is stdout too.
      if (!interrupted) child.kill('SIGINT');
      interrupted = true;
    });
    assert.equal(r.code, 130);
    assert.match(r.stderr, /^claude-memory run: Stopped: the request was cancelled/);
  });

  it('applies the checklist guards by default and not with --no-guards', async () => {
    const store = path.join(workspace, '.claude-memories');
    const deleteChecklist: MockTurn[] = [
      { content: [{ type: 'tool_use', input: { command: 'delete', path: '/memories/features.json' } }] },
      { content: [{ type: 'text', text: 'Done.' }] },
    ];
    for (const [args, kept] of [[[], true], [['--no-guards'], false]] as const) {
      fs.mkdirSync(store, { recursive: true });
      fs.writeFileSync(path.join(store, 'features.json'), '[]\n');
      const r = await run(deleteChecklist, [...args, 'Clean up']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(fs.existsSync(path.join(store, 'features.json')), kept, `${args.join(' ') || 'default'}: ${r.stderr}`);
      assert.match(r.stderr, kept ? /\[memory\] error: / : /\[memory\] deleted /);
      await server?.close();
      server = undefined;
    }
  });

  it('exits 2 with usage on a missing prompt', async () => {
    const r = await run(createThenAnswer, []);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /a PROMPT is required/);
    assert.match(r.stderr, /Usage: claude-memory run/);
  });
});
