import * as assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { PromptCache, CLEARED_PLACEHOLDER, MEMORY_TOOL_TOKENS } from '../../support/mockMessagesApi/billing';
import { startMockMessagesApi, type MockMessagesApi } from '../../support/mockMessagesApi';

const EPH = { type: 'ephemeral' };
const text = (chars: number, mark = false) => ({ type: 'text', text: 'a'.repeat(chars), ...(mark ? { cache_control: EPH } : {}) });

describe('scripted Messages API: billing simulation', () => {
  it('writes a marked prefix once and reads it back on the next request', () => {
    const cache = new PromptCache();
    const first = { tools: [{ type: 'memory_20250818', name: 'memory' }], messages: [{ role: 'user', content: [text(8000, true)] }] };
    const a = cache.bill(first).usage;
    assert.equal(a.cache_read_input_tokens, 0);
    assert.ok(a.cache_creation_input_tokens > 2000 + MEMORY_TOOL_TOKENS - 10);
    assert.equal(a.input_tokens, 0);
    const second = {
      tools: first.tools,
      messages: [{ role: 'user', content: [text(8000)] }, { role: 'assistant', content: [text(400)] }, { role: 'user', content: [text(4000, true)] }],
    };
    const b = cache.bill(second).usage;
    assert.equal(b.cache_read_input_tokens, a.cache_creation_input_tokens);
    assert.ok(b.cache_creation_input_tokens >= 1100 && b.input_tokens === 0);
    // A changed prefix misses.
    const changed = { tools: first.tools, messages: [{ role: 'user', content: [text(8001, true)] }] };
    assert.equal(cache.bill(changed).usage.cache_read_input_tokens, 0);
  });

  it('never caches prefixes below the minimum and bills everything as input without breakpoints', () => {
    const cache = new PromptCache({ minCacheTokens: 1024 });
    const small = { messages: [{ role: 'user', content: [text(100, true)] }] };
    assert.equal(cache.bill(small).usage.cache_creation_input_tokens, 0);
    const plain = { messages: [{ role: 'user', content: [text(8000)] }] };
    const u = cache.bill(plain).usage;
    assert.equal(u.cache_creation_input_tokens + u.cache_read_input_tokens, 0);
    assert.ok(u.input_tokens >= 2000);
  });

  it('clears all but the kept tool results once past the trigger, unless that clears too little', () => {
    const messages: Array<Record<string, unknown>> = [{ role: 'user', content: [text(10)] }];
    for (let i = 0; i < 4; i++) {
      messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'memory', input: { command: 'view', path: '/memories' } }] });
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: 'r'.repeat(4000) }] });
    }
    const edit = (extra: Record<string, unknown>) => ({
      messages,
      context_management: { edits: [{ type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 2000 }, keep: { type: 'tool_uses', value: 1 }, ...extra }] },
    });
    const applied = new PromptCache().bill(edit({})).applied;
    assert.equal(applied.length, 1);
    assert.equal(applied[0].cleared_tool_uses, 3);
    assert.ok(applied[0].cleared_input_tokens > 2900 && applied[0].cleared_input_tokens < 3100);
    assert.deepEqual(new PromptCache().bill(edit({ clear_at_least: { type: 'input_tokens', value: 5000 } })).applied, []);
    const untriggered = { ...edit({}), context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] } };
    assert.deepEqual(new PromptCache().bill(untriggered).applied, [], 'the default trigger is 100k tokens');
    assert.ok(CLEARED_PLACEHOLDER.length > 0);
  });
});

describe('scripted Messages API: protocol', () => {
  let server: MockMessagesApi | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server!.url}/v1/messages?beta=true`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'k', ...headers }, body: JSON.stringify(body) });

  it('answers non-streaming requests from the SDK with a whole message', async () => {
    server = await startMockMessagesApi([{ content: [{ type: 'text', text: 'Hi there' }] }]);
    const client = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    const message = await client.beta.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(message.content[0].type === 'text' && message.content[0].text, 'Hi there');
    assert.equal(message.stop_reason, 'end_turn');
    assert.ok(message.usage.input_tokens > 0);
  });

  it('script() replaces what is left: a test that stopped half-way does not shift the next one\'s answers', async () => {
    server = await startMockMessagesApi([
      { content: [{ type: 'text', text: 'first test, turn 1' }] },
      { content: [{ type: 'text', text: 'first test, turn 2 (never asked for)' }], faults: [{ type: 'status', status: 529, times: 1 }] },
    ]);
    const client = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    const ask = async () => {
      const m = await client.beta.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
      return m.content[0].type === 'text' ? m.content[0].text : '';
    };
    assert.equal(await ask(), 'first test, turn 1');
    server.script([{ content: [{ type: 'text', text: 'second test, turn 1' }] }]);
    assert.equal(server.served, 0);
    assert.equal(server.requests.length, 0);
    assert.equal(await ask(), 'second test, turn 1');
    assert.equal(server.served, 1);
    assert.equal(server.requests.length, 1);
  });

  it('refuses what the real API refuses', async () => {
    server = await startMockMessagesApi([{ content: [{ type: 'text', text: 'x' }] }], { apiKey: 'k' });
    const base = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
    const cases: Array<[unknown, Record<string, string>, number, RegExp]> = [
      [base, { 'x-api-key': 'wrong' }, 401, /invalid x-api-key/],
      [{ ...base, context_management: { edits: [] } }, {}, 400, /anthropic-beta/],
      [{ ...base, messages: [{ role: 'user', content: [1, 2, 3, 4, 5].map(() => text(1, true)) }] }, {}, 400, /maximum of 4 blocks/],
      [{ ...base, messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 'memory', input: {} }] }, { role: 'user', content: 'b' }] }, {}, 400, /without tool_result/],
      [{ ...base, thread: { type: 'create' } }, {}, 400, /thread/],
    ];
    for (const [body, headers, status, message] of cases) {
      const res = await post(body, headers);
      assert.equal(res.status, status);
      const json = (await res.json()) as { error: { message: string } };
      assert.match(json.error.message, message);
    }
    assert.equal(server.served, 0);
    assert.equal((await post(base)).status, 200);
    assert.equal(server.served, 1);
  });

  it('checks the key the SDK really sends, as a header or a bearer token', async () => {
    server = await startMockMessagesApi([{ content: [{ type: 'text', text: 'ok' }] }, { content: [{ type: 'text', text: 'ok' }] }], { apiKey: 'k' });
    const base = { model: 'm', max_tokens: 10, messages: [{ role: 'user' as const, content: 'hi' }] };
    const right = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    assert.equal((await right.beta.messages.create(base)).stop_reason, 'end_turn');
    const wrong = new Anthropic({ apiKey: 'other', baseURL: server.url, maxRetries: 0 });
    await assert.rejects(wrong.beta.messages.create(base), (e: unknown) => e instanceof Anthropic.AuthenticationError);
    assert.equal((await post(base, { 'x-api-key': '', authorization: 'Bearer k' })).status, 200);
    assert.equal(server.served, 2);
  });
});
