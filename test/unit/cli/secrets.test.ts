// Secrets never reach disk through any writer: the bundled CLI's exec, MCP (tool and resources),
// run (memory, --json and stderr), and the user's hand edits as history keeps them.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SHARED_TOOL_NAME } from '../../../src/core/memory/sharedTool';
import { createNodeMemoryEngine } from '../../../src/platform/node/nodeMemoryEngine';
import { startMockMessagesApi, type MockMessagesApi } from '../../support/mockMessagesApi';
import { BENIGN_STRINGS, SECRET_FORMATS, allSecretsNote } from '../../support/secretFormats';
import { connectMcp, MCP_CLI, type Connected } from './mcpSupport';
import { bundleCli } from './support';

/** Every file under `dir` (the store with its private .meta: history blobs and entries), as text. */
function allFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const p = path.join(entry.parentPath, entry.name);
    out.set(path.relative(dir, p), fs.readFileSync(p, 'utf8'));
  }
  return out;
}

function assertNoSecret(files: Map<string, string>, where: string): void {
  for (const format of SECRET_FORMATS) {
    for (const [name, text] of files) assert.ok(!text.includes(format.secret), `${format.name} reached ${where}: ${name}`);
  }
}

function execLines(workspace: string, inputs: unknown[]): Promise<{ is_error: boolean; content: string }[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MCP_CLI, 'exec', '--workspace', workspace], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', () => resolve(out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { is_error: boolean; content: string })));
    child.stdin.end(inputs.map((i) => JSON.stringify(i)).join('\n') + '\n');
  });
}

describe('secrets never reach disk (bundled CLI, real temp-dir stores)', function () {
  this.timeout(60_000);
  let tmp: string;
  let ws: string;
  let store: string;
  let server: Connected | undefined;
  let api: MockMessagesApi | undefined;

  before(() => bundleCli(MCP_CLI));
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-secrets-')));
    ws = path.join(tmp, 'ws');
    fs.mkdirSync(ws);
    store = path.join(ws, '.claude-memories');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await api?.close();
    api = undefined;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it(`exec: each of ${SECRET_FORMATS.length} formats, one file each on its own line, is redacted in memory and in history`, async () => {
    const inputs = SECRET_FORMATS.map((f, i) => ({ command: 'create', path: `/memories/s${i}.md`, file_text: `# ${f.name}\n${f.line}\n` }));
    const results = await execLines(ws, inputs);
    assert.equal(results.length, SECRET_FORMATS.length);
    SECRET_FORMATS.forEach((f, i) => {
      assert.equal(results[i].is_error, false, results[i].content);
      assert.match(results[i].content, new RegExp(`\\(1 ${f.kind}\\)`), f.name);
      const disk = fs.readFileSync(path.join(store, `s${i}.md`), 'utf8');
      assert.equal(disk, `# ${f.name}\n${f.line.replace(f.secret, `[REDACTED:${f.kind}]`)}\n`);
    });
    const files = allFiles(store);
    assert.ok([...files.keys()].some((k) => k.startsWith(path.join('.meta', 'history'))), 'history was written');
    assertNoSecret(files, 'the store');
  });

  it('exec: benign random-looking strings are written as they are, with no redaction note', async () => {
    const text = BENIGN_STRINGS.map((b) => b.text).join('\n') + '\n';
    const [result] = await execLines(ws, [{ command: 'create', path: '/memories/benign.md', file_text: text }]);
    assert.equal(result.content, 'File created successfully at: /memories/benign.md');
    assert.equal(fs.readFileSync(path.join(store, 'benign.md'), 'utf8'), text);
  });

  it('hand edits: the file keeps what the user typed, history keeps it redacted; Undo restores the redacted copy', async () => {
    const { engine } = createNodeMemoryEngine(store);
    await engine.ensureRoot();
    const note = allSecretsNote();
    assert.equal(await engine.update('notes.md', () => note), true);
    assert.equal(fs.readFileSync(path.join(store, 'notes.md'), 'utf8'), note, 'the user’s own file is theirs');
    const history = new Map([...allFiles(store)].filter(([k]) => k.startsWith('.meta')));
    assertNoSecret(history, 'history');
    const [entry] = await engine.history();
    assert.equal(entry.redacted, true);
    const copy = new TextDecoder().decode(await engine.versionContent(entry.version));
    assert.ok(copy.includes('[REDACTED:gitlab-token]'));
  });

  it('MCP: a tool write is redacted on disk and in history; resources are served redacted (and as they are with --no-redact)', async () => {
    server = await connectMcp(ws);
    const secret = SECRET_FORMATS[2];
    const result = (await server.client.callTool({ name: SHARED_TOOL_NAME, arguments: { command: 'create', path: '/memories/mcp.md', file_text: `${secret.line}\n` } })) as CallToolResult;
    assert.notEqual(result.isError, true, JSON.stringify(result));
    fs.writeFileSync(path.join(store, 'hand.md'), allSecretsNote());
    const read = await server.client.readResource({ uri: 'memory:///memories/hand.md' });
    const text = (read.contents[0] as { text: string }).text;
    for (const f of SECRET_FORMATS) assert.ok(!text.includes(f.secret), `${f.name} served as a resource`);
    assert.ok(text.includes(`[REDACTED:${secret.kind}]`));
    const written = allFiles(store);
    written.delete('hand.md');
    assertNoSecret(written, 'the store');
    await server.close();
    server = await connectMcp(ws, ['--no-redact']);
    const raw = await server.client.readResource({ uri: 'memory:///memories/hand.md' });
    assert.equal((raw.contents[0] as { text: string }).text, allSecretsNote());
  });

  it('run: memory, --json output and stderr carry no planted secret, even split across text deltas', async () => {
    const [a, b, c] = [SECRET_FORMATS[0], SECRET_FORMATS[6], SECRET_FORMATS[16]];
    const script = [
      { content: [{ type: 'text' as const, text: `Found ${a.line} in .env.` }, { type: 'tool_use' as const, input: { command: 'create', path: '/memories/env.md', file_text: `${b.line}\n` } }] },
      { content: [{ type: 'text' as const, text: `Saved; the key ${c.line} is noted.` }] },
    ];
    for (const json of [true, false]) {
      await api?.close();
      api = await startMockMessagesApi(script, { chunks: 5 });
      // CLAUDE_MEMORY_DEBUG: the SDK's log lines go to stderr too.
      const env = { PATH: process.env.PATH ?? '', HOME: tmp, ANTHROPIC_API_KEY: 'test-key-for-the-mock', ANTHROPIC_BASE_URL: api.url, CLAUDE_MEMORY_DEBUG: '1' };
      const args = [MCP_CLI, 'run', '--workspace', ws, ...(json ? ['--json'] : []), 'remember the env'];
      const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(code, 0, stderr);
      for (const f of [a, b, c]) assert.ok(!stderr.includes(f.secret), `stderr holds the ${f.name}`);
      if (json) {
        for (const f of [a, b, c]) assert.ok(!stdout.includes(f.secret), `--json holds the ${f.name}`);
        const events = stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; text?: string });
        assert.ok(events.some((e) => e.type === 'text' && e.text === `Found [REDACTED:${a.kind}] in .env.`), stdout);
      }
      assertNoSecret(allFiles(store), 'the store');
      assert.equal(fs.readFileSync(path.join(store, 'env.md'), 'utf8'), `[REDACTED:${b.kind}]\n`);
      fs.rmSync(store, { recursive: true, force: true });
    }
  });
});
