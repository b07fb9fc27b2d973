import * as assert from 'node:assert/strict';
import { RELOAD_HEADER } from '../../../src/core/agent/compaction';
import type { AgentTool, AgentToolResult, ToolCallContext } from '../../../src/core/agent/tools';
import { messagesOf, recorder, sessionFor, useAgentTestBed } from './helpers';

/** A client tool that records its calls and streams two chunks before answering. */
function echoTool(name = 'echo'): AgentTool & { calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    name,
    calls,
    definition: () => ({ type: 'bash_20250124', name: 'bash' }) as never,
    label: (input) => ({ command: 'run', path: String((input as { command?: unknown }).command) }),
    summarize: (_input, result) => (result.is_error ? 'failed' : 'ran it'),
    async execute(input: unknown, context: ToolCallContext): Promise<AgentToolResult> {
      calls.push(input);
      context.onOutput('one ');
      context.onOutput('two');
      return { is_error: false, content: 'one two', detail: { kind: 'command', command: 'echo', exitCode: 0 } };
    },
  };
}

describe('agent loop: client tools besides memory', () => {
  const bed = useAgentTestBed();

  it('sends every tool definition, memory first, with the cache breakpoint on the last one', async () => {
    const server = await bed.serve([{ content: [{ type: 'text', text: 'hi' }] }]);
    await sessionFor(server, bed.store.engine, { tools: [echoTool('bash')] }).send('go', recorder().listener);
    const tools = server.requests[0].body.tools as Array<Record<string, unknown>>;
    assert.deepEqual(tools.map((t) => t.name), ['memory', 'bash']);
    assert.equal(tools[0].cache_control, undefined);
    assert.deepEqual(tools[1].cache_control, { type: 'ephemeral' });
  });

  it('puts the stable-prefix breakpoint on the system prompt when there is one', async () => {
    const server = await bed.serve([{ content: [{ type: 'text', text: 'hi' }] }]);
    await sessionFor(server, bed.store.engine, { tools: [echoTool('bash')], system: 'You work in /w.' }).send('go', recorder().listener);
    const body = server.requests[0].body;
    assert.ok((body.tools as Array<Record<string, unknown>>).every((t) => t.cache_control === undefined));
    assert.deepEqual((body.system as Array<Record<string, unknown>>)[0].cache_control, { type: 'ephemeral' });
  });

  it('dispatches a call by name, streams its output and reports tool and detail', async () => {
    const tool = echoTool('bash');
    const server = await bed.serve([
      { content: [{ type: 'tool_use', id: 'toolu_b', name: 'bash', input: { command: 'ls' } }] },
      { content: [{ type: 'tool_use', id: 'toolu_m', input: { command: 'view', path: '/memories' } }] },
      { content: [{ type: 'text', text: 'done' }] },
    ]);
    const rec = recorder();
    const outcome = await sessionFor(server, bed.store.engine, { tools: [tool] }).send('go', rec.listener);
    assert.equal(outcome.ok, true);
    assert.deepEqual(tool.calls, [{ command: 'ls' }]);
    assert.deepEqual(rec.of('tool_start')[0], { type: 'tool_start', id: 'toolu_b', tool: 'bash', command: 'run', path: 'ls' });
    assert.deepEqual(rec.of('tool_output').map((e) => [e.id, e.text]), [['toolu_b', 'one '], ['toolu_b', 'two']]);
    const [bash, memory] = rec.of('tool_end');
    assert.equal(bash.tool, 'bash');
    assert.equal(bash.summary, 'ran it');
    assert.deepEqual(bash.detail, { kind: 'command', command: 'echo', exitCode: 0 });
    assert.equal(memory.tool, 'memory');
    const results = messagesOf(server.requests[1].body)[2].content as Array<Record<string, unknown>>;
    assert.deepEqual([results[0].tool_use_id, results[0].content, results[0].is_error], ['toolu_b', 'one two', false]);
  });

  it('answers a tool that throws with a generic error result and logs the message only', async () => {
    const logged: string[] = [];
    const tool: AgentTool = { ...echoTool('bash'), execute: () => Promise.reject(new Error('/home/secret/path exploded')) };
    const server = await bed.serve([
      { content: [{ type: 'tool_use', id: 'toolu_t', name: 'bash', input: { command: 'x' } }] },
      { content: [{ type: 'text', text: 'ok' }] },
    ]);
    const rec = recorder();
    const logger = { debug() {}, info() {}, warn() {}, error: (m: string) => logged.push(m) };
    await sessionFor(server, bed.store.engine, { tools: [tool], logger }).send('go', rec.listener);
    const result = (messagesOf(server.requests[1].body)[2].content as Array<Record<string, unknown>>)[0];
    assert.equal(result.is_error, true);
    assert.doesNotMatch(String(result.content), /secret/);
    assert.match(logged.join('\n'), /exploded/);
  });

  it('refuses two tools with one name', () => {
    assert.throws(() => sessionFor({ url: 'http://127.0.0.1:9' }, bed.store.engine, { tools: [echoTool('memory')] }), /two tools are named "memory"/);
  });
});

