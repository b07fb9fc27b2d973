import * as assert from 'node:assert/strict';
import type { AgentEvent, AgentOutcome } from '../../../src/core/agent/events';
import type { AgentLoop } from '../../../src/core/agent/agentLoop';
import { ChatAttachments } from '../../../src/features/chat/chatAttachments';
import { ChatProgress } from '../../../src/features/chat/chatProgress';
import { ChatSendRunner, CONTINUE_PROMPT, type ChatSendRunnerHooks } from '../../../src/features/chat/chatSendRunner';
import { ChatTranscript, type ChatPatch } from '../../../src/features/chat/chatTranscript';
import type { ChatFolder, ChatStore } from '../../../src/features/chat/chatPort';
import { ToolEntryFolders } from '../../../src/features/chat/toolEntryFolders';
import { fakePort, FakeEdits, fakeUri, gate, type FakePort } from './fakeChatPort';

const usage = { input_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 5 };
const ok = (turns = 1): AgentOutcome => ({ ok: true, stop_reason: 'end_turn', turns, usage });
const failed = (kind: 'overloaded' | 'cancelled', turns: number): AgentOutcome => ({ ok: false, stop_reason: null, turns, usage, error: { kind, message: `${kind}.` } });

type Answer = (prompt: string, onEvent: (e: AgentEvent) => void, signal: AbortSignal) => Promise<AgentOutcome>;

/** An AgentLoop that answers with the test's function and records every prompt and option. */
class FakeAgent {
  readonly prompts: string[] = [];
  readonly requireProgressEntry: boolean[] = [];
  private waiters: Array<{ count: number; resolve: () => void }> = [];
  constructor(public answer: Answer) {}
  async send(prompt: string, onEvent: (e: AgentEvent) => void, signal: AbortSignal, options: { requireProgressEntry?: boolean }): Promise<AgentOutcome> {
    this.prompts.push(prompt);
    this.requireProgressEntry.push(options.requireProgressEntry === true);
    for (const w of this.waiters.filter((w) => this.prompts.length >= w.count)) w.resolve();
    return this.answer(prompt, onEvent, signal);
  }
  /** Resolves once `count` prompts reached the session. */
  whenSent(count: number): Promise<void> {
    if (this.prompts.length >= count) return Promise.resolve();
    return new Promise<void>((resolve) => this.waiters.push({ count, resolve }));
  }
}

/** Streams `text` as one answer. */
function answers(text: string, outcome = ok()): Answer {
  return async (_prompt, onEvent) => {
    onEvent({ type: 'text', text });
    onEvent({ type: 'usage', usage });
    onEvent({ type: 'turn_end', stop_reason: 'end_turn' });
    onEvent({ type: 'done', stop_reason: 'end_turn' });
    return outcome;
  };
}

interface Rig {
  /** What the change summary was told: answers starting and ending, tool calls ending. */
  running: boolean[];
  toolsEnded: string[];
  runner: ChatSendRunner;
  port: FakePort;
  agent: FakeAgent;
  transcript: ChatTranscript;
  patches: ChatPatch[];
  edits: FakeEdits;
  attachments: ChatAttachments;
  saves: number;
  turns: string[];
  checkpoints: string[];
  note: string | undefined;
  disabled: { reason: string } | undefined;
  newChats: number;
}

function rig(answer: Answer = answers('Hello.')): Rig {
  const port = fakePort();
  const transcript = new ChatTranscript();
  const edits = new FakeEdits();
  const attachments = new ChatAttachments(port.pathOf);
  const agent = new FakeAgent(answer);
  const r = { port, agent, transcript, patches: [] as ChatPatch[], edits, attachments, saves: 0, turns: [] as string[], checkpoints: [] as string[], note: undefined as string | undefined, disabled: undefined as { reason: string } | undefined, newChats: 0, running: [] as boolean[], toolsEnded: [] as string[] } as Rig;
  const store = port.store(undefined)!;
  const hooks: ChatSendRunnerHooks = {
    transcript,
    attachments,
    edits,
    toolFolders: new ToolEntryFolders<ChatFolder>(),
    progress: new ChatProgress(port),
    emit: (patches) => void r.patches.push(...patches),
    restored: async () => undefined,
    switching: async () => undefined,
    disabled: () => r.disabled,
    currentStore: (): ChatStore => store,
    agentFor: async () => agent as unknown as AgentLoop,
    takeNote: () => {
      const note = r.note;
      r.note = undefined;
      return note;
    },
    recordCheckpoint: async (_folder, text) => void r.checkpoints.push(text),
    countTurn: (_store, title) => void r.turns.push(title),
    answerSaved: async () => void (r.saves += 1),
    running: (on) => void r.running.push(on),
    toolEnded: (event) => void r.toolsEnded.push(event.id),
    newChat: async () => {
      r.newChats += 1;
      r.patches.push(...transcript.clear());
    },
  };
  r.runner = new ChatSendRunner(port, hooks);
  return r;
}

