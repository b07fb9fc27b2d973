/**
 * The follow-up buttons under a message (Initialize's draft: "Review features.json", "Resume
 * Session"): the protocol both ways, where the transcript puts them, that they survive a save and
 * a reload, what the controller refuses, and what a click runs (followUpTarget.ts).
 */
import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/core/agent/events';
import { draftNextSteps, reportDraft } from '../../../src/core/session/draftReport';
import { ChatController } from '../../../src/features/chat/chatController';
import { ChatTranscript, parseSavedConversation } from '../../../src/features/chat/chatTranscript';
import { FOLLOW_UP_COMMANDS, followUpRun } from '../../../src/features/chat/followUpTarget';
import { isEntry, parseExtensionMessage, parseWebviewMessage, type ChatEntry, type FollowUps } from '../../../src/features/chat/shared/protocol';
import { COMMANDS } from '../../../src/platform/ids';
import { startMockMessagesApi, type MockMessagesApi } from '../../support/mockMessagesApi';
import { fakeFolder, fakePort } from './fakeChatPort';

const MODEL = 'claude-sonnet-4-5';
const usage = { input_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 5 };
const BOTH: FollowUps = { folder: 'app', actions: ['reviewFeatures', 'resume'] };

/** A draft's answer: text, a memory write, the closing text and the usage line. */
function draftAnswer(t: ChatTranscript): void {
  const events: AgentEvent[] = [
    { type: 'text', text: 'I will draft the list.' },
    { type: 'usage', usage },
    { type: 'tool_start', id: 'toolu_1', command: 'str_replace', path: '/memories/features.json' },
    { type: 'tool_end', id: 'toolu_1', command: 'str_replace', path: '/memories/features.json', is_error: false, summary: 'edited' },
    { type: 'turn_end', stop_reason: 'tool_use' },
    { type: 'text', text: 'Added 5 features; start with F001.' },
    { type: 'usage', usage },
    { type: 'turn_end', stop_reason: 'end_turn' },
    { type: 'done', stop_reason: 'end_turn' },
  ];
  t.begin('draft the features', MODEL, { label: 'Initialize Project Memory · draft the feature list' });
  for (const e of events) t.apply(e);
}

const last = <K extends ChatEntry['kind']>(t: ChatTranscript, kind: K): Extract<ChatEntry, { kind: K }> | undefined =>
  t.snapshot().entries.filter((e): e is Extract<ChatEntry, { kind: K }> => e.kind === kind).at(-1);

describe('chat follow-ups: the protocol', () => {
  it('accepts a click with a known action and an entry id; refuses anything else', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'followUp', entryId: 'e7', action: 'resume' }), { type: 'followUp', entryId: 'e7', action: 'resume' });
    assert.deepEqual(parseWebviewMessage({ type: 'followUp', entryId: 'e7', action: 'reviewFeatures', folder: '/etc' }), { type: 'followUp', entryId: 'e7', action: 'reviewFeatures' }, 'a folder from the webview is dropped');
    for (const bad of [
      { type: 'followUp', entryId: 'e7', action: 'initialize' },
      { type: 'followUp', entryId: '../e7', action: 'resume' },
      { type: 'followUp', action: 'resume' },
      { type: 'followUp', entryId: 'e7' },
    ]) {
      assert.equal(parseWebviewMessage(bad), undefined, JSON.stringify(bad));
    }
  });

  it('an entry carries follow-ups only on a message or a notice, well formed; the webview refuses a malformed one', () => {
    assert.equal(isEntry({ kind: 'assistant', id: 'e2', markdown: 'x', streaming: false, followUps: BOTH }), true);
    assert.equal(isEntry({ kind: 'notice', id: 'e3', text: 'x', followUps: { folder: 'app', actions: ['reviewFeatures'] } }), true);
    for (const bad of [
      { kind: 'tool', id: 'e4', command: 'view', status: 'ok', followUps: BOTH },
      { kind: 'assistant', id: 'e2', markdown: 'x', streaming: false, followUps: { folder: 'app', actions: [] } },
      { kind: 'assistant', id: 'e2', markdown: 'x', streaming: false, followUps: { folder: 'app', actions: ['resume', 'resume'] } },
      { kind: 'assistant', id: 'e2', markdown: 'x', streaming: false, followUps: { folder: 'app', actions: ['deleteAll'] } },
      { kind: 'assistant', id: 'e2', markdown: 'x', streaming: false, followUps: { folder: '', actions: ['resume'] } },
      { kind: 'assistant', id: 'e2', markdown: 'x', streaming: false, followUps: ['resume'] },
    ]) {
      assert.equal(isEntry(bad), false, JSON.stringify(bad));
      assert.equal(parseExtensionMessage({ type: 'entry', entry: bad }), undefined);
    }
  });
});

