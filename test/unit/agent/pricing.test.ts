import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentUsage } from '../../../src/core/agent/events';
import { costLabel, estimateCost, formatCost, PRICES_CHECKED, priceOf, responseCost } from '../../../src/core/agent/pricing';
import { memoryChangeOf } from '../../../src/core/agent/summary';

const PACKAGE_JSON = path.resolve(__dirname, '../../../../package.json');
const usage = (u: Partial<AgentUsage>): AgentUsage => ({ input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 0, ...u });
const M = 1_000_000;
const close = (a: number | undefined, b: number) => assert.ok(a !== undefined && Math.abs(a - b) < 1e-9, `${a} ≠ ${b}`);

describe('pricing: one table for the chat\'s cost estimate', () => {
  it('prices the current models as Anthropic lists them (input / output per million tokens)', () => {
    const io = (model: string) => [priceOf(model)?.input, priceOf(model)?.output];
    assert.deepEqual(io('claude-opus-5-5'), [4, 20]);
    assert.deepEqual(io('claude-opus-5-5[1m]'), [4, 20]);
    assert.deepEqual(io('claude-opus-5'), [5, 25]);
    assert.deepEqual(io('claude-opus-5-20260724'), [5, 25]);
    assert.deepEqual(io('claude-sonnet-5-5'), [2, 10]);
    assert.deepEqual(io('claude-sonnet-5'), [2, 10]);
    assert.deepEqual(io('claude-fable-5-1'), [10, 50]);
    assert.deepEqual(io('claude-mythos-5-1'), [10, 50]);
    assert.deepEqual(io('claude-fable-5'), [10, 50]);
    assert.deepEqual(io('claude-haiku-5-5'), [0.1, 0.5]);
    assert.deepEqual(io('claude-sonnet-4-5-20250929'), [3, 15]);
    assert.deepEqual(io('claude-opus-4-1-20250805'), [15, 75]);
    assert.deepEqual(io('claude-opus-4-20250514'), [15, 75]);
    assert.deepEqual(io('claude-opus-4-5'), [5, 25]);
    assert.deepEqual(io('claude-haiku-4-5'), [1, 5]);
    assert.deepEqual(io('claude-3-5-haiku-latest'), [0.8, 4]);
  });

  it('knows no price rather than a wrong one for a model it lacks', () => {
    for (const model of ['gpt-5', 'claude-sonnet-40', 'claude-opus-55', 'claude-nova-1']) {
      assert.equal(priceOf(model), undefined, model);
      assert.equal(estimateCost(model, usage({ input_tokens: 1 })), undefined);
    }
    assert.equal(costLabel(undefined), 'price unknown');
    assert.equal(costLabel(0.0421), '≈ $0.042');
  });

  it('cache reads: 0.1x on most models, 0.05x on the 5.5 models (Haiku 5.5: $0.01), 0.025x on Fable/Mythos 5.1', () => {
    close(estimateCost('claude-sonnet-4-5', usage({ cache_read_input_tokens: M })), 0.3);
    close(estimateCost('claude-opus-5', usage({ cache_read_input_tokens: M })), 0.5);
    close(estimateCost('claude-opus-5-5', usage({ cache_read_input_tokens: M })), 0.2);
    close(estimateCost('claude-sonnet-5-5', usage({ cache_read_input_tokens: M })), 0.1);
    close(estimateCost('claude-fable-5-1', usage({ cache_read_input_tokens: M })), 0.25);
    close(estimateCost('claude-fable-5', usage({ cache_read_input_tokens: M })), 1);
    close(estimateCost('claude-haiku-5-5', usage({ cache_read_input_tokens: 50_000 })), 0.0005);
  });

  it('prices 5-minute and 1-hour cache writes apart', () => {
    close(estimateCost('claude-opus-5-5', usage({ cache_creation_input_tokens: M })), 5);
    close(estimateCost('claude-opus-5-5', usage({ cache_creation_input_tokens: M, cache_creation_1h_input_tokens: M })), 8);
    close(estimateCost('claude-sonnet-4-5', usage({ cache_creation_input_tokens: 2 * M, cache_creation_1h_input_tokens: M })), 3.75 + 6);
  });

  it('Haiku 5.5: a prompt over 100k tokens pays the higher tier on every token of that request', () => {
    close(estimateCost('claude-haiku-5-5', usage({ input_tokens: 100_000, output_tokens: 1_000 })), 0.1 * 0.1 + 0.5 * 0.001);
    close(estimateCost('claude-haiku-5-5', usage({ input_tokens: 60_000, cache_read_input_tokens: 40_001, output_tokens: 1_000 })), 0.5 * 0.06 + 0.05 * 0.040001 + 2.5 * 0.001);
  });

  it('prices a response\'s compaction iterations as their own request', () => {
    const compaction = usage({ input_tokens: 120_000, output_tokens: 3_000 });
    const total = usage({ input_tokens: 121_000, output_tokens: 3_100 });
    const cost = responseCost('claude-opus-5-5', total, compaction);
    close(cost?.compaction, 0.12 * 4 + 0.003 * 20);
    close(cost?.total, 0.121 * 4 + 0.0031 * 20);
    assert.equal(responseCost('mystery-model', total, compaction), undefined);
  });

  it('has a price for every model the model setting suggests', () => {
    type Property = { anyOf?: Array<{ enum?: string[] }> };
    const pkg = JSON.parse(fs.readFileSync(PACKAGE_JSON, 'utf8')) as { contributes: { configuration: Array<{ properties: Record<string, Property> }> } };
    const model = pkg.contributes.configuration.map((section) => section.properties['claudeMemory.model']).find((p) => p !== undefined);
    const suggested = model?.anyOf?.find((a) => a.enum)?.enum ?? [];
    assert.ok(suggested.length >= 4);
    for (const model of suggested) assert.ok(priceOf(model), model);
    assert.ok(/^\d{4}-\d{2}-\d{2}$/.test(PRICES_CHECKED));
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
