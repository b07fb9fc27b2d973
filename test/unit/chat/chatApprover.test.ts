import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ApprovalDecision, ApprovalRequest } from '../../../src/core/agent/tools';
import { ChatApprover, questionKey } from '../../../src/features/chat/chatApprover';
import { ChatTranscript, lineCounts, type ChatPatch } from '../../../src/features/chat/chatTranscript';

const command: ApprovalRequest = { kind: 'command', toolUseId: 'toolu_1', command: 'npm test && rm -rf dist', prefixes: ['npm test', 'rm -rf'] };
const edit: ApprovalRequest = { kind: 'edit', toolUseId: 'toolu_2', path: 'src/app.ts', before: 'a\nb\nc\n', after: 'a\nB\nc\nd\n' };

function recordingApprover(): { approver: ChatApprover; asked: ApprovalRequest[]; answered: [string, ApprovalDecision][] } {
  const asked: ApprovalRequest[] = [];
  const answered: [string, ApprovalDecision][] = [];
  const approver = new ChatApprover({ asked: (r) => asked.push(r), answered: (r, d) => void answered.push([r.toolUseId, d]) });
  return { approver, asked, answered };
}

describe('chat approver: questions on cards', () => {
  it('asks, and resolves with the click', async () => {
    const { approver, asked, answered } = recordingApprover();
    const decision = approver.ask(command);
    assert.deepEqual(asked, [command]);
    assert.equal(approver.waiting('toolu_1'), command);
    assert.equal(approver.decide('toolu_1', 'always'), true);
    assert.deepEqual(await decision, { decision: 'always' });
    assert.deepEqual(answered, [['toolu_1', 'always']]);
    assert.equal(approver.decide('toolu_1', 'deny'), false, 'a second click changes nothing');
  });

  it('"Always allow" names one offered rule; a rule the card did not offer is refused; Deny carries the reason', async () => {
    const { approver } = recordingApprover();
    const first = approver.ask(command);
    assert.equal(approver.decide('toolu_1', 'always', { rule: 'rm' }), false, 'not one of the offered rules');
    assert.equal(approver.decide('toolu_1', 'always', { rule: 'npm test' }), true);
    assert.deepEqual(await first, { decision: 'always', rule: 'npm test' });
    const second = approver.ask(command);
    approver.decide('toolu_1', 'deny', { reason: 'use yarn instead' });
    assert.deepEqual(await second, { decision: 'deny', reason: 'use yarn instead' });
  });

  it('"Always allow" without a rule remembers every offered rule, and needs one to remember', async () => {
    const { approver } = recordingApprover();
    const all = approver.ask(command);
    assert.equal(approver.decide('toolu_1', 'always'), true);
    assert.deepEqual(await all, { decision: 'always' });
    const nothing = approver.ask({ ...command, prefixes: [] });
    assert.equal(approver.decide('toolu_1', 'always'), false, 'nothing to remember');
    approver.decide('toolu_1', 'once');
    assert.deepEqual(await nothing, { decision: 'once' });
  });

  it('a withdrawn question is refused as nobody\'s answer; one host asked twice waits for one answer', async () => {
    const outcomes: unknown[] = [];
    const approver = new ChatApprover({ asked: () => undefined, answered: (_r, decision, outcome) => outcomes.push([decision, outcome]) });
    const stop = new AbortController();
    const waiting = approver.ask(command, stop.signal);
    stop.abort();
    assert.deepEqual(await waiting, { decision: 'deny' });
    assert.deepEqual(outcomes, [['deny', { withdrawn: true }]]);
    const host: ApprovalRequest = { kind: 'network', toolUseId: 'toolu_1', command: 'npm test', host: 'example.com', port: 443 };
    const one = approver.ask(host);
    const two = approver.ask(host);
    assert.equal(approver.waitingRequests.length, 1);
    assert.equal(approver.decide(questionKey('toolu_1', 'example.com:443'), 'once'), true);
    assert.deepEqual([await one, await two], [{ decision: 'once' }, { decision: 'once' }]);
  });

  it('accepts an edit once even when "always" arrives', async () => {
    const { approver } = recordingApprover();
    const decision = approver.ask(edit);
    approver.decide('toolu_2', 'always');
    assert.deepEqual(await decision, { decision: 'once' });
  });

  it('denies when Stop fires, before or while asking, and on denyAll', async () => {
    const { approver, answered } = recordingApprover();
    const stop = new AbortController();
    const waiting = approver.ask(command, stop.signal);
    stop.abort();
    assert.deepEqual(await waiting, { decision: 'deny' });
    assert.deepEqual(answered, [['toolu_1', 'deny']]);
    assert.deepEqual(await approver.ask(edit, stop.signal), { decision: 'deny' }, 'an aborted send asks nothing');
    const later = approver.ask(edit);
    approver.denyAll();
    assert.deepEqual(await later, { decision: 'deny' });
  });
});