describe('chat follow-ups: the transcript', () => {
  it('puts the buttons on the last text of the last answer (above its usage line), not on a new row', () => {
    const t = new ChatTranscript();
    draftAnswer(t);
    const before = t.snapshot().entries.length;
    const patches = t.followUps(BOTH, 'unused', true);
    const entries = t.snapshot().entries;
    assert.equal(entries.length, before, 'no row added');
    assert.deepEqual(entries.map((e) => e.kind), ['user', 'assistant', 'tool', 'assistant', 'usage']);
    const answer = entries[3];
    assert.ok(answer.kind === 'assistant');
    assert.equal(answer.markdown, 'Added 5 features; start with F001.');
    assert.deepEqual(answer.followUps, BOTH);
    assert.equal(entries[1].kind === 'assistant' && entries[1].followUps, undefined, 'the earlier text has none');
    assert.deepEqual(patches, [{ type: 'entry', entry: answer }], 'the webview gets the changed row');
  });

  it('a line of their own with the note: when asked for, or when the last message has no text of Claude', () => {
    const t = new ChatTranscript();
    draftAnswer(t);
    t.followUps({ folder: 'app', actions: ['reviewFeatures'] }, "Claude's draft added no features. Add features to features.json.", false);
    assert.deepEqual(last(t, 'notice'), { kind: 'notice', id: last(t, 'notice')!.id, text: "Claude's draft added no features. Add features to features.json.", followUps: { folder: 'app', actions: ['reviewFeatures'] } });
    assert.equal(last(t, 'assistant')!.followUps, undefined);

    // A message that got no answer text (an error before any): the earlier conversation's answer is not its.
    const u = new ChatTranscript();
    draftAnswer(u);
    u.begin('again', MODEL);
    u.apply({ type: 'error', kind: 'network', message: 'Claude cannot be reached.' } as AgentEvent);
    u.followUps(BOTH, 'The draft did not finish.', true);
    assert.equal(u.snapshot().entries.filter((e) => e.kind === 'assistant' && e.followUps).length, 0);
    assert.deepEqual(last(u, 'notice')?.followUps, BOTH);
    assert.equal(last(u, 'notice')?.text, 'The draft did not finish.');
  });

  it('survive a save and a reload of the chat (Chat History form → a new transcript)', () => {
    const t = new ChatTranscript();
    draftAnswer(t);
    t.followUps(BOTH, 'unused', true);
    const saved = parseSavedConversation(JSON.parse(JSON.stringify(t.saved())));
    assert.ok(saved, 'the saved chat reads back');
    const reloaded = new ChatTranscript();
    const [patch] = reloaded.restore(saved);
    assert.ok(patch.type === 'snapshot');
    const answer = patch.snapshot.entries.filter((e) => e.kind === 'assistant').at(-1);
    assert.deepEqual(answer?.kind === 'assistant' && answer.followUps, BOTH);
    assert.ok(parseExtensionMessage(patch), 'the webview accepts the snapshot');
  });
});

describe('chat follow-ups: what a draft leads to', () => {
  const features = (ids: string[]): string => JSON.stringify(ids.map((id) => ({ id, category: 'c', description: 'd', steps: [], passes: false })));
  const ok = { started: true as const, outcome: { ok: true as const, stopReason: 'end_turn' } } as unknown as Parameters<typeof reportDraft>[2];

  it('a finished draft that added features: Review and Resume on the answer; otherwise only Review, on a line that says why', () => {
    assert.deepEqual(draftNextSteps(reportDraft(features([]), features(['F001', 'F002']), ok)), {
      resume: true,
      note: 'Claude added 2 features. Review features.json, then resume the session to start working.',
    });
    assert.deepEqual(draftNextSteps(reportDraft(features(['F001']), features(['F001']), ok)), {
      resume: false,
      note: "Claude's draft added no features. Add features to features.json, or ask Claude here to draft them.",
    });
    const notStarted = draftNextSteps(reportDraft(features([]), features([]), { started: false, reason: 'the chat did not take the prompt.' }));
    assert.equal(notStarted.resume, false);
    assert.match(notStarted.note, /The draft did not start: the chat did not take the prompt\. Add features/);
  });
});

