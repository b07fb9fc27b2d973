import * as assert from 'node:assert/strict';
import { estimateCost, formatCost, priceOf } from '../../../src/core/agent/pricing';
import { memoryChangeOf } from '../../../src/core/agent/summary';

describe('pricing: one table for the chat\'s cost estimate', () => {
  it('prices a model by its longest matching prefix', () => {
    assert.equal(priceOf('claude-opus-4-1-20250805')?.input, 15);
    assert.equal(priceOf('claude-opus-4-5')?.input, 5);
    assert.equal(priceOf('claude-opus-5')?.output, 25);
    assert.equal(priceOf('claude-sonnet-4-5-20250929')?.output, 15);
    assert.equal(priceOf('claude-3-5-haiku-latest')?.input, 0.8);
    assert.equal(priceOf('claude-haiku-4-5')?.input, 1);
    assert.equal(priceOf('gpt-5'), undefined);
  });

  it('counts cache writes at 1.25x and cache reads at 0.1x the input price', () => {
    const cost = estimateCost('claude-sonnet-4-5', { input_tokens: 1_000_000, cache_creation_input_tokens: 1_000_000, cache_read_input_tokens: 1_000_000, output_tokens: 1_000_000 });
    assert.ok(Math.abs((cost ?? 0) - (3 + 3.75 + 0.3 + 15)) < 1e-9);
    assert.equal(estimateCost('unknown', { input_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 }), undefined);
  });

  it('formats short', () => {
    assert.equal(formatCost(0), '$0.000');
    assert.equal(formatCost(0.0004), '<$0.001');
    assert.equal(formatCost(0.0421), '$0.042');
    assert.equal(formatCost(12.345), '$12.35');
  });
});

describe('memoryChangeOf: what a memory write changed, for its card', () => {
  it('reads each write command\'s input', () => {
    assert.deepEqual(memoryChangeOf({ command: 'create', path: '/memories/a', file_text: 'x\n' }), { kind: 'memory', change: { type: 'create', text: 'x\n' } });
    assert.deepEqual(memoryChangeOf({ command: 'str_replace', path: '/memories/a', old_str: 'a', new_str: 'b' }), {
      kind: 'memory',
      change: { type: 'str_replace', old: 'a', new: 'b' },
    });
    assert.deepEqual(memoryChangeOf({ command: 'insert', path: '/memories/a', insert_line: 2, insert_text: 'y' }), { kind: 'memory', change: { type: 'insert', line: 2, text: 'y' } });
    assert.deepEqual(memoryChangeOf({ command: 'rename', old_path: '/memories/a', new_path: '/memories/b' }), {
      kind: 'memory',
      change: { type: 'rename', from: '/memories/a', to: '/memories/b' },
    });
  });

  it('has nothing for reads, deletes and malformed input', () => {
    for (const input of [{ command: 'view', path: '/memories' }, { command: 'delete', path: '/memories/a' }, { command: 'create' }, { command: 'insert', insert_text: 'x' }, null, 'create', 7]) {
      assert.equal(memoryChangeOf(input), undefined, JSON.stringify(input));
    }
  });
});
