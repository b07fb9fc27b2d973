import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROGRESS_REMINDER, RELOAD_HEADER, RELOAD_PROGRESS_LINES, reloadFromMemory, responseUsage, storeFileReader } from '../../../src/core/agent/compaction';
import { NodeMemoryFileSystem } from '../../../src/platform/node/nodeFileSystem';
import { addUsage, emptyUsage, type AgentUsage } from '../../../src/core/agent/events';
import type { RecordedRequest } from '../../support/mockMessagesApi';
import { messagesOf, recorder, sessionFor, useAgentTestBed } from './helpers';

const TEMPLATE = fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'media', 'templates', 'compaction-instructions.md'), 'utf8');

const FEATURES = JSON.stringify(
  [
    { id: 'F001', category: 'core', description: 'Parse the config file', steps: ['run it'], passes: true },
    { id: 'F002', category: 'core', description: 'Report a bad key with its line', steps: ['run it'], passes: false },
    { id: 'F003', category: 'ui', description: 'Show the errors in a list', steps: ['run it'], passes: false },
  ],
  null,
  2,
);
const PROGRESS_LINES = Array.from({ length: 60 }, (_, i) => `- entry ${i + 1}: did step ${i + 1}`);

/** ~5k tokens of file to view: the scripted API counts 4 characters a token. */
const BIG = Array.from({ length: 420 }, (_, i) => `line ${i} of the long log the test session reads back`).join('\n');

function texts(request: RecordedRequest): string[] {
  const out: string[] = [];
  for (const m of messagesOf(request.body)) {
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (const b of m.content) if (b.type === 'text') out.push(String(b.text));
  }
  return out;
}

function lastUser(request: RecordedRequest): Array<Record<string, unknown>> {
  const messages = messagesOf(request.body);
  const last = messages[messages.length - 1];
  assert.equal(last.role, 'user');
  return last.content as Array<Record<string, unknown>>;
}

/** The server's reported usage of a request, top level plus compaction iterations. */
function billed(request: RecordedRequest): AgentUsage {
  const u = request.usage!;
  let total: AgentUsage = { input_tokens: u.input_tokens, cache_read_input_tokens: u.cache_read_input_tokens, cache_creation_input_tokens: u.cache_creation_input_tokens, output_tokens: u.output_tokens };
  for (const it of u.iterations ?? []) {
    if (it.type === 'compaction') total = addUsage(total, { input_tokens: it.input_tokens, cache_read_input_tokens: it.cache_read_input_tokens, cache_creation_input_tokens: it.cache_creation_input_tokens, output_tokens: it.output_tokens });
  }
  return total;
}