describe('chat follow-ups: a click', () => {
  const app = fakeFolder('app', 0);
  const web = fakeFolder('web', 1);
  const entries: ChatEntry[] = [
    { kind: 'assistant', id: 'e2', markdown: 'done', streaming: false, followUps: BOTH },
    { kind: 'notice', id: 'e3', text: 'no features', followUps: { folder: 'web', actions: ['reviewFeatures'] } },
    { kind: 'assistant', id: 'e4', markdown: 'plain', streaming: false },
  ];

  it('runs the id table\'s command for the folder the message names, whichever folder the chat is in', () => {
    assert.deepEqual(FOLLOW_UP_COMMANDS, { reviewFeatures: COMMANDS.openFeature, resume: COMMANDS.resume });
    assert.deepEqual(followUpRun(entries, 'e2', 'reviewFeatures', [app, web], web), { ok: true, command: COMMANDS.openFeature, args: [app.uri] });
    assert.deepEqual(followUpRun(entries, 'e2', 'resume', [app, web], web), { ok: true, command: COMMANDS.resume, args: [{ folder: app.uri }] });
    assert.deepEqual(followUpRun(entries, 'e3', 'reviewFeatures', [app, web], app), { ok: true, command: COMMANDS.openFeature, args: [web.uri] });
  });

  it('refuses a button the message does not have, an unknown message, and a folder no longer open', () => {
    assert.deepEqual(followUpRun(entries, 'e3', 'resume', [app, web], app), { ok: false, reason: 'This button is no longer part of the chat.' });
    assert.deepEqual(followUpRun(entries, 'e4', 'resume', [app, web], app), { ok: false, reason: 'This button is no longer part of the chat.' });
    assert.deepEqual(followUpRun(entries, 'e99', 'resume', [app, web], app), { ok: false, reason: 'This button is no longer part of the chat.' });
    assert.deepEqual(followUpRun(entries, 'e2', 'resume', [web], web), { ok: false, reason: 'The folder "app" is no longer open in this workspace.' });
  });

  it('two folders of one name: the chat\'s own folder first', () => {
    const twin = { ...fakeFolder('app', 2), uri: fakeFolder('app-2').uri, name: 'app' };
    const run = followUpRun(entries, 'e2', 'reviewFeatures', [app, web, twin], twin);
    assert.ok(run.ok && run.args[0] === twin.uri);
  });
});

describe('chat follow-ups: the controller', () => {
  let server: MockMessagesApi;
  const controllers: ChatController[] = [];
  beforeEach(async () => void (server = await startMockMessagesApi([])));
  afterEach(async () => {
    for (const c of controllers.splice(0)) c.dispose();
    await server.close();
  });
  const controller = (folders = [fakeFolder('app', 0), fakeFolder('web', 1)]): ChatController => {
    const c = new ChatController(fakePort({ folders, settings: { apiBaseUrl: server.url } }));
    controllers.push(c);
    return c;
  };

  it('puts them on the answer of the chat\'s folder, by its name; refuses another folder and a running answer', async () => {
    const c = controller();
    await c.restored;
    const [app, web] = [fakeFolder('app', 0), fakeFolder('web', 1)];
    server.script([{ content: [{ type: 'text', text: 'Drafted.' }] }]);
    assert.equal((await c.send('draft', { label: 'Initialize' })).started, true);
    assert.equal(c.addFollowUps(web.uri, ['reviewFeatures', 'resume'], 'n', true), false, 'the chat works in "app"');
    assert.equal(c.snapshot().entries.some((e) => 'followUps' in e), false);

    // While an answer runs, its conversation is not the draft's any more.
    server.script([{ content: [{ type: 'text', text: 'Later.' }] }]);
    const started = new Promise<void>((resolve) => {
      const sub = c.onPatch(() => {
        if (!c.isRunning) return;
        sub.dispose();
        resolve();
      });
    });
    const running = c.send('something else');
    await started;
    assert.equal(c.addFollowUps(app.uri, ['reviewFeatures'], 'n', true), false);
    await running;
    assert.equal(c.snapshot().entries.some((e) => 'followUps' in e), false);

    assert.equal(c.addFollowUps(app.uri, ['reviewFeatures', 'resume'], 'n', true), true);
    const answer = c.snapshot().entries.filter((e) => e.kind === 'assistant').at(-1);
    assert.deepEqual(answer?.kind === 'assistant' && answer.followUps, { folder: 'app', actions: ['reviewFeatures', 'resume'] });
  });
});
