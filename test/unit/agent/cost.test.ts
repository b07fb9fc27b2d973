import * as assert from 'node:assert/strict';
import { CONTEXT_MANAGEMENT_BETA } from '../../../src/core/agent/request';
import type { MockStep } from '../../support/mockMessagesApi';
import { recorder, sessionFor, useAgentTestBed } from './helpers';

const big = (n: number) => `line ${n} `.repeat(400);
/** Turns that create a file and view it back, so tool results carry real bulk. */
function session(files: number): MockStep[] {
  const steps: MockStep[] = [];
  for (let i = 0; i < files; i++) {
    steps.push({ content: [{ type: 'tool_use', input: { command: 'create', path: `/memories/f${i}.md`, file_text: big(i) } }] });
    steps.push({ content: [{ type: 'tool_use', input: { command: 'view', path: `/memories/f${i}.md` } }] });
  }
  steps.push({ content: [{ type: 'text', text: 'All saved.' }] });
  return steps;
}

function breakpoints(body: Record<string, unknown>): number {
  return (JSON.stringify(body).match(/"cache_control":\{/g) ?? []).length;
}

describe('agent loop: prompt caching and context editing', () => {
  const bed = useAgentTestBed();

  it('sends breakpoints and context_management with its beta header when on', async () => {
    const server = await bed.serve(session(3));
    const s = sessionFor(server, bed.store.engine, { contextEditingKeep: 2, contextEditingClearAtLeast: 100 });
    const rec = recorder();
    assert.equal((await s.send('save', rec.listener)).ok, true);
    const first = server.requests[0];
    assert.deepEqual((first.body.tools as Array<Record<string, unknown>>)[0], { type: 'memory_20250818', name: 'memory', cache_control: { type: 'ephemeral' } });
    assert.equal(first.body.system, undefined, 'no memory protocol prompt of our own');
    for (const r of server.requests) {
      assert.ok(String(r.headers['anthropic-beta']).split(',').includes(CONTEXT_MANAGEMENT_BETA));
      assert.equal((r.body.context_management as { edits: Array<{ type: string }> }).edits[0].type, 'clear_tool_uses_20250919');
      const messages = r.body.messages as Array<{ content: Array<Record<string, unknown>> }>;
      assert.deepEqual(messages.at(-1)!.content.at(-1)!.cache_control, { type: 'ephemeral' }, 'the moving end is a breakpoint');
      assert.ok(breakpoints(r.body) <= 4);
    }
    // Later requests: tools, the previous end, the end, and the clearing frontier.
    assert.equal(breakpoints(server.requests[5].body), 4);
    const edit = (server.requests[5].body.context_management as { edits: Array<{ keep: { value: number } }> }).edits[0];
    assert.equal(edit.keep.value, 2);
    // Caching works across turns: later turns read most of their prompt from the cache.
    const last = server.requests.at(-1)!.usage!;
    assert.ok(last.cache_read_input_tokens > last.input_tokens + last.cache_creation_input_tokens);
    assert.ok(!JSON.stringify(s.conversation).includes('cache_control'), 'breakpoints never enter the history');
  });

  it('puts the stable breakpoint on the system prompt when there is one', async () => {
    const server = await bed.serve(session(1));
    await sessionFor(server, bed.store.engine, { system: 'Be brief.' }).send('save', () => undefined);
    const body = server.requests[0].body;
    assert.deepEqual(body.system, [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }]);
    assert.equal((body.tools as Array<Record<string, unknown>>)[0].cache_control, undefined);
  });

  it('sends neither when both are off', async () => {
    const server = await bed.serve(session(2));
    await sessionFor(server, bed.store.engine, { promptCaching: false, contextEditing: false }).send('save', () => undefined);
    for (const r of server.requests) {
      assert.equal(breakpoints(r.body), 0);
      assert.equal(r.body.context_management, undefined);
      assert.equal(r.headers['anthropic-beta'], undefined);
      assert.equal(r.usage!.cache_read_input_tokens, 0);
    }
  });

  it('reports the edits the API applied as context_edit events', async () => {
    const server = await bed.serve(session(4));
    const rec = recorder();
    const outcome = await sessionFor(server, bed.store.engine, { contextEditingTrigger: 3000, contextEditingKeep: 2, contextEditingClearAtLeast: 500 }).send('save', rec.listener);
    assert.equal(outcome.ok, true);
    const edits = rec.of('context_edit');
    assert.ok(edits.length > 0);
    const applied = server.requests.flatMap((r) => r.appliedEdits ?? []);
    assert.deepEqual(edits, applied.map((a) => ({ type: 'context_edit', cleared_tool_uses: a.cleared_tool_uses, cleared_input_tokens: a.cleared_input_tokens })));
    // The outcome sums the usage events.
    const sum = rec.of('usage').reduce((n, e) => n + e.usage.input_tokens + e.usage.cache_read_input_tokens, 0);
    assert.equal(outcome.usage.input_tokens + outcome.usage.cache_read_input_tokens, sum);
  });
});
