// What the chat's tool cards claim (issue 19): a failed command is a failure on its card, with
// how it ended; a workspace file card names its file relative to the folder, name first, with
// the lines a read covered, and does not repeat the path below the header.
import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/core/agent/events';
import { commandOutcome, openLine, outputLineCount, rangeLabel, readSummary, splitPath } from '../../../src/features/chat/shared/cardText';
import { undoneEditsNote } from '../../../src/core/workspace/messages';
import { actionsFor, ChatTranscript, firstChangedLine } from '../../../src/features/chat/chatTranscript';
import { parseWebviewMessage, type ChatEntry } from '../../../src/features/chat/shared/protocol';

const FOLDER = { name: 'todo', root: '/home/u/todo', memoryFolder: '.claude-memories' };

function card(t: ChatTranscript, events: AgentEvent[]): Extract<ChatEntry, { kind: 'tool' }> {
  for (const e of events) t.apply(e);
  const tools = t.snapshot().entries.filter((e): e is Extract<ChatEntry, { kind: 'tool' }> => e.kind === 'tool');
  assert.ok(tools.length > 0, 'a card');
  return tools[tools.length - 1];
}

function transcript(): ChatTranscript {
  const t = new ChatTranscript();
  t.setWorkspaceFolder(FOLDER);
  t.begin('go', 'claude-sonnet-4-5');
  return t;
}

function bashEnd(exitCode: number | undefined, ended?: 'timeout' | 'cancelled' | 'restart', isError = ended !== undefined): AgentEvent[] {
  return [
    { type: 'tool_start', id: 'b', tool: 'bash', command: 'run', path: 'npm test' },
    { type: 'tool_output', id: 'b', text: 'TAP version 13\n# pass 1\n# fail 2\n' },
    {
      type: 'tool_end',
      id: 'b',
      tool: 'bash',
      command: 'run',
      path: 'npm test',
      is_error: isError,
      summary: `ran npm test (exit ${exitCode ?? '?'})`,
      detail: { kind: 'command', command: 'npm test', exitCode, ...(ended ? { ended } : {}) },
    },
  ];
}

describe('tool cards: commands tell how they ended', () => {
  it('exit 1 is a failure with "exit 1", though Claude got an ordinary result; exit 0 stays ✓ with no label', () => {
    const failed = card(transcript(), bashEnd(1));
    assert.equal(failed.status, 'error', 'a non-zero exit is a failed card');
    assert.deepEqual(failed.exit, { code: 1 });
    assert.equal(failed.output, 'TAP version 13\n# pass 1\n# fail 2\n', 'the output stays on the card');
    assert.deepEqual(commandOutcome(failed.exit!), { failed: true, label: 'exit 1', description: 'failed with exit code 1' });

    const passed = card(transcript(), bashEnd(0));
    assert.equal(passed.status, 'ok');
    assert.deepEqual(passed.exit, { code: 0 });
    assert.equal(commandOutcome(passed.exit!).failed, false);
    assert.equal(commandOutcome(passed.exit!).label, '', 'a clean exit needs no words next to its ✓');
  });

  it('a timeout, a stop and a kill are failures, each named', () => {
    const timeout = card(transcript(), bashEnd(undefined, 'timeout'));
    assert.equal(timeout.status, 'error');
    assert.equal(commandOutcome(timeout.exit!).label, 'timed out');
    const stopped = card(transcript(), bashEnd(undefined, 'cancelled'));
    assert.equal(commandOutcome(stopped.exit!).label, 'stopped');
    // Killed by a signal: the shell reports no code, the result is not an error for Claude.
    const killed = card(transcript(), bashEnd(undefined, undefined, false));
    assert.equal(killed.status, 'error', 'no exit code is not a success');
    assert.equal(commandOutcome(killed.exit!).label, 'killed');
    assert.equal(commandOutcome({ code: 137 }).label, 'exit 137');
  });

  it('a command that never ran (denied) has no exit and stays an ordinary error card', () => {
    const t = transcript();
    const denied = card(t, [
      { type: 'tool_start', id: 'b', tool: 'bash', command: 'run', path: 'rm -rf x' },
      { type: 'tool_end', id: 'b', tool: 'bash', command: 'run', path: 'rm -rf x', is_error: true, summary: 'Error: the user declined to run this command; nothing was run.' },
    ]);
    assert.equal(denied.status, 'error');
    assert.equal(denied.exit, undefined);
    assert.match(denied.summary ?? '', /declined/);
  });

  it('counts output lines for "Show all (N lines)": a final newline adds none', () => {
    assert.equal(outputLineCount(''), 0);
    assert.equal(outputLineCount('a'), 1);
    assert.equal(outputLineCount('a\nb\n'), 2);
    assert.equal(outputLineCount('a\nb\nc'), 3);
  });
});

