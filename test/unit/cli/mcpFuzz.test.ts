// `claude-memory mcp` fed garbage on stdin: every bad message gets a JSON-RPC error response, the
// server keeps answering, stdout carries nothing but JSON-RPC, and the store is never touched.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { MCP_CLI, snapshot } from './mcpSupport';
import { bundleCli } from './support';

type Message = { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: { code: number; message: string } };

/** A raw line-level connection: write anything, wait for the answer to an id. */
class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly messages: Message[] = [];
  readonly rawLines: string[] = [];
  private waiters: (() => void)[] = [];
  private buffer = '';
  readonly exited: Promise<number | null>;

  constructor(workspace: string) {
    this.child = spawn(process.execPath, [MCP_CLI, 'mcp', '--workspace', workspace], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.resume();
    this.child.stdout.setEncoding('utf8').on('data', (d: string) => {
      this.buffer += d;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) !== -1) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        this.rawLines.push(line);
        this.messages.push(JSON.parse(line) as Message);
      }
      for (const w of this.waiters.splice(0)) w();
    });
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  send(line: string | Buffer): void {
    this.child.stdin.write(line);
    this.child.stdin.write('\n');
  }

  request(id: number, method: string, params?: unknown): void {
    this.send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
  }

  /** Waits (on stdout events, no sleeps) until `count` messages match. */
  async waitFor(what: string, match: (m: Message) => boolean, count = 1): Promise<Message[]> {
    for (;;) {
      const found = this.messages.filter(match);
      if (found.length >= count) return found;
      if (this.child.exitCode !== null) throw new Error(`server exited (${this.child.exitCode}) while waiting for ${what}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  answerTo(id: number): Promise<Message> {
    return this.waitFor(`the answer to ${id}`, (m) => m.id === id).then((m) => m[0]);
  }
}

const INIT = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } };

describe('claude-memory mcp (malformed and oversized input on stdin)', function () {
  this.timeout(120_000);
  let tmp: string;
  let store: string;
  let server: RawServer;

  before(() => bundleCli(MCP_CLI));
  beforeEach(async () => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-mcpfuzz-')));
    store = path.join(tmp, '.claude-memories');
    fs.mkdirSync(store);
    fs.writeFileSync(path.join(store, 'keep.md'), 'precious\n');
    server = new RawServer(tmp);
    server.request(1, 'initialize', INIT);
    await server.answerTo(1);
    server.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  });
  afterEach(() => {
    server.child.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('answers each malformed message with the right JSON-RPC error and keeps serving', async () => {
    const before = snapshot(store);
    const cases: [string, number | null, number][] = [
      ['{not json', null, -32700],
      ['\u0000\u0001garbage', null, -32700],
      ['[]', null, -32600],
      ['[{"jsonrpc":"2.0","id":90,"method":"tools/list"}]', null, -32600],
      ['"a string"', null, -32600],
      ['42', null, -32600],
      ['{"jsonrpc":"1.0","id":91,"method":"tools/list"}', 91, -32600],
      ['{"id":92,"method":"tools/list"}', 92, -32600],
      ['{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}', null, -32600],
      ['{"jsonrpc":"2.0","id":93,"method":7}', 93, -32600],
      ['{"jsonrpc":"2.0","id":94,"method":"no/such/method"}', 94, -32601],
      ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', null, -32600],
      ['{"jsonrpc":"2.0","id":87,"method":"ping","params":[1]}', 87, -32600],
      ['{"jsonrpc":"2.0","id":88,"method":"ping","extra":1}', 88, -32600],
      ['{"jsonrpc":"2.0","id":86,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}', 86, -32602],
      ['{"jsonrpc":"2.0","id":95,"method":"tools/call","params":{"name":"workspace_memory","arguments":"x"}}', 95, -32602],
      ['{"jsonrpc":"2.0","id":96,"method":"tools/call","params":{"name":42}}', 96, -32602],
      ['{"jsonrpc":"2.0","id":97,"method":"tools/call","params":{"name":"other"}}', 97, -32602],
      ['{"jsonrpc":"2.0","id":98,"method":"resources/read","params":{"uri":"memory:///memories/../keep.md"}}', 98, -32602],
      ['{"jsonrpc":"2.0","id":89,"method":"resources/read","params":{"uri":"memory:///memories/missing.md"}}', 89, -32002],
      ['{"jsonrpc":"2.0","id":99,"method":"resources/read","params":{}}', 99, -32602],
    ];
    let ping = 1000;
    for (const [line, id, code] of cases) {
      const seen = server.messages.length;
      server.send(line);
      server.request(++ping, 'ping');
      await server.answerTo(ping);
      // Requests run concurrently: one with an id may be answered after the ping.
      if (id !== null) await server.answerTo(id);
      const answers = server.messages.slice(seen).filter((m) => m.id !== ping);
      assert.equal(answers.length, 1, `one answer to ${line}: ${JSON.stringify(answers)}`);
      assert.equal(answers[0].id, id, line);
      assert.equal(answers[0].error?.code, code, `${line}: ${JSON.stringify(answers[0])}`);
      assert.ok(!/\n\s+at /.test(answers[0].error?.message ?? ''), 'no stack trace');
    }
    // Tool-level mistakes are tool results, not protocol errors.
    server.request(200, 'tools/call', { name: 'workspace_memory', arguments: { command: 'view', path: 12 } });
    const typed = await server.answerTo(200);
    assert.deepEqual(typed.result, { content: [{ type: 'text', text: 'Error: Parameter `path` of command `view` must be a string.' }], isError: true });
    assert.deepEqual(snapshot(store), before);
  });

  it('skips a message larger than the limit with an error, then answers the next one', async () => {
    const before = snapshot(store);
    const huge = JSON.stringify({
      jsonrpc: '2.0', id: 300, method: 'tools/call',
      params: { name: 'workspace_memory', arguments: { command: 'create', path: '/memories/huge.md', file_text: 'z'.repeat(17 * 1024 * 1024) } },
    });
    server.send(huge);
    const [tooLarge] = await server.waitFor('the too-large error', (m) => m.error?.code === -32600 && /too large/.test(m.error.message));
    assert.equal(tooLarge.id, null);
    server.request(301, 'tools/call', { name: 'workspace_memory', arguments: { command: 'view', path: '/memories/keep.md' } });
    const next = await server.answerTo(301);
    assert.match(JSON.stringify(next.result), /precious/);
    assert.deepEqual(snapshot(store), before);
    assert.equal(server.messages.some((m) => m.id === 300), false, 'the oversized request itself never ran');
  });

  it('survives hundreds of random lines (fast-check), with only JSON-RPC on stdout', async () => {
    const before = snapshot(store);
    const line = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.json({ maxDepth: 3 }),
      fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)), method: fc.constantFrom('tools/call', 'resources/read', 'resources/list', 'tools/list', 'initialize', 'x'), params: fc.jsonValue({ maxDepth: 3 }) }).map((r) => JSON.stringify(r)),
      fc.record({ jsonrpc: fc.constant('2.0'), id: fc.integer({ min: 5000, max: 9000 }), method: fc.constant('tools/call'), params: fc.record({ name: fc.constant('workspace_memory'), arguments: fc.record({ command: fc.constantFrom('view', 'create', 'delete', 'rename', 'insert', 'str_replace', 'nope'), path: fc.oneof(fc.string(), fc.integer(), fc.constantFrom('/memories/../x', '/memories/keep.md/..', '/etc/passwd')) }) }) }).map((r) => JSON.stringify(r)),
    );
    const lines = fc.sample(line, { numRuns: 400, seed: 20261130 }).map((l) => l.replace(/\n/g, ' '));
    for (const l of lines) server.send(l);
    server.request(400, 'ping');
    await server.answerTo(400);
    server.request(401, 'tools/call', { name: 'workspace_memory', arguments: { command: 'view', path: '/memories/keep.md' } });
    assert.match(JSON.stringify((await server.answerTo(401)).result), /precious/);
    for (const raw of server.rawLines) assert.equal((JSON.parse(raw) as Message).jsonrpc, '2.0', raw.slice(0, 200));
    assert.deepEqual(snapshot(store), before);
  });

  it('answers what it has read and exits 0 when stdin closes', async () => {
    server.request(500, 'tools/call', { name: 'workspace_memory', arguments: { command: 'view', path: '/memories' } });
    server.child.stdin.end();
    assert.equal(await server.exited, 0);
    assert.match(JSON.stringify(server.messages.find((m) => m.id === 500)?.result), /keep\.md/);
  });
});
