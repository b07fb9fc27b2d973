// `claude-memory mcp` as an MCP client sees it: the SDK's own Client spawning the bundled CLI.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  McpError,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { createNodeMemoryEngine } from '../../../src/platform/node/nodeMemoryEngine';
import { SHARED_TOOL_DESCRIPTION, SHARED_TOOL_INPUT_SCHEMA, SHARED_TOOL_NAME } from '../../../src/core/memory/sharedTool';
import { connectMcp, MCP_CLI, snapshot, type Connected } from './mcpSupport';
import { bundleCli, REPO } from './support';

const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { name: string; version: string };

/** The one text block of a tool result. */
function textOf(result: CallToolResult): string {
  assert.equal(result.content.length, 1, JSON.stringify(result.content));
  const block = result.content[0];
  assert.equal(block.type, 'text');
  return (block as { text: string }).text;
}

async function call(c: Connected, args: unknown): Promise<CallToolResult> {
  return (await c.client.callTool({ name: SHARED_TOOL_NAME, arguments: args as Record<string, unknown> })) as CallToolResult;
}

/** Runs JSON Lines through `claude-memory exec` in `workspace`: the reference the MCP answers must equal. */
function execLines(workspace: string, inputs: unknown[], extra: string[] = []): Promise<{ is_error: boolean; content: string }[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MCP_CLI, 'exec', '--workspace', workspace, ...extra], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', () => resolve(out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { is_error: boolean; content: string })));
    child.stdin.end(inputs.map((i) => JSON.stringify(i)).join('\n') + '\n');
  });
}

/** Resolves on the first notification `schema` the client receives that matches `accept`. */
function nextNotification<T extends { method: string; params?: unknown }>(
  c: Connected,
  schema: typeof ResourceListChangedNotificationSchema | typeof ResourceUpdatedNotificationSchema,
  accept: (n: T) => boolean = () => true,
): Promise<T> {
  return new Promise((resolve) => {
    c.client.setNotificationHandler(schema, (n) => {
      if (accept(n as T)) resolve(n as T);
    });
  });
}

