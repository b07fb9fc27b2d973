/** Shared set-up for the agent tests: a real MemoryEngine on a temp dir and a session on the scripted server. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentLoop } from '../../../src/core/agent/agentLoop';
import type { AgentEvent } from '../../../src/core/agent/events';
import type { AgentOptions } from '../../../src/core/agent/options';
import { MemoryEngine } from '../../../src/core/memory';
import type { MemoryToolExecutor } from '../../../src/core/memory/types';
import { NodeMemoryFileSystem } from '../../../src/platform/node/nodeFileSystem';
import { startMockMessagesApi, type MockMessagesApi, type MockServerOptions, type MockStep } from '../../support/mockMessagesApi';

export const TEST_KEY = 'sk-ant-api03-UNIT-TEST-KEY-d1st1nct1ve-7f3a9c';

export interface TempStore {
  dir: string;
  storeDir: string;
  engine: MemoryEngine;
  read(rel: string): string;
  cleanup(): void;
}

export async function tempStore(): Promise<TempStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-test-'));
  const storeDir = path.join(dir, '.claude-memories');
  const fsAdapter = new NodeMemoryFileSystem(storeDir);
  await fsAdapter.createDirectory('');
  return {
    dir,
    storeDir,
    engine: new MemoryEngine(fsAdapter),
    read: (rel) => fs.readFileSync(path.join(storeDir, rel), 'utf8'),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export function sessionFor(server: Pick<MockMessagesApi, 'url'>, memory: MemoryToolExecutor, overrides: Partial<AgentOptions> = {}): AgentLoop {
  return new AgentLoop({
    apiKey: TEST_KEY,
    baseURL: server.url,
    model: 'claude-test-model',
    maxTokens: 1024,
    maxTurns: 10,
    memory,
    promptCaching: true,
    contextEditing: true,
    maxRetries: 2,
    ...overrides,
  });
}

export function recorder(): { events: AgentEvent[]; listener: (e: AgentEvent) => void; of<T extends AgentEvent['type']>(type: T): Extract<AgentEvent, { type: T }>[] } {
  const events: AgentEvent[] = [];
  return {
    events,
    listener: (e) => events.push(e),
    of: <T extends AgentEvent['type']>(type: T) => events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type),
  };
}

/** The messages of a recorded request body. */
export function messagesOf(body: Record<string, unknown>): Array<{ role: string; content: Array<Record<string, unknown>> | string }> {
  return body.messages as Array<{ role: string; content: Array<Record<string, unknown>> | string }>;
}

/** What a describe block gets from useAgentTestBed: a fresh store each test and the scripted server it starts. */
export interface AgentTestBed {
  /** This test's store; valid inside tests and hooks, replaced before each test. */
  readonly store: TempStore;
  /** Starts the scripted API for the running test; the afterEach hook closes it. */
  serve(script: MockStep[], options?: MockServerOptions): Promise<MockMessagesApi>;
}

/**
 * Registers the beforeEach/afterEach pair every agent-loop suite needs, so each test starts on an
 * empty store and no server outlives its test. Call it directly inside a `describe` callback.
 */
export function useAgentTestBed(): AgentTestBed {
  let store: TempStore | undefined;
  let server: MockMessagesApi | undefined;
  beforeEach(async () => {
    store = await tempStore();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    store?.cleanup();
  });
  return {
    get store(): TempStore {
      if (!store) throw new Error('the agent test bed is only ready inside a test or hook');
      return store;
    },
    async serve(script, options) {
      server = await startMockMessagesApi(script, options);
      return server;
    },
  };
}
