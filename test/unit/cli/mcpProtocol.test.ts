// The MCP server's own JSON-RPC layer (src/cli/mcp/jsonRpc.ts, mcpSession.ts) against the MCP SDK
// it stands in for at run time: the same constants, the same verdict on any message, the same
// lifecycle answers. The process tests (mcp.test.ts, mcpFuzz.test.ts) drive it with the SDK's Client.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import * as fc from 'fast-check';
import { ErrorCode, JSONRPCMessageSchema, LATEST_PROTOCOL_VERSION as SDK_LATEST, SUPPORTED_PROTOCOL_VERSIONS as SDK_SUPPORTED } from '@modelcontextprotocol/sdk/types.js';
import { classify, LATEST_PROTOCOL_VERSION, RPC_ERROR, RpcError, SUPPORTED_PROTOCOL_VERSIONS } from '../../../src/cli/mcp/jsonRpc';
import { LineTransport } from '../../../src/cli/mcp/lineTransport';
import { McpSession } from '../../../src/cli/mcp/mcpSession';
import { bundleCli } from './support';

type Answer = { id?: unknown; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { code: number; message: string } };

/** A session on in-memory pipes: write lines in, read answers out (waiting on data events). */
function pipeSession(setup: (session: McpSession) => void, onerror: (e: unknown) => void = () => undefined) {
  const input = new PassThrough();
  const output = new PassThrough();
  const answers: Answer[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  output.setEncoding('utf8').on('data', (d: string) => {
    buffer += d;
    for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
      answers.push(JSON.parse(buffer.slice(0, nl)) as Answer);
      buffer = buffer.slice(nl + 1);
    }
    for (const w of waiters.splice(0)) w();
  });
  const session = new McpSession({ serverInfo: { name: 'test-server', version: '9.9.9' }, capabilities: { tools: {} }, instructions: 'Use it.', onerror });
  setup(session);
  void session.connect(new LineTransport(input, output));
  const send = (message: object) => input.write(`${JSON.stringify(message)}\n`);
  const answerTo = async (id: unknown): Promise<Answer> => {
    for (;;) {
      const found = answers.find((a) => a.id === id);
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { session, send, answers, answerTo, input };
}

const initialize = (protocolVersion: string) => ({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'probe', version: '2' } } });