describe('agent loop: server-side compaction paired with memory', () => {
  const bed = useAgentTestBed();

  it('asks for compact_20260112 with pause_after_compaction and its beta when the setting is on', async () => {
    const server = await bed.serve([{ content: [{ type: 'text', text: 'hi' }] }]);
    await sessionFor(server, bed.store.engine, { compaction: true, compactionTrigger: 50_000 }).send('go', recorder().listener);
    const request = server.requests[0];
    const edits = (request.body.context_management as { edits: Array<Record<string, unknown>> }).edits;
    assert.deepEqual(edits.map((e) => e.type), ['clear_tool_uses_20250919', 'compact_20260112']);
    assert.deepEqual(edits[1], { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 50_000 }, pause_after_compaction: true });
    assert.match(String(request.headers['anthropic-beta']), /compact-2026-01-12/);
  });

  it('sends no compaction edit when the setting is off', async () => {
    const server = await bed.serve([{ content: [{ type: 'text', text: 'hi' }] }]);
    await sessionFor(server, bed.store.engine, { compaction: false, contextEditing: false }).send('go', recorder().listener);
    assert.equal(server.requests[0].body.context_management, undefined);
    assert.doesNotMatch(String(server.requests[0].headers['anthropic-beta'] ?? ''), /compact/);
  });

  it('after a compaction pause: reports the tokens, sends the block back verbatim, then the state reloaded from memory, and goes on', async () => {
    const summary = 'The user asked to fix the parser; tests were failing in parse.test.ts.';
    const server = await bed.serve([
      { content: [{ type: 'tool_use', id: 'toolu_v', input: { command: 'create', path: '/memories/progress.md', file_text: '- parser: tests failing\n' } }] },
      { content: [{ type: 'compaction', content: summary }] },
      { content: [{ type: 'text', text: 'Continuing.' }] },
    ]);
    const rec = recorder();
    const outcome = await sessionFor(server, bed.store.engine, { compaction: true }).send('fix the parser', rec.listener);
    assert.equal(outcome.ok, true);
    assert.equal(outcome.turns, 3);

    const [compaction] = rec.of('compaction');
    assert.ok(compaction, 'a compaction event is reported');
    assert.equal(compaction.tokens_after, Math.ceil(summary.length / 4));
    assert.ok(compaction.tokens_before > 0);
    assert.equal(compaction.saved_tokens, compaction.tokens_before - compaction.tokens_after);
    assert.deepEqual(compaction.reloaded, ['progress']);

    const third = messagesOf(server.requests[2].body);
    const pause = third[third.length - 2];
    assert.equal(pause.role, 'assistant');
    const block = (pause.content as Array<Record<string, unknown>>)[0];
    assert.deepEqual([block.type, block.content], ['compaction', summary]);
    assert.match(String(block.encrypted_content), /^enc_mock_/);
    const resume = third[third.length - 1];
    assert.equal(resume.role, 'user');
    const text = String((resume.content as Array<Record<string, unknown>>)[0].text);
    assert.ok(text.startsWith(RELOAD_HEADER));
    assert.match(text, /- parser: tests failing/);
  });
});