describe('claude-memory mcp (MCP client over stdio)', function () {
  this.timeout(60_000);
  let tmp: string;
  let ws: string;
  let store: string;
  let server: Connected | undefined;

  before(() => bundleCli(MCP_CLI));
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-mcp-')));
    ws = path.join(tmp, 'ws');
    fs.mkdirSync(ws);
    store = path.join(ws, '.claude-memories');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('initializes with the name and version of package.json and offers one tool with the memory schema', async () => {
    server = await connectMcp(ws);
    assert.deepEqual(server.client.getServerVersion(), { name: pkg.name, version: pkg.version });
    const caps = server.client.getServerCapabilities();
    assert.ok(caps?.tools, 'tools capability');
    assert.deepEqual(caps?.resources, { subscribe: true, listChanged: true });
    assert.match(server.client.getInstructions() ?? '', /ALWAYS `view` `\/memories`/);
    const { tools } = await server.client.listTools();
    assert.deepEqual(tools.map((t) => t.name), [SHARED_TOOL_NAME]);
    assert.notEqual(SHARED_TOOL_NAME, 'memory', 'must not clash with Copilot’s memory tool');
    assert.equal(tools[0].description, SHARED_TOOL_DESCRIPTION);
    assert.deepEqual(tools[0].inputSchema, JSON.parse(JSON.stringify(SHARED_TOOL_INPUT_SCHEMA)));
    assert.ok(fs.statSync(store).isDirectory(), 'the store exists before the first call');
  });

  it('answers every command with exactly the strings `exec` gives for the same calls', async () => {
    const calls = [
      { command: 'view', path: '/memories' },
      { command: 'create', path: '/memories/notes/todo.md', file_text: 'alpha\nbeta\ngamma\n' },
      { command: 'view', path: '/memories/notes/todo.md' },
      { command: 'view', path: '/memories/notes/todo.md', view_range: [2, -1] },
      { command: 'str_replace', path: '/memories/notes/todo.md', old_str: 'beta', new_str: 'BETA' },
      { command: 'insert', path: '/memories/notes/todo.md', insert_line: 0, insert_text: 'first' },
      { command: 'rename', old_path: '/memories/notes/todo.md', new_path: '/memories/done.md' },
      { command: 'view', path: '/memories' },
      { command: 'create', path: '/memories/done.md', file_text: 'again' },
      { command: 'str_replace', path: '/memories/done.md', old_str: 'missing', new_str: 'x' },
      { command: 'view', path: '/memories/../outside' },
      { command: 'insert', path: '/memories/done.md', insert_line: 'one', insert_text: 'x' },
      { command: 'launch', path: '/memories' },
      { path: '/memories' },
      { command: 'delete', path: '/memories/done.md' },
      { command: 'delete', path: '/memories' },
      { command: 'view', path: '/memories/done.md' },
    ];
    const referenceWs = path.join(tmp, 'reference');
    fs.mkdirSync(referenceWs);
    const expected = await execLines(referenceWs, calls);
    assert.equal(expected.length, calls.length);

    server = await connectMcp(ws);
    for (const [i, args] of calls.entries()) {
      const result = await call(server, args);
      assert.equal(textOf(result), expected[i].content, `call ${i}: ${JSON.stringify(args)}`);
      assert.equal(result.isError === true, expected[i].is_error, `isError of call ${i}: ${JSON.stringify(args)}`);
    }
    assert.deepEqual(snapshot(store), snapshot(path.join(referenceWs, '.claude-memories')));
  });

  it('keeps exec’s guards: size cap, redaction, traversal; a huge argument is an error result and the store stays as it was', async () => {
    server = await connectMcp(ws, ['--max-file-bytes', '2048']);
    const before = snapshot(store);
    const big = await call(server, { command: 'create', path: '/memories/big.md', file_text: 'x'.repeat(4096) });
    assert.equal(big.isError, true);
    assert.match(textOf(big), /^Error: .*2\.0K/);
    const huge = await call(server, { command: 'create', path: '/memories/huge.md', file_text: 'y'.repeat(12 * 1024 * 1024) });
    assert.equal(huge.isError, true);
    assert.match(textOf(huge), /^Error: /);
    const escape = await call(server, { command: 'create', path: '/memories/../../escape.md', file_text: 'x' });
    assert.equal(escape.isError, true);
    assert.deepEqual(snapshot(store), before, 'nothing written');
    assert.equal(fs.existsSync(path.join(tmp, 'escape.md')), false);

    const secret = ['gh', 'p_', 'A1'.repeat(18)].join('');
    const saved = await call(server, { command: 'create', path: '/memories/creds.md', file_text: `token ${secret}\n` });
    assert.equal(saved.isError, undefined, textOf(saved));
    assert.equal(fs.readFileSync(path.join(store, 'creds.md'), 'utf8'), 'token [REDACTED:github-token]\n');
  });

  it('answers an unknown tool with a protocol error and keeps serving', async () => {
    server = await connectMcp(ws);
    await assert.rejects(
      server.client.callTool({ name: 'memory', arguments: { command: 'view', path: '/memories' } }),
      (e: unknown) => e instanceof McpError && e.code === -32602 && /Unknown tool: memory/.test(e.message),
    );
    assert.match(textOf(await call(server, { command: 'view', path: '/memories' })), /^Here're the files/);
  });

  it('lists the store’s files as resources and reads them as they are on disk', async () => {
    fs.mkdirSync(path.join(store, 'notes', 'node_modules'), { recursive: true });
    fs.writeFileSync(path.join(store, 'notes', 'a b.md'), '# spaced\n');
    fs.writeFileSync(path.join(store, 'progress.md'), 'line 1\nline 2\n');
    fs.writeFileSync(path.join(store, '.hidden.md'), 'no');
    fs.writeFileSync(path.join(store, 'notes', 'node_modules', 'x.md'), 'no');
    server = await connectMcp(ws);
    const { resources } = await server.client.listResources();
    assert.deepEqual(
      resources.map((r) => [r.uri, r.name, r.mimeType, r.size]),
      [
        ['memory:///memories/notes/a%20b.md', '/memories/notes/a b.md', 'text/markdown', 9],
        ['memory:///memories/progress.md', '/memories/progress.md', 'text/markdown', 14],
      ],
    );
    const read = await server.client.readResource({ uri: 'memory:///memories/notes/a%20b.md' });
    assert.deepEqual(read.contents, [{ uri: 'memory:///memories/notes/a%20b.md', mimeType: 'text/markdown', text: '# spaced\n' }]);
    await assert.rejects(server.client.readResource({ uri: 'memory:///memories/nope.md' }), (e: unknown) => e instanceof McpError && e.code === -32002 && /does not exist/.test(e.message));
    await assert.rejects(server.client.readResource({ uri: 'memory:///memories/../../etc/passwd' }), McpError);
    await assert.rejects(server.client.readResource({ uri: 'file:///etc/passwd' }), (e: unknown) => e instanceof McpError && e.code === -32602);
  });

  it('records its writes by mcp:<the client’s name from initialize>', async () => {
    server = await connectMcp(ws);
    assert.equal(textOf(await call(server, { command: 'create', path: '/memories/a.md', file_text: 'x' })), 'File created successfully at: /memories/a.md');
    await call(server, { command: 'str_replace', path: '/memories/a.md', old_str: 'x', new_str: 'y' });
    const { engine } = createNodeMemoryEngine(store);
    assert.deepEqual(
      (await engine.history()).map((e) => [e.op, e.author]),
      [
        ['create', { name: 'mcp:mcp-test' }],
        ['str_replace', { name: 'mcp:mcp-test' }],
      ],
    );
  });

  it('never shows the store’s private .meta folder (history, reads, pins), neither as resources nor through the tool', async () => {
    server = await connectMcp(ws);
    await call(server, { command: 'create', path: '/memories/a.md', file_text: 'x' });
    await call(server, { command: 'view', path: '/memories/a.md' });
    await createNodeMemoryEngine(store).engine.setPinned('a.md', true);
    for (const rel of ['.meta/history/journal-000001', '.meta/usage.log', '.meta/pins.json']) assert.ok(fs.existsSync(path.join(store, rel)), rel);
    const { resources } = await server.client.listResources();
    assert.deepEqual(resources.map((r) => r.uri), ['memory:///memories/a.md']);
    for (const rel of ['.meta/history/journal-000001', '.meta/usage.log', '.meta/usage.json', '.meta/pins.json', '.META/pins.json', 'x/../.meta/pins.json']) {
      await assert.rejects(server.client.readResource({ uri: `memory:///memories/${rel}` }), McpError, rel);
      const viewed = await call(server, { command: 'view', path: `/memories/${rel}` });
      assert.equal(viewed.isError, true, rel);
    }
    const root = textOf(await call(server, { command: 'view', path: '/memories' }));
    assert.ok(!root.includes('.meta'), root);
    const head = fs.readFileSync(path.join(store, '.meta/history/journal-000001'));
    const written = await call(server, { command: 'create', path: '/memories/.meta/history/head', file_text: '{}' });
    assert.equal(written.isError, true);
    assert.deepEqual(fs.readFileSync(path.join(store, '.meta/history/journal-000001')), head);
  });

  it('tells the client when the store changes, whoever changed it', async () => {
    server = await connectMcp(ws);
    const uri = 'memory:///memories/watched.md';
    await call(server, { command: 'create', path: '/memories/watched.md', file_text: 'v1' });
    await server.client.subscribeResource({ uri });
    const updated = nextNotification<{ method: string; params: { uri: string } }>(server, ResourceUpdatedNotificationSchema, (n) => n.params.uri === uri);
    const listChanged = nextNotification(server, ResourceListChangedNotificationSchema);
    // Another writer (an editor, git, another agent) changes the file behind the server's back.
    fs.writeFileSync(path.join(store, 'watched.md'), 'v2 by hand');
    await Promise.all([updated, listChanged]);
    const read = await server.client.readResource({ uri });
    assert.equal((read.contents[0] as { text: string }).text, 'v2 by hand');
  });

  // The cross-process store lock makes the two processes' read-modify-write cycles take turns.
  it('loses no line when another process writes the same file at the same time', async () => {
    server = await connectMcp(ws);
    await call(server, { command: 'create', path: '/memories/log.md', file_text: '' });
    const n = 40;
    const fromExec = execLines(ws, Array.from({ length: n }, (_, i) => ({ command: 'insert', path: '/memories/log.md', insert_line: 0, insert_text: `exec ${i}` })));
    const fromMcp = (async () => {
      for (let i = 0; i < n; i++) {
        const r = await call(server!, { command: 'insert', path: '/memories/log.md', insert_line: 0, insert_text: `mcp ${i}` });
        assert.equal(r.isError, undefined, textOf(r));
      }
    })();
    const [execResults] = await Promise.all([fromExec, fromMcp]);
    assert.ok(execResults.every((r) => !r.is_error), JSON.stringify(execResults.filter((r) => r.is_error)));
    const lines = fs.readFileSync(path.join(store, 'log.md'), 'utf8').split('\n').filter(Boolean).sort();
    const want = [...Array.from({ length: n }, (_, i) => `exec ${i}`), ...Array.from({ length: n }, (_, i) => `mcp ${i}`)].sort();
    assert.deepEqual(lines, want);
  });
});
