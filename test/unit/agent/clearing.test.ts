import * as assert from 'node:assert/strict';
import type { BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { planClearing } from '../../../src/core/agent/clearing';

/** A history of `turns` turns, each one tool use whose result has `resultChars` characters. */
function history(turns: number, resultChars: number): BetaMessageParam[] {
  const messages: BetaMessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'go' }] }];
  for (let t = 0; t < turns; t++) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `u${t}`, name: 'memory', input: { command: 'view', path: '/memories' } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `u${t}`, content: 'x'.repeat(resultChars) }] });
  }
  return messages;
}

describe('agent: clearing plan (batched clear_tool_uses frontier)', () => {
  it('clears nothing until enough results wait behind the newest kept ones', () => {
    // Each result ~250 tokens; batch 1000 tokens; keep 2.
    assert.deepEqual(planClearing(history(2, 1000), 2, 1000), { frontier: 0, keep: 2 });
    assert.deepEqual(planClearing(history(5, 1000), 2, 1000), { frontier: 0, keep: 5 });
    const moved = planClearing(history(6, 1000), 2, 1000);
    assert.equal(moved.frontier, 4);
    assert.equal(moved.keep, 2);
    // The breakpoint goes on the result of the newest clearable use (u3: message 8, block 0).
    assert.deepEqual(moved.frontierResult, [8, 0]);
  });

  it('holds the frontier between batches, so the cached prefix stays the same', () => {
    const frontiers = [6, 7, 8, 9, 10].map((t) => planClearing(history(t, 1000), 2, 1000).frontier);
    assert.deepEqual(frontiers, [4, 4, 4, 4, 8]);
    const keeps = [6, 7, 8, 9, 10].map((t) => planClearing(history(t, 1000), 2, 1000).keep);
    assert.deepEqual(keeps, [2, 3, 4, 5, 2]);
  });

  it('depends only on the history, so a rolled-back send changes nothing', () => {
    const h = history(9, 1000);
    assert.deepEqual(planClearing(h, 2, 1000), planClearing([...h], 2, 1000));
    assert.deepEqual(planClearing(h.slice(0, 13), 2, 1000), planClearing(history(6, 1000), 2, 1000));
  });

  it('counts tool inputs too, and ignores results without a matching tool use', () => {
    const h: BetaMessageParam[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'big', name: 'memory', input: { command: 'create', path: '/memories/a', file_text: 'y'.repeat(8000) } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'big', content: 'ok' }, { type: 'tool_result', tool_use_id: 'stray', content: 'z'.repeat(9000) }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'small', name: 'memory', input: { command: 'view', path: '/memories' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'small', content: 'ok' }] },
    ];
    assert.equal(planClearing(h, 1, 1500).frontier, 1);
    assert.equal(planClearing(h, 1, 3000).frontier, 0);
  });
});
