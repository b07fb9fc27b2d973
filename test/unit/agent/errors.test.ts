import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentEvent } from '../../../src/core/agent/events';
import { startMockMessagesApi, type MockMessagesApi } from '../../support/mockMessagesApi';
import { recorder, sessionFor, tempStore, TEST_KEY, type TempStore } from './helpers';

const answer = { content: [{ type: 'text' as const, text: 'Hello.' }] };
const toolTurn = (id: string) => ({ content: [{ type: 'tool_use' as const, id, input: { command: 'create', path: `/memories/${id}.md`, file_text: id } }] });

describe('agent loop: API errors, retries and the API key', () => {
  let store: TempStore;
  let server: MockMessagesApi | undefined;
  const logs: string[] = [];
  const logger = { debug: (m: string) => logs.push(m), info: (m: string) => logs.push(m), warn: (m: string) => logs.push(m), error: (m: string) => logs.push(m) };
  beforeEach(async () => {
    store = await tempStore();
    logs.length = 0;
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    store.cleanup();
  });

  async function failing(status: number, message: string, times = 1, extra: Record<string, unknown> = {}) {
    server = await startMockMessagesApi([{ ...answer, faults: [{ type: 'status', status, message, times }] }]);
    const rec = recorder();
    const session = sessionFor(server, store.engine, { logger, ...extra });
    const outcome = await session.send('hi', rec.listener);
    return { rec, outcome, session };
  }

  it('reports a missing key before any request', async () => {
    server = await startMockMessagesApi([answer]);
    const rec = recorder();
    const outcome = await sessionFor(server, store.engine, { apiKey: undefined }).send('hi', rec.listener);
    assert.equal(outcome.error?.kind, 'missing_key');
    assert.equal(server.requests.length, 0);
    assert.deepEqual(rec.events.map((e) => e.type), ['error', 'done']);
  });

  it('retries a 529 through the SDK and then succeeds', async () => {
    const { outcome } = await failing(529, 'Overloaded', 1);
    assert.equal(outcome.ok, true);
    assert.deepEqual(server!.requests.map((r) => r.status), [529, 200]);
  });

  it('says when it gave up after retrying 429s', async () => {
    const { outcome, session } = await failing(429, 'Too many requests', Infinity);
    assert.equal(outcome.error?.kind, 'rate_limit');
    assert.match(outcome.error!.message, /given up after 2 retries/);
    assert.equal(server!.requests.length, 3);
    assert.equal(session.conversation.length, 0, 'a send without any answer leaves the history as it was');
  });

  it('says when it gave up after retrying 529s', async () => {
    const { outcome } = await failing(529, 'Overloaded', Infinity, { maxRetries: 1 });
    assert.equal(outcome.error?.kind, 'overloaded');
    assert.match(outcome.error!.message, /given up after 1 retry/);
    assert.equal(server!.requests.length, 2);
  });

  it('reports 401 without retrying', async () => {
    const { outcome } = await failing(401, 'invalid x-api-key');
    assert.equal(outcome.error?.kind, 'auth');
    assert.match(outcome.error!.message, /rejected the API key.*set a valid key/);
    assert.equal(server!.requests.length, 1);
  });

  it('reports 403 as a permission problem', async () => {
    const { outcome } = await failing(403, 'not allowed');
    assert.equal(outcome.error?.kind, 'permission');
  });

  it('names the model on 404', async () => {
    const { outcome } = await failing(404, 'model: claude-test-model');
    assert.equal(outcome.error?.kind, 'not_found');
    assert.match(outcome.error!.message, /"claude-test-model" was not found/);
  });

  it("shows the API's message on 400", async () => {
    const { outcome } = await failing(400, 'max_tokens: 999999 > 64000, which is the maximum allowed');
    assert.equal(outcome.error?.kind, 'bad_request');
    assert.match(outcome.error!.message, /max_tokens: 999999 > 64000, which is the maximum allowed/);
  });

  it('reports a network failure in one sentence', async () => {
    // A port that was just free: nothing listens there.
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const rec = recorder();
    const outcome = await sessionFor({ url: `http://127.0.0.1:${port}` }, store.engine, { maxRetries: 0, logger }).send('hi', rec.listener);
    assert.equal(outcome.error?.kind, 'network');
    assert.match(outcome.error!.message, /Could not reach the Anthropic API/);
  });

  it('re-requests a stream cut mid-message and never runs a partial turn', async () => {
    server = await startMockMessagesApi([
      { ...toolTurn('toolu_cut'), faults: [{ type: 'cut', afterEvents: 4 }] },
      { ...answer, faults: [{ type: 'cut', afterEvents: 3, mode: 'end' }] },
    ]);
    const rec = recorder();
    const outcome = await sessionFor(server, store.engine, { logger }).send('hi', rec.listener);
    assert.equal(outcome.ok, true);
    assert.equal(server.requests.length, 4);
    assert.equal(rec.of('tool_end').length, 1, 'the tool ran exactly once');
    assert.equal(store.read('toolu_cut.md'), 'toolu_cut');
    assert.deepEqual(rec.of('retry').map((e) => e.attempt), [1, 1]);
  });

  it('gives up on a stream that keeps breaking, without running its tool call', async () => {
    server = await startMockMessagesApi([{ ...toolTurn('toolu_never'), faults: [{ type: 'cut', afterEvents: 5, times: Infinity }] }]);
    const rec = recorder();
    const session = sessionFor(server, store.engine, { logger, streamRetries: 1 });
    const outcome = await session.send('hi', rec.listener);
    assert.equal(outcome.error?.kind, 'stream');
    assert.equal(server.requests.length, 2);
    assert.equal(rec.of('tool_start').length, 0);
    assert.equal(session.conversation.length, 0);
  });

  it('never lets the API key reach an event, an error or a log', async () => {
    const seen: AgentEvent[] = [];
    const runs: Array<[string, Record<string, unknown>]> = [
      ['ok', {}],
      ['401', {}],
      ['400-echo', {}],
      ['network', { baseURL: 'http://127.0.0.1:9' }],
    ];
    for (const [name, extra] of runs) {
      const echo = `bad key ${TEST_KEY} in header x-api-key`;
      const faults = name === '401' ? [{ type: 'status' as const, status: 401, message: echo }] : name === '400-echo' ? [{ type: 'status' as const, status: 400, message: echo }] : [];
      const s = await startMockMessagesApi([{ ...toolTurn('toolu_k'), faults }, answer]);
      const local = await tempStore();
      try {
        await sessionFor(s, local.engine, { logger, maxRetries: 0, ...extra }).send('hi', (e) => seen.push(e));
      } finally {
        await s.close();
        local.cleanup();
      }
    }
    assert.ok(seen.some((e) => e.type === 'error' && e.kind === 'auth'));
    assert.ok(seen.some((e) => e.type === 'error' && e.kind === 'bad_request' && e.message.includes('[redacted]')));
    assert.ok(seen.some((e) => e.type === 'error' && e.kind === 'network'));
    const everything = JSON.stringify(seen) + logs.join('\n');
    assert.ok(!everything.includes(TEST_KEY), 'the key leaked');
    assert.ok(!everything.includes('d1st1nct1ve'), 'part of the key leaked');
  });
});