describe('mcp JSON-RPC layer (against the MCP SDK)', () => {
  it('speaks the protocol revisions and error codes of the installed SDK', () => {
    assert.deepEqual([...SUPPORTED_PROTOCOL_VERSIONS], [...SDK_SUPPORTED]);
    assert.equal(LATEST_PROTOCOL_VERSION, SDK_LATEST);
    for (const [name, code] of Object.entries(RPC_ERROR)) {
      if (name === 'ResourceNotFound') continue; // Not in the SDK's enum; the MCP spec's -32002.
      assert.equal(code, ErrorCode[name as keyof typeof ErrorCode], name);
    }
  });

  it('takes a message as valid exactly when the SDK’s JSONRPCMessageSchema does (fast-check)', () => {
    // Well-formed messages of the four kinds, then some of them broken in one place.
    const id = fc.oneof(fc.integer(), fc.string({ maxLength: 4 }));
    const object = fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
    const method = fc.constantFrom('ping', 'tools/call', 'notifications/initialized');
    const wellFormed = fc.oneof(
      fc.record({ jsonrpc: fc.constant('2.0'), id, method, params: object }, { requiredKeys: ['jsonrpc', 'id', 'method'] }),
      fc.record({ jsonrpc: fc.constant('2.0'), method, params: object }, { requiredKeys: ['jsonrpc', 'method'] }),
      fc.record({ jsonrpc: fc.constant('2.0'), id, result: object }),
      fc.record({ jsonrpc: fc.constant('2.0'), id, error: fc.record({ code: fc.integer(), message: fc.string({ maxLength: 8 }), data: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: ['code', 'message'] }) }, { requiredKeys: ['jsonrpc', 'error'] }),
    );
    const odd = fc.oneof(fc.constant(null), fc.constant(undefined), fc.double(), fc.constant(2 ** 60), fc.constant(1.5), fc.constant('1.0'), fc.integer(), fc.string({ maxLength: 3 }), fc.array(fc.integer(), { maxLength: 2 }), object);
    const key = fc.constantFrom('jsonrpc', 'id', 'method', 'params', 'result', 'error', 'extra');
    const broken = fc.tuple(wellFormed, key, odd).map(([m, k, v]) => ({ ...m, [k]: v }));
    const removed = fc.tuple(wellFormed, key).map(([m, k]) => Object.fromEntries(Object.entries(m).filter(([name]) => name !== k)));
    const brokenError = fc.tuple(id, fc.record({ code: odd, message: odd }, { requiredKeys: [] })).map(([i, error]) => ({ jsonrpc: '2.0', id: i, error }));
    const value = fc.oneof(wellFormed, broken, removed, brokenError, fc.jsonValue({ maxDepth: 2 }));
    const verdicts = { valid: 0, invalid: 0 };
    fc.assert(
      fc.property(value, (v) => {
        const ours = classify(v).kind !== 'invalid';
        const sdk = JSONRPCMessageSchema.safeParse(v).success;
        assert.equal(ours, sdk, JSON.stringify(v));
        verdicts[sdk ? 'valid' : 'invalid']++;
      }),
      { numRuns: 5000, seed: 20261202 },
    );
    // Both verdicts were really tried, often.
    assert.ok(verdicts.valid > 1000 && verdicts.invalid > 1000, JSON.stringify(verdicts));
  });

  it('negotiates the version as the SDK’s Server does, and answers ping and unknown methods', async () => {
    const s = pipeSession(() => undefined);
    s.send(initialize('2025-06-18'));
    const init = await s.answerTo('init');
    assert.deepEqual(init.result, { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'test-server', version: '9.9.9' }, instructions: 'Use it.' });
    assert.deepEqual(s.session.clientInfo(), { name: 'probe', version: '2' });
    s.send({ ...initialize('1999-01-01'), id: 'old' });
    assert.equal((await s.answerTo('old')).result?.protocolVersion, SDK_LATEST);
    s.send({ jsonrpc: '2.0', id: 7, method: 'ping' });
    assert.deepEqual((await s.answerTo(7)).result, {});
    s.send({ jsonrpc: '2.0', id: 8, method: 'prompts/list' });
    assert.deepEqual((await s.answerTo(8)).error, { code: -32601, message: 'Method not found' });
  });

  it('tells of `initialized`, drops the answer to a cancelled request, and never sends an internal error’s text', async () => {
    const errors: unknown[] = [];
    let initialized = 0;
    let release!: () => void;
    let aborted: AbortSignal | undefined;
    const s = pipeSession((session) => {
      session.oninitialized = () => initialized++;
      session.handle('slow', (_p, signal) => {
        aborted = signal;
        return new Promise((resolve) => (release = () => resolve({ late: true })));
      });
      session.handle('broken', () => {
        throw new Error('ENOENT: /home/someone/secret/path');
      });
      session.handle('refused', () => {
        throw new RpcError(RPC_ERROR.InvalidParams, 'Invalid params: no.');
      });
    }, (e) => errors.push(e));
    s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    s.send({ jsonrpc: '2.0', id: 1, method: 'slow' });
    s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'user' } });
    s.send({ jsonrpc: '2.0', id: 2, method: 'broken' });
    const broken = await s.answerTo(2);
    assert.equal(initialized, 1);
    assert.equal(aborted?.aborted, true);
    release();
    s.send({ jsonrpc: '2.0', id: 3, method: 'refused' });
    assert.deepEqual((await s.answerTo(3)).error, { code: -32602, message: 'Invalid params: no.' });
    assert.equal(s.answers.some((a) => a.id === 1), false, 'a cancelled request gets no answer');
    assert.deepEqual(broken.error, { code: -32603, message: 'Internal error' });
    assert.equal(errors.length, 1, 'the internal error went to the log');
    s.send({ jsonrpc: '2.0', id: 4, method: 'initialize', params: { protocolVersion: '2025-06-18' } });
    assert.equal((await s.answerTo(4)).error?.code, -32602);
    // stdin's end closes the session once every request is settled; the cancelled one counts as settled.
    const closed = new Promise<void>((resolve) => (s.session.onclose = resolve));
    s.input.end();
    await closed;
  });

  it('builds a `mcp` bundle without the MCP SDK’s runtime (no zod, no AJV)', async function () {
    this.timeout(120_000);
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-mcpbundle-')), 'cli.js');
    try {
      await bundleCli(out);
      const code = fs.readFileSync(path.join(path.dirname(out), 'cli-mcp.js'), 'utf8');
      assert.doesNotMatch(code, /node_modules\/(zod|ajv|@modelcontextprotocol)\//);
      // The control: the string this check looks for is how esbuild names a bundled package.
      assert.match(fs.readFileSync(path.join(path.dirname(out), 'cli-run.js'), 'utf8'), /node_modules\/@anthropic-ai\/sdk\//);
    } finally {
      fs.rmSync(path.dirname(out), { recursive: true, force: true });
    }
  });
});
