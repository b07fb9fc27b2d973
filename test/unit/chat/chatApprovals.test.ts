import * as assert from 'node:assert/strict';
import type { ApprovalRequest } from '../../../src/core/agent/tools';
import { ChatApprovals } from '../../../src/features/chat/chatApprovals';
import { ChatTranscript, type ChatPatch } from '../../../src/features/chat/chatTranscript';
import type { ChatFolder } from '../../../src/features/chat/chatPort';
import { fakePort, FakeEdits } from './fakeChatPort';

const command: ApprovalRequest = { kind: 'command', toolUseId: 'toolu_1', command: 'npm test && rm -rf dist', prefixes: ['npm test', 'rm -rf'] };
const edit: ApprovalRequest = { kind: 'edit', toolUseId: 'toolu_2', path: 'src/app.ts', before: 'a\n', after: 'b\n' };

function rig() {
  const port = fakePort();
  const transcript = new ChatTranscript();
  transcript.begin('run the tests', 'claude-test-model');
  transcript.apply({ type: 'tool_start', id: 'toolu_1', tool: 'bash', command: 'run', path: 'npm test && rm -rf dist' });
  transcript.apply({ type: 'tool_start', id: 'toolu_2', tool: 'str_replace_based_edit_tool', command: 'str_replace', path: 'src/app.ts' });
  const edits = new FakeEdits();
  const patches: ChatPatch[] = [];
  const progress: boolean[] = [];
  const waiting: string[][] = [];
  let sandboxed = 0;
  const state = { answering: true, folder: port.folders[0] as ChatFolder | undefined };
  const approvals = new ChatApprovals(port, {
    transcript,
    edits,
    emit: (p) => void patches.push(...p),
    showProgress: (on) => void progress.push(on),
    answering: () => state.answering,
    runningFolder: () => state.folder,
    allowSandboxedCommands: () => void (sandboxed += 1),
  });
  approvals.onDidChangeWaiting((requests) => void waiting.push(requests.map((r) => r.toolUseId)));
  const card = (toolUseId: string) => transcript.entryIdOf(toolUseId)!;
  const approvalOf = (toolUseId: string) => {
    const entry = transcript.snapshot().entries.find((e) => e.id === card(toolUseId));
    return entry?.kind === 'tool' ? entry.approval : undefined;
  };
  return { approvals, transcript, edits, patches, progress, waiting, state, card, approvalOf, sandboxed: () => sandboxed, port };
}

describe('chat approvals: the approval broker', () => {
  it('puts the question on its card, stops the progress, and resolves the tool\'s ask with the click', async () => {
    const r = rig();
    const answer = r.approvals.approver.ask(command);
    assert.equal(r.approvalOf('toolu_1')?.state, 'pending');
    assert.deepEqual(r.progress, [false], 'the spinner stops while the user is asked');
    assert.deepEqual(r.waiting, [['toolu_1']], 'the badge counts it');
    assert.equal(r.approvals.approve(r.card('toolu_1'), 'always', { rule: 'npm test' }), true);
    assert.deepEqual(await answer, { decision: 'always', rule: 'npm test' });
    assert.deepEqual(r.waiting, [['toolu_1'], []]);
    assert.deepEqual(r.progress, [false, true], 'the answer goes on: the spinner is back');
    const approval = r.approvalOf('toolu_1');
    assert.equal(approval?.state, 'always');
    assert.deepEqual(approval?.kind === 'command' && approval.prefixes, ['npm test'], 'the card names the rule chosen');
    assert.equal(r.approvals.approve(r.card('toolu_1'), 'deny'), false, 'a second click asks nothing any more');
  });

  it('Deny carries the reason; a card that asks nothing and a rule the card did not offer are refused', async () => {
    const r = rig();
    assert.equal(r.approvals.approve('no-such-card', 'once'), false);
    const answer = r.approvals.approver.ask(command);
    assert.equal(r.approvals.approve(r.card('toolu_1'), 'always', { rule: 'rm' }), false);
    assert.equal(r.approvals.approve(r.card('toolu_1'), 'deny', { reason: 'use yarn' }), true);
    assert.deepEqual(await answer, { decision: 'deny', reason: 'use yarn' });
    assert.equal(r.approvalOf('toolu_1')?.state, 'deny');
  });

  it('"Allow sandboxed commands in this chat" allows this command once and tells the tools', async () => {
    const r = rig();
    const answer = r.approvals.approver.ask(command);
    assert.equal(r.approvals.approve(r.card('toolu_1'), 'sandboxed'), true);
    assert.deepEqual(await answer, { decision: 'once' });
    assert.equal(r.sandboxed(), 1);
  });

  it('an edit waiting for Accept is recorded for Open Diff, in the running send\'s folder', async () => {
    const r = rig();
    const answer = r.approvals.approver.ask(edit);
    assert.deepEqual(r.edits.get(r.card('toolu_2')), { folder: r.port.folders[0], path: 'src/app.ts', before: 'a\n', after: 'b\n' });
    r.approvals.approve(r.card('toolu_2'), 'once');
    assert.deepEqual(await answer, { decision: 'once' });
  });

  it('denyAll refuses every open question; after the answer ended the spinner stays off', async () => {
    const r = rig();
    const first = r.approvals.approver.ask(command);
    const second = r.approvals.approver.ask(edit);
    assert.deepEqual(r.waiting.at(-1), ['toolu_1', 'toolu_2']);
    r.state.answering = false;
    r.approvals.denyAll();
    assert.deepEqual(await first, { decision: 'deny' });
    assert.deepEqual(await second, { decision: 'deny' });
    assert.deepEqual(r.waiting.at(-1), []);
    assert.ok(!r.progress.includes(true), 'no spinner for an answer that is over');
  });

  it('clear() forgets the cards\' questions of a replaced conversation', () => {
    const r = rig();
    void r.approvals.approver.ask(command);
    r.approvals.clear();
    assert.equal(r.approvals.approve(r.card('toolu_1'), 'once'), false);
    r.approvals.denyAll();
  });
});