describe('chat transcript: workspace tool cards', () => {
  function card(t: ChatTranscript, id: string) {
    return t.snapshot().entries.find((e) => e.id === id && e.kind === 'tool');
  }

  it('shows the question and its answer on the call\'s card, and keeps them when the call ends', () => {
    const t = new ChatTranscript();
    t.begin('run the tests', 'claude-sonnet-4-5');
    t.apply({ type: 'tool_start', id: 'toolu_1', tool: 'bash', command: 'run', path: command.kind === 'command' ? command.command : '' });
    const entryId = t.entryIdOf('toolu_1')!;
    const asked = t.setApproval('toolu_1', command, 'pending');
    assert.deepEqual(card(t, entryId)?.kind === 'tool' && card(t, entryId), {
      kind: 'tool',
      id: entryId,
      tool: 'bash',
      command: 'run',
      path: 'npm test && rm -rf dist',
      status: 'running',
      approval: { kind: 'command', command: 'npm test && rm -rf dist', prefixes: ['npm test', 'rm -rf'], state: 'pending' },
    });
    assert.equal(t.status().working, undefined, 'no "waiting for Claude" while Claude waits for the user');
    assert.ok(asked.some((p) => p.type === 'entry'));
    t.setApproval('toolu_1', command, 'once');
    const patches: ChatPatch[] = [...t.apply({ type: 'tool_output', id: 'toolu_1', text: 'ok 1\n' }), ...t.apply({ type: 'tool_output', id: 'toolu_1', text: 'ok 2\n' })];
    assert.deepEqual(patches, [
      { type: 'output', id: entryId, text: 'ok 1\n' },
      { type: 'output', id: entryId, text: 'ok 2\n' },
    ]);
    t.apply({ type: 'tool_end', id: 'toolu_1', tool: 'bash', command: 'run', path: 'npm test', is_error: false, summary: 'ran npm test (exit 0)', detail: { kind: 'command', command: 'npm test', exitCode: 0 } });
    const done = card(t, entryId);
    assert.equal(done?.kind === 'tool' && done.approval?.state, 'once');
    assert.equal(done?.kind === 'tool' && done.output, 'ok 1\nok 2\n');
  });

  it('keeps only the end of long output', () => {
    const t = new ChatTranscript();
    t.begin('x', 'claude-sonnet-4-5');
    t.apply({ type: 'tool_start', id: 'b', tool: 'bash', command: 'run', path: 'yes' });
    for (let i = 0; i < 40; i++) t.apply({ type: 'tool_output', id: 'b', text: `${String(i).padStart(4, '0')}${'y'.repeat(996)}` });
    const output = (card(t, t.entryIdOf('b')!) as { output: string }).output;
    assert.equal(output.length, 16_000);
    assert.ok(output.endsWith('y'.repeat(996)) && output.includes('0039'));
    assert.ok(!output.includes('0000'));
  });

  it('puts an applied edit on its card with its size, and marks it undone', () => {
    const t = new ChatTranscript();
    t.begin('fix it', 'claude-sonnet-4-5');
    t.apply({ type: 'tool_end', id: 'e', tool: 'str_replace_based_edit_tool', command: 'str_replace', path: 'src/app.ts', is_error: false, summary: 'edited src/app.ts', detail: { kind: 'edit', path: 'src/app.ts', before: 'a\nb\nc\n', after: 'a\nB\nc\nd\n' } });
    const id = t.entryIdOf('e')!;
    assert.deepEqual((card(t, id) as { edit: unknown }).edit, { path: 'src/app.ts', added: 2, removed: 1 });
    t.markUndone(id);
    assert.deepEqual((card(t, id) as { edit: unknown }).edit, { path: 'src/app.ts', added: 2, removed: 1, undone: true });
  });

  it('counts changed lines outside the common start and end', () => {
    assert.deepEqual(lineCounts('a\nb\nc', 'a\nb\nc'), { added: 0, removed: 0 });
    assert.deepEqual(lineCounts(undefined, 'x\ny'), { added: 2, removed: 0 });
    assert.deepEqual(lineCounts('a\nb\nc', 'a\nX\nY\nc'), { added: 2, removed: 1 });
    assert.deepEqual(lineCounts('a\na', 'a'), { added: 0, removed: 1 });
  });

  it('counts lines as git does, so a card and the change summary agree (a created 8-line file is +8 on both)', () => {
    const eight = Array.from({ length: 8 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const cases: Array<[string | undefined, string]> = [
      [undefined, eight],
      [undefined, 'no newline at the end'],
      ['a\nb\n', 'a\nb'],
      ['a\nb', 'a\nb\nc\n'],
      ['x\n\n\ny\n', 'x\n\ny\nz\n'],
      [eight, eight.replace('line 3', 'line three').replace('line 7\n', '')],
      ['', ''],
    ];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-linecounts-'));
    try {
      for (const [before, after] of cases) {
        fs.writeFileSync(path.join(dir, 'a'), before ?? '');
        fs.writeFileSync(path.join(dir, 'b'), after);
        // What the summary reads: git's own +/- for the same two texts (numstat of --no-index).
        const out = spawnSync('git', ['diff', '--no-index', '--numstat', '--', before === undefined ? '/dev/null' : 'a', 'b'], { cwd: dir, encoding: 'utf8' }).stdout;
        const [added, removed] = out === '' ? [0, 0] : out.split('\t').slice(0, 2).map(Number);
        assert.deepEqual(lineCounts(before, after), { added, removed }, JSON.stringify([before, after]));
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