const users = (t: ChatTranscript) => t.snapshot().entries.filter((e) => e.kind === 'user').map((e) => (e.kind === 'user' ? e.text : ''));

describe('chat send runner', () => {
  it('sends a message, shows the answer, and around it sets the running context and progress, then saves', async () => {
    const r = rig();
    const result = await r.runner.send('What is in memory?');
    assert.equal(result.started, true);
    assert.deepEqual(r.agent.prompts, ['What is in memory?']);
    assert.deepEqual(users(r.transcript), ['What is in memory?']);
    const answer = r.transcript.snapshot().entries.find((e) => e.kind === 'assistant');
    assert.equal(answer?.kind === 'assistant' && answer.markdown, 'Hello.');
    assert.deepEqual(r.port.runningContext, [true, false]);
    assert.deepEqual(r.port.progress, { started: 1, ended: 1 });
    assert.deepEqual(r.running, [true, false], 'the change summary knows the answer ran');
    assert.equal(r.saves, 1, 'saved before the send resolves');
    assert.deepEqual(r.turns, ['What is in memory?'], 'the turn is counted, titled after the message');
    assert.deepEqual(r.checkpoints, ['What is in memory?'], 'a checkpoint before Claude reads it');
    assert.equal(r.runner.isRunning, false);
    assert.equal(r.runner.canRetry, false);
  });

  it('a message sent while an answer runs is queued, shown as queued, and sent after it in order', async () => {
    const first = gate<AgentOutcome>();
    const r = rig(async (prompt) => (prompt === 'first' ? first.promise : ok()));
    const a = r.runner.send('first');
    await r.agent.whenSent(1);
    assert.equal(r.runner.isRunning, true);
    const b = r.runner.send('second');
    const c = r.runner.send('third');
    assert.deepEqual(r.transcript.snapshot().status.queued?.map((q) => q.text), ['second', 'third'], 'shown as queued at once');
    assert.deepEqual(r.agent.prompts, ['first'], 'not sent while the first answer runs');
    first.open(ok());
    const results = await Promise.all([a, b, c]);
    assert.deepEqual(results.map((x) => x.started), [true, true, true]);
    assert.deepEqual(r.agent.prompts, ['first', 'second', 'third']);
    assert.deepEqual(r.transcript.snapshot().status.queued ?? [], [], 'the queue is empty again');
    assert.deepEqual(users(r.transcript), ['first', 'second', 'third']);
  });

  it('a failed request keeps the question and offers Retry, which sends the same prompt again', async () => {
    const r = rig(answers('', failed('overloaded', 0)));
    const result = await r.runner.send('Summarise progress.md');
    assert.equal(result.started, true);
    assert.equal(result.started && result.outcome.ok, false);
    assert.equal(r.runner.canRetry, true);
    assert.deepEqual(users(r.transcript), ['Summarise progress.md'], 'the question stays on screen');
    r.agent.answer = answers('Done.');
    const retried = await r.runner.retry();
    assert.equal(retried.started && retried.outcome.ok, true);
    assert.deepEqual(r.agent.prompts, ['Summarise progress.md', 'Summarise progress.md']);
    assert.deepEqual(users(r.transcript), ['Summarise progress.md'], 'the same prompt is not shown twice');
    assert.equal(r.runner.canRetry, false);
    assert.deepEqual(await r.runner.retry(), { started: false, reason: 'There is nothing to retry.' });
  });

  it('after a failure with a complete turn, Retry asks Claude to continue instead of sending the prompt twice', async () => {
    const r = rig(answers('Part one.', failed('overloaded', 1)));
    await r.runner.send('Write the plan');
    r.agent.answer = answers('Part two.');
    await r.runner.retry();
    assert.deepEqual(r.agent.prompts, ['Write the plan', CONTINUE_PROMPT]);
    assert.deepEqual(users(r.transcript), ['Write the plan', CONTINUE_PROMPT], '"continue" is a new message and is shown');
  });

  it('a stopped answer offers no Retry; stop() aborts the running send', async () => {
    const r = rig(
      (_prompt, _onEvent, signal) =>
        new Promise<AgentOutcome>((resolve) => signal.addEventListener('abort', () => resolve(failed('cancelled', 0)), { once: true })),
    );
    const sent = r.runner.send('long task');
    await r.agent.whenSent(1);
    assert.equal(r.runner.answering, true);
    r.runner.stop();
    const result = await sent;
    assert.equal(result.started && result.outcome.error?.kind, 'cancelled');
    assert.equal(r.runner.canRetry, false);
    assert.equal(r.runner.answering, false);
  });

  it('without an API key the message is held and sent as soon as a key is set', async () => {
    const r = rig();
    r.port.key = 'missing';
    const held = await r.runner.send('hello');
    assert.deepEqual(held, { started: false, pending: true, reason: 'Set an Anthropic API key: your message is sent as soon as there is one.' });
    assert.deepEqual(r.agent.prompts, []);
    assert.equal(r.transcript.snapshot().status.pendingKey, true);
    assert.equal(await r.runner.refreshKey(), undefined, 'still no key: nothing is sent');
    r.port.key = 'stored';
    const sent = await r.runner.refreshKey();
    assert.equal(sent?.started, true);
    assert.deepEqual(r.agent.prompts, ['hello']);
    assert.equal(r.transcript.snapshot().status.pendingKey ?? false, false);
    assert.equal(r.transcript.snapshot().status.key, 'stored');
  });

  it('a disabled chat gives the message back to the composer with the reason', async () => {
    const r = rig();
    r.disabled = { reason: 'Open a folder to chat.' };
    const result = await r.runner.send('hello');
    assert.deepEqual(result, { started: false, reason: 'Open a folder to chat.' });
    assert.deepEqual(r.agent.prompts, []);
    assert.deepEqual(r.patches.filter((p) => p.type === 'draft'), [{ type: 'draft', text: 'hello', reason: 'Open a folder to chat.' }]);
  });

  it('queued messages of a replaced conversation go back to the composer, not to Claude', async () => {
    const first = gate<AgentOutcome>();
    const r = rig(async (prompt) => (prompt === 'first' ? first.promise : ok()));
    const a = r.runner.send('first');
    await r.agent.whenSent(1);
    const b = r.runner.send('queued one');
    r.runner.forget();
    first.open(ok());
    await a;
    const result = await b;
    assert.equal(result.started, false);
    assert.deepEqual(r.agent.prompts, ['first']);
    const drafts = r.patches.filter((p) => p.type === 'draft');
    assert.equal(drafts.length, 1);
    assert.equal(drafts[0].type === 'draft' && drafts[0].text, 'queued one');
  });

  it('the note of undone edits or a rewind goes first, and chips go with the typed message', async () => {
    const r = rig();
    r.note = 'The user undid your edit of a.ts.';
    r.attachments.add(fakeUri('file:///ws/a/src/a.ts'));
    await r.runner.send('go on');
    assert.deepEqual(r.agent.prompts, ['The user undid your edit of a.ts.\n\ngo on\n\nAttached src/a.ts']);
    assert.deepEqual(r.attachments.list(), [], 'the chips were taken');
    await r.runner.send('again');
    assert.deepEqual(r.agent.prompts[1], 'again', 'the note is told once');
  });

  it('records workspace edits of finished editor calls, for Open Diff and Undo', async () => {
    const r = rig(async (_prompt, onEvent) => {
      onEvent({ type: 'tool_start', id: 'toolu_1', tool: 'str_replace_based_edit_tool', command: 'str_replace', path: 'src/a.ts' });
      onEvent({ type: 'tool_end', id: 'toolu_1', tool: 'str_replace_based_edit_tool', command: 'str_replace', path: 'src/a.ts', is_error: false, summary: 'edited', detail: { kind: 'edit', path: 'src/a.ts', before: 'a', after: 'b' } });
      onEvent({ type: 'done', stop_reason: 'end_turn' });
      return ok();
    });
    await r.runner.send('edit a.ts');
    const card = r.transcript.snapshot().entries.find((e) => e.kind === 'tool');
    assert.ok(card);
    assert.deepEqual(r.edits.get(card.id), { folder: r.port.folders[0], path: 'src/a.ts', before: 'a', after: 'b' });
    assert.deepEqual(r.toolsEnded, ['toolu_1'], 'the change summary hears of the finished call');
  });

  it('a Resume send asks the session once for the progress entry; a fresh send starts a new chat first', async () => {
    const r = rig();
    await r.runner.send('first');
    await r.runner.send('Resume', { label: 'Resume Session', fresh: true, resume: true });
    await r.runner.send('after');
    assert.equal(r.newChats, 1);
    assert.deepEqual(r.agent.requireProgressEntry, [false, true, false]);
    assert.deepEqual(r.turns, ['first', 'Resume Session', 'after'], 'a labelled prompt is titled by its label');
  });
});