describe('compaction keeps a long session\'s state: save before, instructions, reload after, meter', () => {
  const bed = useAgentTestBed();

  function seed(files: { progress?: boolean; features?: boolean; startup?: boolean } = { progress: true, features: true, startup: true }): void {
    const dir = bed.store.storeDir;
    if (files.progress) fs.writeFileSync(path.join(dir, 'progress.md'), `# Progress\n\n${PROGRESS_LINES.join('\n')}\n`);
    if (files.features) fs.writeFileSync(path.join(dir, 'features.json'), `${FEATURES}\n`);
    if (files.startup) fs.writeFileSync(path.join(dir, 'startup.md'), '# How to start\n\nnpm test\n');
    fs.writeFileSync(path.join(dir, 'big.log'), BIG);
  }

  it('asks to save before the compacting request, the write lands in progress.md, and after the pause the block goes back verbatim with the reloaded state', async () => {
    seed();
    const trigger = 9_000;
    const server = await bed.serve(
      [
        { content: [{ type: 'tool_use', id: 'toolu_1', input: { command: 'view', path: '/memories/big.log' } }] },
        { content: [{ type: 'tool_use', id: 'toolu_2', input: { command: 'view', path: '/memories/features.json' } }] },
        // Claude answers the save request: its entry goes at the end of progress.md.
        { content: [{ type: 'tool_use', id: 'toolu_3', input: { command: 'insert', path: '/memories/progress.md', insert_line: 62, insert_text: '- SAVED: F002 half done; next: the line number' } }] },
        { content: [{ type: 'tool_use', id: 'toolu_4', input: { command: 'view', path: '/memories/big.log' } }] },
        // (the API compacts here: a pause that consumes no scripted turn)
        { content: [{ type: 'text', text: 'Picking F002 up again.' }] },
      ],
      { compactionSummary: () => 'Summary: fixing F002 (bad key line numbers) in src/config.ts; npm test verifies.' },
    );
    const rec = recorder();
    const session = sessionFor(server, bed.store.engine, { compaction: true, compactionTrigger: trigger, compactionSaveThreshold: 0.5, compactionInstructions: TEMPLATE, contextEditing: false });
    const outcome = await session.send('work on the next feature', rec.listener);
    assert.equal(outcome.ok, true, outcome.error?.message);

    // The edit carries the template's instructions (without its comment for readers).
    const edit = (server.requests[0].body.context_management as { edits: Array<Record<string, unknown>> }).edits.find((e) => e.type === 'compact_20260112')!;
    assert.match(String(edit.instructions), /Do not call any tool while summarising/);
    assert.doesNotMatch(String(edit.instructions), /<!--/);
    assert.deepEqual(edit.trigger, { type: 'input_tokens', value: trigger });

    // Which request compacted: the one answered with stop_reason "compaction".
    const compactedAt = server.requests.findIndex((r) => r.usage?.iterations?.some((i) => i.type === 'compaction'));
    assert.ok(compactedAt > 0, 'the scripted API compacted');
    const savedAt = server.requests.findIndex((r) => texts(r).some((t) => t.startsWith('Context check:')));
    assert.ok(savedAt >= 0 && savedAt < compactedAt, `the save request (request ${savedAt}) comes before the compacting one (${compactedAt})`);
    // After the tool results of its turn, as a text block.
    const carrying = lastUser(server.requests[savedAt]);
    assert.equal(carrying[0].type, 'tool_result');
    assert.equal(carrying[carrying.length - 1].type, 'text');
    // Once per cycle.
    assert.equal(rec.of('memory_prompt').filter((e) => e.kind === 'save').length, 1);
    assert.match(bed.store.read('progress.md'), /- SAVED: F002 half done/);

    // The request after the pause: the compaction block verbatim, then the reloaded state.
    const after = server.requests[compactedAt + 1];
    const messages = messagesOf(after.body);
    const pause = messages[messages.length - 2];
    assert.equal(pause.role, 'assistant');
    const block = (pause.content as Array<Record<string, unknown>>)[0];
    assert.equal(block.type, 'compaction');
    assert.equal(block.content, 'Summary: fixing F002 (bad key line numbers) in src/config.ts; npm test verifies.');
    assert.match(String(block.encrypted_content), /^enc_mock_/);
    const reload = String(lastUser(after)[0].text);
    assert.ok(reload.startsWith(RELOAD_HEADER));
    assert.match(reload, /- SAVED: F002 half done/, 'the saved entry is in the reloaded tail');
    assert.doesNotMatch(reload, /- entry 1: /, 'only the tail of progress.md');
    assert.match(reload, /1 \/ 3 features passing\. Next failing: F002 "Report a bad key with its line"; F003/);
    assert.match(reload, /npm test/);

    const [event] = rec.of('compaction');
    assert.deepEqual(event.reloaded, ['progress', 'checklist', 'startup']);
    assert.match(event.line, /^Context compacted — \d+k → \d+ tokens; progress, checklist and startup notes reloaded from memory$/);

    // Meter: the total is every request's top-level usage plus its compaction iterations.
    const expected = server.requests.filter((r) => r.usage).map(billed).reduce(addUsage, emptyUsage());
    assert.deepEqual(outcome.usage, expected);
    const iteration = server.requests[compactedAt].usage!.iterations![0];
    assert.ok(iteration.input_tokens + iteration.cache_read_input_tokens + iteration.cache_creation_input_tokens >= trigger);
    assert.equal(outcome.compaction_usage?.output_tokens, iteration.output_tokens);
    const usageEvents = rec.of('usage');
    assert.equal(usageEvents.filter((e) => e.compaction).length, 1);
    assert.equal(usageEvents.reduce((n, e) => n + e.usage.input_tokens + e.usage.cache_read_input_tokens + e.usage.cache_creation_input_tokens, 0), expected.input_tokens + expected.cache_read_input_tokens + expected.cache_creation_input_tokens);
  });

  it('a compaction block with content null goes back verbatim, the chat says the summary failed, nothing is reloaded', async () => {
    seed();
    const server = await bed.serve([
      { content: [{ type: 'compaction', content: null }], stop_reason: 'compaction' },
      { content: [{ type: 'text', text: 'Still here.' }] },
    ]);
    const rec = recorder();
    const outcome = await sessionFor(server, bed.store.engine, { compaction: true }).send('go', rec.listener);
    assert.equal(outcome.ok, true, outcome.error?.message);
    const [event] = rec.of('compaction');
    assert.equal(event.failed, true);
    assert.match(event.line, /summary/i);
    assert.match(event.line, /failed/);
    const messages = messagesOf(server.requests[1].body);
    const last = messages[messages.length - 1];
    assert.equal(last.role, 'assistant');
    const { cache_control: _breakpoint, ...sent } = (last.content as Array<Record<string, unknown>>)[0];
    assert.deepEqual(sent, { type: 'compaction', content: null, encrypted_content: 'enc_mock_1' });
    assert.ok(texts(server.requests[1]).every((t) => !t.startsWith(RELOAD_HEADER)));
  });

  it('a pause without a compaction block just goes on; nothing is reported as compacted', async () => {
    const server = await bed.serve([
      { content: [{ type: 'text', text: 'Half of it.' }], stop_reason: 'compaction' },
      { content: [{ type: 'text', text: 'The rest.' }] },
    ]);
    const rec = recorder();
    const outcome = await sessionFor(server, bed.store.engine, { compaction: true }).send('go', rec.listener);
    assert.equal(outcome.ok, true, outcome.error?.message);
    assert.equal(rec.of('compaction').length, 0);
    assert.equal(server.requests.length, 2);
  });

  it('a compaction in a response with tool calls keeps the tool results and puts the reloaded state after them', async () => {
    seed({ features: true });
    const server = await bed.serve([
      {
        content: [
          { type: 'compaction', content: 'Summary: working.' },
          { type: 'tool_use', id: 'toolu_x', input: { command: 'view', path: '/memories/features.json' } },
        ],
      },
      { content: [{ type: 'text', text: 'ok' }] },
    ]);
    const rec = recorder();
    const outcome = await sessionFor(server, bed.store.engine, { compaction: true }).send('go', rec.listener);
    assert.equal(outcome.ok, true, outcome.error?.message);
    const blocks = lastUser(server.requests[1]);
    assert.equal(blocks[0].type, 'tool_result');
    assert.equal(blocks[0].tool_use_id, 'toolu_x');
    assert.notEqual(blocks[0].is_error, true);
    assert.match(String(blocks[1].text), /Checklist \(\/memories\/features\.json\): 1 \/ 3 features passing/);
    assert.doesNotMatch(String(blocks[1].text), /progress\.md|startup/, 'says nothing about files that do not exist');
    assert.deepEqual(rec.of('compaction')[0].reloaded, ['checklist']);
  });

  it('a store with none of the files: the session resumes without a reload and the line says so', async () => {
    const server = await bed.serve([{ content: [{ type: 'compaction', content: 'Summary.' }] }, { content: [{ type: 'text', text: 'ok' }] }]);
    const rec = recorder();
    const outcome = await sessionFor(server, bed.store.engine, { compaction: true }).send('go', rec.listener);
    assert.equal(outcome.ok, true, outcome.error?.message);
    assert.doesNotMatch(String(lastUser(server.requests[1])[0].text), /Checklist|progress\.md/);
    assert.match(rec.of('compaction')[0].line, /memory has no progress log or checklist to reload/);
  });

  it('never reloads a symlinked progress.md (a cloned repository could point it at a host file) nor a non-file', async () => {
    const secret = path.join(bed.store.dir, 'host-secret.txt');
    fs.writeFileSync(secret, 'HOST-SECRET-4711\n');
    fs.symlinkSync(secret, path.join(bed.store.storeDir, 'progress.md'));
    fs.mkdirSync(path.join(bed.store.storeDir, 'startup.md'));
    fs.writeFileSync(path.join(bed.store.storeDir, 'features.json'), `${FEATURES}\n`);
    const server = await bed.serve([{ content: [{ type: 'compaction', content: 'Summary.' }] }, { content: [{ type: 'text', text: 'ok' }] }]);
    const rec = recorder();
    const reader = storeFileReader(new NodeMemoryFileSystem(bed.store.storeDir));
    const outcome = await sessionFor(server, bed.store.engine, { compaction: true, readMemoryFile: reader }).send('go', rec.listener);
    assert.equal(outcome.ok, true, outcome.error?.message);
    assert.ok(server.requests.every((r) => !JSON.stringify(r.body).includes('HOST-SECRET-4711')), 'the linked file never reaches the API');
    assert.deepEqual(rec.of('compaction')[0].reloaded, ['checklist']);
    // The default reader (the memory tool's own view) refuses the link too.
    await server.close();
    const again = await bed.serve([{ content: [{ type: 'compaction', content: 'Summary.' }] }, { content: [{ type: 'text', text: 'ok' }] }]);
    const rec2 = recorder();
    assert.equal((await sessionFor(again, bed.store.engine, { compaction: true }).send('go', rec2.listener)).ok, true);
    assert.ok(again.requests.every((r) => !JSON.stringify(r.body).includes('HOST-SECRET-4711')));
    assert.deepEqual(rec2.of('compaction')[0].reloaded, ['checklist']);
  });

  it('reloads at most the last lines of progress.md and reads a broken checklist as broken', async () => {
    const files: Record<string, string> = { 'progress.md': PROGRESS_LINES.join('\n'), 'features.json': '{ not json' };
    const state = await reloadFromMemory(async (name) => files[name]);
    assert.equal(state.text!.split('\n').filter((l) => l.startsWith('- entry ')).length, RELOAD_PROGRESS_LINES);
    assert.match(state.text!, /cannot be read: it is not valid JSON/);
    assert.deepEqual(state.parts, ['progress', 'checklist']);
  });
});

