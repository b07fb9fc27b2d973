/**
 * Benchmark 1: the input-token bill of one scripted 30-turn memory session, billed as the API
 * does (plain input 1×, cache writes 1.25×, cache reads 0.1×), with prompt caching and context
 * editing on (our defaults) against both off (what the SDK's toolRunner sends by default).
 * Usage comes from the scripted server's simulation (test/support/mockMessagesApi/billing.ts).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentLoop } from '../../src/core/agent/agentLoop';
import { emptyUsage, type AgentUsage } from '../../src/core/agent/events';
import type { AgentOptions } from '../../src/core/agent/options';
import { MemoryEngine } from '../../src/core/memory';
import { NodeMemoryFileSystem } from '../../src/platform/node/nodeFileSystem';
import { startMockMessagesApi, type MockStep } from '../../test/support/mockMessagesApi';

export const SESSION_TURNS = 30;

export interface BillRow {
  label: string;
  usage: AgentUsage;
  /** Input billed in plain-input-token equivalents. */
  billed: number;
  clears: number;
}

export function billedInput(u: AgentUsage): number {
  return u.input_tokens + 1.25 * u.cache_creation_input_tokens + 0.1 * u.cache_read_input_tokens;
}

/**
 * A progress-log session: every turn Claude appends a ~600-character entry to
 * /memories/progress.md and views the whole log again, so each tool result is larger than the one
 * before (up to the engine's 16,000-character view limit). The last turn answers in text.
 */
export function progressSession(turns: number): MockStep[] {
  const steps: MockStep[] = [];
  steps.push({
    content: [
      { type: 'text', text: 'Let me start a progress log.' },
      { type: 'tool_use', input: { command: 'create', path: '/memories/progress.md', file_text: '# Progress log\n' } },
    ],
  });
  for (let turn = 2; turn < turns; turn++) {
    const entry = `- turn ${turn}: ${'implemented, tested and documented one more piece of the feature; '.repeat(9)}`;
    steps.push({
      content: [
        { type: 'text', text: `Recording step ${turn}.` },
        { type: 'tool_use', input: { command: 'insert', path: '/memories/progress.md', insert_line: turn - 1, insert_text: `${entry}\n` } },
        { type: 'tool_use', input: { command: 'view', path: '/memories/progress.md' } },
      ],
    });
  }
  steps.push({ content: [{ type: 'text', text: 'All steps are recorded in /memories/progress.md.' }] });
  return steps;
}

export async function measureBill(
  label: string,
  promptCaching: boolean,
  contextEditing: boolean,
  tuning: Partial<AgentOptions> = {},
): Promise<BillRow> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-agent-'));
  const server = await startMockMessagesApi(progressSession(SESSION_TURNS));
  try {
    const store = new NodeMemoryFileSystem(path.join(dir, '.claude-memories'));
    await store.createDirectory('');
    const session = new AgentLoop({
      apiKey: 'sk-ant-bench-not-a-real-key',
      baseURL: server.url,
      model: 'claude-bench',
      maxTokens: 4096,
      maxTurns: SESSION_TURNS + 5,
      memory: new MemoryEngine(store),
      promptCaching,
      contextEditing,
      system: 'You are a careful coding agent. Keep /memories/progress.md current after every step.',
      ...tuning,
    });
    let clears = 0;
    const outcome = await session.send('Work through the feature step by step and log each step.', (e) => {
      if (e.type === 'context_edit') clears++;
    });
    if (!outcome.ok || outcome.turns !== SESSION_TURNS) {
      throw new Error(`bench session failed: ${outcome.error?.message ?? `only ${outcome.turns} turns`}`);
    }
    const usage = emptyUsage();
    for (const r of server.requests) {
      if (!r.usage) continue;
      for (const k of Object.keys(usage) as (keyof AgentUsage)[]) usage[k] = (usage[k] ?? 0) + ((r.usage as unknown as Record<string, number | undefined>)[k] ?? 0);
    }
    return { label, usage, billed: billedInput(usage), clears };
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