describe('tool cards: workspace files', () => {
  it('a view of an absolute path in the folder shows it relative, with the lines it read, and does not repeat the path below', () => {
    const t = transcript();
    t.apply({ type: 'tool_start', id: 'v', tool: 'str_replace_based_edit_tool', command: 'view', path: '/home/u/todo/src/todo.js' });
    const running = t.snapshot().entries.find((e) => e.kind === 'tool');
    assert.equal(running?.kind === 'tool' && running.path, 'src/todo.js', 'relative while it runs already');
    assert.deepEqual(running?.kind === 'tool' && running.file, { path: 'src/todo.js' });
    const view = card(t, [
      {
        type: 'tool_end',
        id: 'v',
        tool: 'str_replace_based_edit_tool',
        command: 'view',
        path: '/home/u/todo/src/todo.js',
        is_error: false,
        summary: 'viewed src/todo.js',
        detail: { kind: 'fileRead', path: 'src/todo.js', range: [19, 22], lines: 40 },
      },
    ]);
    assert.equal(view.path, 'src/todo.js');
    assert.deepEqual(view.file, { path: 'src/todo.js', range: [19, 22], lines: 40 });
    assert.equal(view.status, 'ok');
    assert.equal(view.summary, 'Lines 19–22 of 40', 'the body says which lines, not the path again');
    assert.ok(!JSON.stringify(view).includes('/home/u'), 'no absolute path on the card');
  });

  it('an edit links to the first line it changed and has no body repeating "edited <path>"', () => {
    const edit = card(transcript(), [
      { type: 'tool_start', id: 'e', tool: 'str_replace_based_edit_tool', command: 'str_replace', path: 'src/todo.js' },
      {
        type: 'tool_end',
        id: 'e',
        tool: 'str_replace_based_edit_tool',
        command: 'str_replace',
        path: 'src/todo.js',
        is_error: false,
        summary: 'edited src/todo.js',
        detail: { kind: 'edit', path: 'src/todo.js', before: 'a\nb\nc\n', after: 'a\nB\nc\n' },
      },
    ]);
    assert.deepEqual(edit.file, { path: 'src/todo.js', line: 2 });
    assert.equal(edit.summary, undefined);
    assert.deepEqual(edit.edit, { path: 'src/todo.js', added: 1, removed: 1 });
  });

  it('a failed call keeps its error sentence; a path outside the folder stays as written, without a link', () => {
    const t = transcript();
    const missing = card(t, [
      { type: 'tool_start', id: 'm', tool: 'str_replace_based_edit_tool', command: 'view', path: '/home/u/todo/nope.js' },
      { type: 'tool_end', id: 'm', tool: 'str_replace_based_edit_tool', command: 'view', path: '/home/u/todo/nope.js', is_error: true, summary: 'The path /home/u/todo/nope.js does not exist.' },
    ]);
    assert.equal(missing.path, 'nope.js');
    assert.equal(missing.status, 'error');
    assert.match(missing.summary ?? '', /does not exist/);
    const outside = card(t, [
      { type: 'tool_start', id: 'o', tool: 'str_replace_based_edit_tool', command: 'view', path: '/etc/passwd' },
      { type: 'tool_end', id: 'o', tool: 'str_replace_based_edit_tool', command: 'view', path: '/etc/passwd', is_error: true, summary: 'Error: outside' },
    ]);
    assert.equal(outside.path, '/etc/passwd');
    assert.equal(outside.file, undefined, 'no link to a file outside the folder');
    const traversal = card(t, [{ type: 'tool_start', id: 't', tool: 'str_replace_based_edit_tool', command: 'view', path: 'src/../../x' }]);
    assert.equal(traversal.file, undefined, 'a path the editor refuses gets no link');
  });

  it('memory cards are not workspace files', () => {
    const memory = card(transcript(), [{ type: 'tool_start', id: 'x', command: 'view', path: '/memories/progress.md' }]);
    assert.equal(memory.file, undefined);
    assert.equal(memory.path, '/memories/progress.md');
  });

  it('splits a path name first; labels ranges; says what a read covered; opens at the right line', () => {
    assert.deepEqual(splitPath('src/lib/todo.js'), { name: 'todo.js', folder: 'src/lib/' });
    assert.deepEqual(splitPath('README.md'), { name: 'README.md', folder: '' });
    assert.deepEqual(splitPath('src/lib/'), { name: 'lib', folder: 'src/' });
    assert.equal(rangeLabel(undefined), undefined);
    assert.equal(rangeLabel([19, 22]), '19–22');
    assert.equal(rangeLabel([5, 5]), '5');
    assert.equal(rangeLabel([19, -1]), '19–end');
    assert.equal(readSummary({ path: 'a.js', lines: 40 }), 'All 40 lines');
    assert.equal(readSummary({ path: 'a.js', lines: 1 }), 'All 1 line');
    assert.equal(readSummary({ path: 'a.js', range: [19, -1], lines: 40 }), 'Lines 19–40 of 40');
    assert.equal(readSummary({ path: 'a.js', range: [7, 7], lines: 40 }), 'Line 7 of 40');
    assert.equal(readSummary({ path: 'src', directory: true }), "The folder's listing (2 levels deep)");
    assert.equal(openLine({ path: 'a.js', range: [19, 22] }), 19);
    assert.equal(openLine({ path: 'a.js', line: 3 }), 3);
    assert.equal(openLine({ path: 'a.js' }), undefined);
    assert.equal(firstChangedLine('a\nb\n', 'a\nb\nc\n'), 3, 'an append opens at the new line');
    assert.equal(firstChangedLine('', 'x\n'), 1, 'a created file opens at the top');
    assert.equal(firstChangedLine('a\n', 'a\n'), undefined);
  });
});

