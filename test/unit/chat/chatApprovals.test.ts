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

  it('"Allow sandboxed commands in this chat" allows this command once and tells the tools; only a card that offered it', async () => {
    const r = rig();
    const plain = r.approvals.approver.ask(command);
    assert.equal(r.approvals.approve(r.card('toolu_1'), 'sandboxed'), false, 'an unsandboxed card does not offer it');
    assert.equal(r.sandboxed(), 0);
    r.approvals.approve(r.card('toolu_1'), 'deny');
    await plain;
    const answer = r.approvals.approver.ask({ ...command, sandboxed: true });
    assert.equal(r.approvals.approve(r.card('toolu_1'), 'sandboxed'), true);
    assert.deepEqual(await answer, { decision: 'once' });
    assert.equal(r.sandboxed(), 1);
  });

  it('a host request nobody answered before the command ended is "blocked", below the command\'s own answer, never its denial', async () => {
    const r = rig();
    const asked = r.approvals.approver.ask(command);
    r.approvals.approve(r.card('toolu_1'), 'always', { rule: 'npm test' });
    await asked;
    const network: ApprovalRequest = { kind: 'network', toolUseId: 'toolu_1', command: 'npm test', host: 'registry.npmjs.org', port: 443, program: 'npm' };
    const commandEnds = new AbortController();
    const host = r.approvals.approver.ask(network, commandEnds.signal);
    const entry = () => r.transcript.snapshot().entries.find((e) => e.id === r.card('toolu_1'));
    const pending = entry();
    assert.deepEqual(pending?.kind === 'tool' && pending.network, [{ host: 'registry.npmjs.org', port: 443, state: 'pending', program: 'npm' }]);
    assert.deepEqual(r.waiting.at(-1), ['toolu_1'], 'the badge counts the host question');
    commandEnds.abort();
    assert.deepEqual(await host, { decision: 'deny' }, 'the request is refused');
    const after = entry();
    assert.equal(after?.kind === 'tool' && after.approval?.state, 'always', 'the command\'s own answer stays');
    assert.deepEqual(after?.kind === 'tool' && after.approval?.kind === 'command' && after.approval.prefixes, ['npm test']);
    assert.deepEqual(after?.kind === 'tool' && after.network, [{ host: 'registry.npmjs.org', port: 443, state: 'blocked', program: 'npm', offer: true }]);
    // The offer is made once per host in a chat.
    const again = new AbortController();
    const second = r.approvals.approver.ask({ ...network, port: 80 }, again.signal);
    again.abort();
    await second;
    const twice = entry();
    assert.deepEqual(twice?.kind === 'tool' && twice.network?.map((n) => [n.port, n.state, n.offer]), [[443, 'blocked', true], [80, 'blocked', undefined]]);
  });

  it('a host question is answered by its host; the blocked line adds only the host it offered', async () => {
    const r = rig();
    const network: ApprovalRequest = { kind: 'network', toolUseId: 'toolu_1', command: 'npm test', host: 'example.com', port: 443 };
    const asked = r.approvals.approver.ask(network);
    assert.equal(r.approvals.approve(r.card('toolu_1'), 'once'), false, 'the command question is not the host question');
    assert.equal(r.approvals.approve(r.card('toolu_1'), 'once', { host: 'example.com:80' }), false);
    assert.equal(r.approvals.approve(r.card('toolu_1'), 'deny', { host: 'example.com:443', reason: 'no' }), true);
    assert.deepEqual(await asked, { decision: 'deny' }, 'a host denial has no reason to carry');
    const denied = r.transcript.snapshot().entries.find((e) => e.id === r.card('toolu_1'));
    assert.equal(denied?.kind === 'tool' && denied.network?.[0].state, 'deny', 'the user denied this one');
    const added: string[] = [];
    const add = async (host: string) => void added.push(host);
    assert.equal(await r.approvals.allowBlockedHost(r.card('toolu_1'), 'example.com:443', add), false, 'a denied host is not offered');
    const ends = new AbortController();
    const blocked = r.approvals.approver.ask({ ...network, host: 'registry.npmjs.org' }, ends.signal);
    ends.abort();
    await blocked;
    assert.equal(await r.approvals.allowBlockedHost(r.card('toolu_1'), 'evil.example:443', add), false, 'not a host the card offers');
    assert.equal(await r.approvals.allowBlockedHost(r.card('toolu_1'), 'registry.npmjs.org:443', add), true);
    assert.deepEqual(added, ['registry.npmjs.org']);
    const entry = r.transcript.snapshot().entries.find((e) => e.id === r.card('toolu_1'));
    assert.equal(entry?.kind === 'tool' && entry.network?.find((n) => n.host === 'registry.npmjs.org')?.added, true);
    assert.equal(await r.approvals.allowBlockedHost(r.card('toolu_1'), 'registry.npmjs.org:443', add), false, 'once');
  });

  it('Deny shows what the user said on the card; a question withdrawn by Stop says nobody answered', async () => {
    const r = rig();
    const first = r.approvals.approver.ask(command);
    r.approvals.approve(r.card('toolu_1'), 'deny', { reason: '  use mktemp instead  ' });
    assert.deepEqual(await first, { decision: 'deny', reason: 'use mktemp instead' });
    assert.deepEqual(r.approvalOf('toolu_1'), { kind: 'command', command: command.command, prefixes: ['npm test', 'rm -rf'], state: 'deny', reason: 'use mktemp instead' });
    const second = r.approvals.approver.ask(edit);
    r.approvals.denyAll();
    assert.deepEqual(await second, { decision: 'deny' });
    assert.equal(r.approvalOf('toolu_2')?.unanswered, true);
    assert.equal(r.approvalOf('toolu_2')?.reason, undefined);
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
