/**
 * The scripted server in its own process for the overhead benchmark, so its CPU work and garbage
 * collection are not charged to the loop, and the loop's process CPU time is the loop's alone.
 * Serves `sessions` × the overhead session script; talks to the parent over the fork IPC channel.
 */
import { startMockMessagesApi, type MockStep } from '../../test/support/mockMessagesApi';

export interface ServerProcessData {
  sessions: number;
  turns: number;
}

export type ServerProcessMessage = { type: 'ready'; url: string } | { type: 'report'; handlingMs: number[] };

/** One session: `turns - 1` turns that each view /memories, then a text answer. */
export function overheadSession(turns: number): MockStep[] {
  const steps: MockStep[] = [];
  for (let i = 0; i < turns - 1; i++) {
    steps.push({ content: [{ type: 'text', text: `Step ${i}. ` }, { type: 'tool_use', input: { command: 'view', path: '/memories' } }] });
  }
  steps.push({ content: [{ type: 'text', text: 'Done.' }] });
  return steps;
}

async function main(data: ServerProcessData): Promise<void> {
  const send = (m: ServerProcessMessage) => process.send?.(m);
  const script: MockStep[] = [];
  for (let s = 0; s < data.sessions; s++) script.push(...overheadSession(data.turns));
  const server = await startMockMessagesApi(script);
  process.on('message', (m: string) => {
    if (m === 'report') send({ type: 'report', handlingMs: server.requests.map((r) => r.handlingMs ?? 0) });
    if (m === 'close') void server.close().then(() => process.disconnect());
  });
  send({ type: 'ready', url: server.url });
}

if (require.main === module && process.send) {
  void main({ sessions: Number(process.argv[2]), turns: Number(process.argv[3]) });
}