describe('tool cards: an undone edit is told to Claude', () => {
  it('names every file and what it is now; nothing to tell, no note', () => {
    assert.equal(undoneEditsNote([]), undefined);
    const one = undoneEditsNote([{ path: 'src/app.js', created: false }]);
    assert.match(one ?? '', /the user undid your edit with the chat's Undo/);
    assert.match(one ?? '', /- src\/app\.js: the file is back to its content before your edit\./);
    const two = undoneEditsNote([
      { path: 'src/app.js', created: false },
      { path: 'src/new.js', created: true },
    ]);
    assert.match(two ?? '', /undid these edits of yours/);
    assert.match(two ?? '', /- src\/new\.js: the file you created was removed\./);
  });
});

describe('a rejected key (401)', () => {
  it('keeps the question: the error offers Set API Key and Retry; the key line says rejected until a request goes through', () => {
    const t = new ChatTranscript();
    t.setKeyState('stored');
    t.begin('What does done do?', 'claude-sonnet-4-5');
    t.apply({ type: 'error', kind: 'auth', message: 'The Anthropic API rejected the API key (401): set a valid key and send again.' });
    t.apply({ type: 'done', stop_reason: null });
    const { entries, status } = t.snapshot();
    const error = entries.at(-1);
    assert.deepEqual(error?.kind === 'error' && error.actions, ['setApiKey', 'retry']);
    assert.equal(entries.find((e) => e.kind === 'user')?.kind === 'user' && (entries[0] as { text: string }).text, 'What does done do?', 'the question stays on screen');
    assert.equal(status.keyRejected, true, 'the key line must not say all is fine');
    assert.deepEqual(t.setKeyRejected(false).map((p) => p.type), ['status'], 'a new key clears it');
    assert.equal(t.snapshot().status.keyRejected, undefined);

    t.apply({ type: 'error', kind: 'auth', message: 'rejected' });
    assert.equal(t.snapshot().status.keyRejected, true);
    t.begin('again', 'claude-sonnet-4-5');
    t.apply({ type: 'usage', usage: { input_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 1 } });
    t.apply({ type: 'done', stop_reason: 'end_turn' });
    assert.equal(t.snapshot().status.keyRejected, undefined, 'a request that went through clears it');
  });

  it('other failures do not mark the key', () => {
    const t = new ChatTranscript();
    t.begin('hi', 'claude-sonnet-4-5');
    t.apply({ type: 'error', kind: 'overloaded', message: 'Overloaded' });
    assert.equal(t.snapshot().status.keyRejected, undefined);
    assert.deepEqual(actionsFor('missing_key'), ['setApiKey'], 'a missing key holds the message instead');
  });
});

describe('one "Claude" header per answer', () => {
  it('the texts between an answer\'s cards continue the first; a new message, or a built-in request, starts a new header', () => {
    const t = new ChatTranscript();
    t.begin('go', 'claude-sonnet-4-5');
    for (const e of [
      { type: 'text', text: 'Reading memory.' },
      { type: 'tool_start', id: 'a', command: 'view', path: '/memories' },
      { type: 'tool_end', id: 'a', command: 'view', path: '/memories', is_error: false, summary: 'listed' },
      { type: 'turn_end', stop_reason: 'tool_use' },
      { type: 'text', text: 'Now the tests.' },
      { type: 'memory_prompt', kind: 'progress_reminder', label: 'Progress reminder', text: 'Append your progress entry.' },
      { type: 'text', text: 'Appended.' },
      { type: 'done', stop_reason: 'end_turn' },
    ] as AgentEvent[]) t.apply(e);
    t.begin('and then?', 'claude-sonnet-4-5');
    t.apply({ type: 'text', text: 'Then nothing.' });
    const texts = t.snapshot().entries.filter((e) => e.kind === 'assistant').map((e) => (e.kind === 'assistant' ? [e.markdown, e.continued === true] : []));
    assert.deepEqual(texts, [
      ['Reading memory.', false],
      ['Now the tests.', true],
      ['Appended.', false],
      ['Then nothing.', false],
    ]);
  });

  it('a retried turn whose first text was dropped gives the header to the next text', () => {
    const t = new ChatTranscript();
    t.begin('go', 'claude-sonnet-4-5');
    t.apply({ type: 'text', text: 'Half an ans' });
    t.apply({ type: 'retry', attempt: 1, message: 'dropped' });
    t.apply({ type: 'text', text: 'A whole answer.' });
    const [text] = t.snapshot().entries.filter((e) => e.kind === 'assistant');
    assert.equal(text.kind === 'assistant' && text.markdown, 'A whole answer.');
    assert.equal(text.kind === 'assistant' && text.continued, undefined);
  });
});

describe('the empty chat\'s starter', () => {
  it('is in the status only when set, changes only when it differs, and the webview may ask only for the three actions', () => {
    const t = new ChatTranscript();
    assert.equal(t.snapshot().status.starter, undefined);
    const starter = { folder: 'todo', model: 'claude-sonnet-4-5', canResume: true };
    assert.equal(t.setStarter(starter).length, 1);
    assert.deepEqual(t.setStarter({ ...starter }), [], 'the same starter sends nothing');
    assert.deepEqual(t.snapshot().status.starter, starter);
    assert.equal(t.setStarter(undefined).length, 1);
    assert.equal(t.snapshot().status.starter, undefined);
    assert.deepEqual(parseWebviewMessage({ type: 'starter', action: 'resume' }), { type: 'starter', action: 'resume' });
    assert.equal(parseWebviewMessage({ type: 'starter', action: 'workbench.action.terminal.new' }), undefined);
    assert.deepEqual(parseWebviewMessage({ type: 'openFile', entryId: 'e7' }), { type: 'openFile', entryId: 'e7' });
    assert.equal(parseWebviewMessage({ type: 'openFile', entryId: '../x', path: '/etc/passwd' }), undefined);
  });
});
