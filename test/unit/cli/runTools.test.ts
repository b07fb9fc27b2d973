/**
 * `claude-memory run` with the workspace tools, in process against the scripted API: a coding
 * session end to end, and what the flags allow and refuse.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { runCommand } from '../../../src/cli/run';
import { startMockMessagesApi, type MockMessagesApi, type MockStep } from '../../support/mockMessagesApi';

const KEY = 'sk-ant-api03-RUN-TOOLS-TEST-KEY-0a9s8d7f';

function toolResults(server: MockMessagesApi, request: number): Array<Record<string, unknown>> {
  const messages = server.requests[request].body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
  return messages[messages.length - 1].content.filter((b) => b.type === 'tool_result');
}

describe('claude-memory run with the text editor and bash', function () {
  this.timeout(30_000);
  let ws: string;
  let server: MockMessagesApi | undefined;

  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-run-tools-')));
    fs.mkdirSync(path.join(ws, 'src'));
    fs.writeFileSync(path.join(ws, 'src', 'add.js'), 'exports.add = (a, b) => a - b;\n');
    fs.writeFileSync(path.join(ws, 'test.js'), "const { add } = require('./src/add');\nif (add(2, 3) !== 5) { console.error('FAIL add'); process.exit(1); }\nconsole.log('ok 1 add');\n");
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(ws, { recursive: true, force: true });
  });

  async function run(script: MockStep[], flags: string[], signal?: AbortSignal): Promise<{ code: number; stdout: string; stderr: string }> {
    server = await startMockMessagesApi(script);
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (d: Buffer) => (out += d.toString()));
    stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await runCommand(['--workspace', ws, ...flags, 'fix the failing test'], {
      stdin: new PassThrough(),
      stdout,
      stderr,
      cwd: ws,
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url },
      signal: signal ?? new AbortController().signal,
    });
    return { code, stdout: out, stderr: err };
  }

  const editor = (id: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, id, name: 'str_replace_based_edit_tool', input });
  const bash = (id: string, command: string) => ({ type: 'tool_use' as const, id, name: 'bash', input: { command } });

  it('views a source file, fixes it with str_replace, runs the tests and records progress in memory', async () => {
    const result = await run(
      [
        { content: [editor('t1', { command: 'view', path: `${ws}/src/add.js` })] },
        { content: [editor('t2', { command: 'str_replace', path: 'src/add.js', old_str: 'a - b', new_str: 'a + b' })] },
        { content: [bash('t3', 'node test.js')] },
        { content: [{ type: 'tool_use', id: 't4', input: { command: 'create', path: '/memories/progress.md', file_text: '- fixed add(); node test.js passes\n' } }] },
        { content: [{ type: 'text', text: 'Fixed add and the test passes.' }] },
      ],
      ['--allow-edits', '--allow-command', 'node test.js'],
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(String(toolResults(server!, 1)[0].content), /^Here's the result of running `cat -n` on .*\/src\/add\.js:\n {5}1\texports\.add = \(a, b\) => a - b;/);
    assert.equal(fs.readFileSync(path.join(ws, 'src', 'add.js'), 'utf8'), 'exports.add = (a, b) => a + b;\n');
    assert.deepEqual([toolResults(server!, 3)[0].content, toolResults(server!, 3)[0].is_error], ['ok 1 add', false]);
    assert.equal(fs.readFileSync(path.join(ws, '.claude-memories', 'progress.md'), 'utf8'), '- fixed add(); node test.js passes\n');
    assert.match(result.stderr, /\[editor\] viewed .*\n\[editor\] edited src\/add\.js\n\[bash\] ran node test\.js \(exit 0\)\n\[memory\] created \/memories\/progress\.md/);
    const request = server!.requests[0].body;
    assert.deepEqual((request.tools as Array<{ name: string }>).map((t) => t.name), ['memory', 'str_replace_based_edit_tool', 'bash']);
    assert.match(String((request.system as Array<{ text: string }>)[0].text), new RegExp(`at ${ws.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('without flags: reads work, a write or a command answers with the flag that would allow it', async () => {
    const result = await run(
      [
        { content: [editor('t1', { command: 'view', path: 'src/add.js' }), editor('t2', { command: 'insert', path: 'src/add.js', insert_line: 0, new_str: '// x' }), bash('t3', 'node test.js && ls')] },
        { content: [{ type: 'text', text: 'I may not.' }] },
      ],
      [],
    );
    assert.equal(result.code, 0);
    const [view, insert, command] = toolResults(server!, 1);
    assert.equal(view.is_error, false);
    assert.match(String(insert.content), /--allow-edits/);
    assert.match(String(command.content), /--allow-command "node test.js" \(or --allow-command '\*'/);
    assert.equal(fs.readFileSync(path.join(ws, 'src', 'add.js'), 'utf8'), 'exports.add = (a, b) => a - b;\n');
  });

  it('keeps a 10 MB output to its head and tail', async () => {
    // The default timeout: writing 10 MB can take over a second on a loaded machine.
    const result = await run([{ content: [bash('t1', "head -c 10000000 /dev/zero | tr '\\0' x")] }, { content: [{ type: 'text', text: 'done' }] }], ['--allow-command', '*']);
    assert.equal(result.code, 0, result.stderr);
    const big = String(toolResults(server!, 1)[0].content);
    assert.ok(big.length < 31_000, `${big.length} characters`);
    assert.match(big, /characters of output cut here; 10,000,000 in all/);
  });

  it('stops a command that never ends at --command-timeout', async () => {
    const result = await run(
      [{ content: [bash('t2', 'while true; do sleep 1; done')] }, { content: [{ type: 'text', text: 'done' }] }],
      ['--allow-command', '*', '--command-timeout', '1'],
    );
    assert.equal(result.code, 0, result.stderr);
    const endless = toolResults(server!, 1)[0];
    assert.equal(endless.is_error, true);
    assert.match(String(endless.content), /stopped after 1 s, the per-command timeout/);
  });

  it('refuses hostile editor paths even with --allow-edits', async () => {
    fs.mkdirSync(path.join(ws, '.git'));
    fs.writeFileSync(path.join(ws, '.git', 'config'), '[core]\n');
    const result = await run(
      [
        {
          content: [
            editor('t1', { command: 'create', path: '../escape.txt', file_text: 'x' }),
            editor('t2', { command: 'create', path: '.git/hooks/pre-commit', file_text: 'x' }),
            editor('t3', { command: 'create', path: '/memories/progress.md', file_text: 'x' }),
            editor('t4', { command: 'view', path: '/etc/passwd' }),
          ],
        },
        { content: [{ type: 'text', text: 'ok' }] },
      ],
      ['--allow-edits'],
    );
    assert.equal(result.code, 0);
    const results = toolResults(server!, 1);
    assert.ok(results.every((r) => r.is_error === true));
    assert.match(String(results[2].content), /use the memory tool for \/memories/);
    assert.equal(fs.existsSync(path.join(path.dirname(ws), 'escape.txt')), false);
    assert.equal(fs.existsSync(path.join(ws, '.git', 'hooks')), false);
  });

  it('Ctrl+C during a command ends the run and leaves none of its processes behind (setsid and nohup included)', async () => {
    const controller = new AbortController();
    const marker = path.join(ws, 'started');
    const running = run(
      [{ content: [bash('t1', `sleep 300 & setsid sleep 302 & (nohup sleep 303 >/dev/null 2>&1 &); touch ${marker}; sleep 301`)] }, { content: [{ type: 'text', text: 'never' }] }],
      ['--allow-command', '*'],
      controller.signal,
    );
    // Wait for the command to be running (its marker file), polling the disk, not sleeping blindly.
    while (!fs.existsSync(marker)) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const result = await running;
    assert.equal(result.code, 130);
    let left = '';
    for (let i = 0; i < 100; i++) {
      left = execFileSync('ps', ['-eo', 'args']).toString().split('\n').filter((l) => /^sleep 30[0-3]$/.test(l.trim())).join('\n');
      if (left === '') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(left, '', 'the sleeps were killed with the shell');
  });
});
