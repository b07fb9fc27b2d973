import * as assert from 'node:assert/strict';
import { retryDelayMs, retryReason, sdkRetries } from '../../../src/core/agent/apiRetries';
import { recorder, sessionFor, useAgentTestBed } from './helpers';

describe('agent loop: the SDK\'s retries are reported (api_retry)', () => {
  const bed = useAgentTestBed();

  it('reports each retry of a 529 with the wait the server asked for, then answers', async () => {
    const server = await bed.serve([{ content: [{ type: 'text', text: 'Hello.' }], faults: [{ type: 'status', status: 529, times: 2, retryAfterMs: 30 }] }]);
    const rec = recorder();
    const outcome = await sessionFor(server, bed.store.engine, { maxRetries: 2 }).send('hi', rec.listener);
    assert.equal(outcome.ok, true);
    assert.deepEqual(rec.of('api_retry'), [
      { type: 'api_retry', reason: 'overloaded', attempt: 1, maxRetries: 2, delayMs: 30 },
      { type: 'api_retry', reason: 'overloaded', attempt: 2, maxRetries: 2, delayMs: 30 },
    ]);
    const kinds = rec.events.map((e) => e.type);
    assert.ok(kinds.indexOf('api_retry') < kinds.indexOf('text'), 'reported before the answer streams');
  });

  it('reports no retry the SDK will not make: the last failure is the error', async () => {
    const server = await bed.serve([{ content: [{ type: 'text', text: 'never' }], faults: [{ type: 'status', status: 429, times: Infinity }] }]);
    const rec = recorder();
    const outcome = await sessionFor(server, bed.store.engine, { maxRetries: 1 }).send('hi', rec.listener);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.error?.kind, 'rate_limit');
    assert.deepEqual(rec.of('api_retry').map((e) => [e.reason, e.attempt, e.maxRetries]), [['rate_limit', 1, 1]]);
    assert.equal(server.requests.length, 2);
  });

  it('reports nothing for errors the SDK does not retry', async () => {
    const server = await bed.serve([{ content: [{ type: 'text', text: 'never' }], faults: [{ type: 'status', status: 400 }] }]);
    const rec = recorder();
    await sessionFor(server, bed.store.engine).send('hi', rec.listener);
    assert.deepEqual(rec.of('api_retry'), []);
  });
});

describe('api retries: the SDK\'s policy, restated for display', () => {
  it('reads retry-after-ms, then retry-after seconds or date, else the default backoff', () => {
    assert.equal(retryDelayMs(new Headers({ 'retry-after-ms': '1500' }), 0), 1500);
    assert.equal(retryDelayMs(new Headers({ 'retry-after': '4' }), 0), 4000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(retryDelayMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), 0, now), 3000);
    assert.equal(retryDelayMs(new Headers(), 0), 500);
    assert.equal(retryDelayMs(new Headers(), 1), 1000);
    assert.equal(retryDelayMs(new Headers(), 10), 8000, 'capped at 8 s');
    assert.equal(retryDelayMs(new Headers({ 'retry-after-ms': '-5' }), 1), 1000, 'nonsense falls back to the default');
  });

  it('retries what the SDK retries, and obeys x-should-retry', () => {
    for (const status of [408, 409, 429, 500, 503, 529]) assert.equal(sdkRetries(status, new Headers()), true, String(status));
    for (const status of [400, 401, 403, 404, 413]) assert.equal(sdkRetries(status, new Headers()), false, String(status));
    assert.equal(sdkRetries(400, new Headers({ 'x-should-retry': 'true' })), true);
    assert.equal(sdkRetries(529, new Headers({ 'x-should-retry': 'false' })), false);
    assert.equal(retryReason(529), 'overloaded');
    assert.equal(retryReason(503), 'server');
  });
});