describe('end of a Resume session: one reminder when no progress entry was appended', () => {
  const bed = useAgentTestBed();

  it('reminds once when the answer ends without a progress.md entry, and the entry then lands', async () => {
    fs.writeFileSync(path.join(bed.store.storeDir, 'progress.md'), '# Progress\n');
    const server = await bed.serve([
      { content: [{ type: 'text', text: 'Feature done.' }] },
      { content: [{ type: 'tool_use', input: { command: 'insert', path: '/memories/progress.md', insert_line: 1, insert_text: '## today: F002 passes' } }] },
      { content: [{ type: 'text', text: 'Logged.' }] },
    ]);
    const rec = recorder();
    const outcome = await sessionFor(server, bed.store.engine).send('resume routine', rec.listener, undefined, { requireProgressEntry: true });
    assert.equal(outcome.ok, true, outcome.error?.message);
    assert.equal(server.requests.length, 3);
    assert.deepEqual(texts(server.requests[1]).slice(-1), [PROGRESS_REMINDER]);
    assert.equal(rec.of('memory_prompt').filter((e) => e.kind === 'progress_reminder').length, 1);
    assert.match(bed.store.read('progress.md'), /## today: F002 passes/);
  });

  it('does not remind when the session appended its entry, nor outside a Resume session', async () => {
    const server = await bed.serve([
      { content: [{ type: 'tool_use', input: { command: 'create', path: '/memories/progress.md', file_text: '## today\n' } }] },
      { content: [{ type: 'text', text: 'Done.' }] },
      { content: [{ type: 'text', text: 'Plain answer.' }] },
    ]);
    const session = sessionFor(server, bed.store.engine);
    assert.equal((await session.send('resume', recorder().listener, undefined, { requireProgressEntry: true })).ok, true);
    assert.equal((await session.send('a question', recorder().listener)).ok, true);
    assert.equal(server.requests.length, 3);
    assert.ok(server.requests.every((r) => !texts(r).includes(PROGRESS_REMINDER)));
  });
});

describe('responseUsage: the meter reads usage.iterations', () => {
  it('adds compaction iterations and takes the context from the last message iteration', () => {
    const message = {
      stop_reason: 'end_turn',
      content: [],
      usage: {
        input_tokens: 900,
        cache_read_input_tokens: 100,
        cache_creation_input_tokens: 0,
        output_tokens: 50,
        iterations: [
          { type: 'compaction', input_tokens: 120_000, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 3_000 },
          { type: 'message', input_tokens: 900, cache_read_input_tokens: 100, cache_creation_input_tokens: 0, output_tokens: 50 },
          { type: 'compaction', input_tokens: 'bogus', output_tokens: -4 },
        ],
      },
    } as never;
    const meter = responseUsage(message);
    assert.deepEqual(meter.total, { input_tokens: 120_900, cache_read_input_tokens: 100, cache_creation_input_tokens: 0, output_tokens: 3_050 });
    assert.deepEqual(meter.compaction, { input_tokens: 120_000, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 3_000 });
    assert.equal(meter.contextTokens, 1_000);
  });

  it('without iterations is the top level, with nothing for compaction', () => {
    const meter = responseUsage({ stop_reason: 'end_turn', content: [], usage: { input_tokens: 10, cache_read_input_tokens: null, cache_creation_input_tokens: null, output_tokens: 2 } } as never);
    assert.deepEqual(meter.total, { input_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 2 });
    assert.equal(meter.compaction, undefined);
    assert.equal(meter.contextTokens, 10);
  });
});
