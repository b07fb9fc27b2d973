// The multi-session pattern inside the real extension host: Initialize Project Memory (with and
// without a scripted Claude draft), the Features view (features, count, ticking, live refresh,
// invalid JSON), and a scripted two-session run in which the checklist guard refuses a deletion.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ClaudeMemoryApi } from '../../src/extension';
import { parseFeatures, type Feature } from '../../src/core/session/features';
import type { InitializeResult } from '../../src/features/session/initialize';
import type { FeatureNode } from '../../src/features/session/featuresTreeProvider';
import { extensionApi, primaryStore, waitFor } from './treeHelpers';
import { startMockMessagesApi, type MockMessagesApi, type MockStep, type RecordedRequest } from '../support/mockMessagesApi';

const FAKE_KEY = 'sk-ant-test-multisession-000000000000';
const SESSION_FILES = ['progress.md', 'features.json', 'startup.md'];
const GOAL = 'A command-line todo app.\n- add a todo\n- list todos\n- complete a todo';

let api: ClaudeMemoryApi;
let mock: MockMessagesApi | undefined;

/** Waits until the Features view header says `label` (a refresh comes through the file watcher). */
function headerSays(label: string): Promise<true> {
  const view = api.multiSession.features.view;
  return waitFor(`the Features view header "${label}"`, () => (view.description === label ? true : undefined));
}

function uri(name: string): vscode.Uri {
  return vscode.Uri.joinPath(primaryStore(api).rootUri, name);
}

async function read(name: string): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri(name)));
}

async function exists(name: string): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri(name));
    return true;
  } catch {
    return false;
  }
}

async function removeSessionFiles(): Promise<void> {
  for (const name of SESSION_FILES) if (await exists(name)) await vscode.workspace.fs.delete(uri(name));
}

function features(text: string): Feature[] {
  const parsed = parseFeatures(text);
  assert.ok(parsed.ok, `features.json is valid: ${text}`);
  return parsed.features;
}

async function serve(script: MockStep[]): Promise<MockMessagesApi> {
  mock = await startMockMessagesApi(script);
  await vscode.workspace.getConfiguration('claudeMemory').update('apiBaseUrl', mock.url, vscode.ConfigurationTarget.Global);
  await waitFor('the extension to read the new apiBaseUrl', () => (api.services.settings.get('apiBaseUrl') === mock!.url ? true : undefined));
  return mock;
}

/** The tool_result blocks the client sent back in a request. */
function toolResults(request: RecordedRequest): { is_error?: boolean; content: unknown }[] {
  const messages = request.body.messages as { role: string; content: unknown }[];
  const last = messages.at(-1);
  return Array.isArray(last?.content) ? (last.content as { type: string; is_error?: boolean; content: unknown }[]).filter((b) => b.type === 'tool_result') : [];
}

function firstUserText(request: RecordedRequest): string {
  const first = (request.body.messages as { content: unknown }[])[0].content;
  return typeof first === 'string' ? first : (first as { type: string; text?: string }[]).map((b) => b.text ?? '').join('');
}

/** The view's top level (one folder: summary + features) after a fresh read. */
async function featureNodes(): Promise<FeatureNode[]> {
  return api.multiSession.features.provider.getChildren();
}

async function featureNode(id: string): Promise<Extract<FeatureNode, { kind: 'feature' }>> {
  const node = (await featureNodes()).find((n) => n.kind === 'feature' && n.feature.id === id);
  assert.ok(node && node.kind === 'feature', `the view shows feature ${id}`);
  return node;
}

/**
 * Until the Features view has had no change for `quietMs`: the file events of the previous test's
 * cleanup and of Initialize arrive late (watcher delivery, then a 50 ms debounce), and the header
 * can show the right count from the previous test's data before they do.
 */
async function viewSettled(quietMs = 1000, limitMs = 15_000): Promise<void> {
  const provider = api.multiSession.features.provider;
  let last = Date.now();
  const listening = provider.onDidChangeTreeData(() => (last = Date.now()));
  try {
    const started = Date.now();
    while (Date.now() - last < quietMs) {
      assert.ok(Date.now() - started < limitMs, 'the Features view kept changing');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    listening.dispose();
  }
}

async function initialize(args: { goal: string; draftWithClaude: boolean }): Promise<InitializeResult | undefined> {
  return vscode.commands.executeCommand('claudeMemory.initialize', args);
}

suite('multi-session: initialize, Features view, resume', () => {
  suiteSetup(async () => {
    api = await extensionApi();
    delete process.env.ANTHROPIC_API_KEY;
    await api.services.apiKey.set(FAKE_KEY);
    assert.strictEqual(api.services.settings.get('checklistGuard'), true, 'the checklist guard is on by default');
    await vscode.commands.executeCommand('claudeMemory.features.focus');
  });

  setup(removeSessionFiles);

  teardown(async () => {
    await api.chat.whenIdle();
    await api.chat.newChat();
    await mock?.close();
    mock = undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await removeSessionFiles();
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('claudeMemory').update('apiBaseUrl', undefined, vscode.ConfigurationTarget.Global);
  });

  test('Initialize creates progress.md, features.json and startup.md from the goal and the workspace', async () => {
    const result = await initialize({ goal: GOAL, draftWithClaude: false });
    assert.deepStrictEqual(result?.written, ['features', 'startup', 'progress']);

    const list = features(await read('features.json'));
    assert.deepStrictEqual(list.map((f) => [f.id, f.description, f.passes]), [['F001', 'add a todo', false], ['F002', 'list todos', false], ['F003', 'complete a todo', false]]);
    // The sample workspace's package.json has "start" and "test" scripts.
    const startup = await read('startup.md');
    assert.match(startup, /## package\.json \(npm\)\n- install: `npm install`\n- start: `npm start`\n- test: `npm test`/);
    const progress = await read('progress.md');
    assert.match(progress, /^# Progress log\n/);
    assert.match(progress, /## \d{4}-\d\d-\d\d: Project memory initialized\n\n### Current state\n/);
    assert.match(progress, /> A command-line todo app\./);
    assert.match(progress, /### Session log\n[\s\S]*### Next steps\n/);
    // It shows the checklist to the user.
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.toString(), uri('features.json').toString());
  });

  test('Initialize refuses to overwrite existing memory', async () => {
    await vscode.workspace.fs.createDirectory(uri(''));
    await vscode.workspace.fs.writeFile(uri('progress.md'), new TextEncoder().encode('# my own log\n'));
    const result = await initialize({ goal: GOAL, draftWithClaude: false });
    assert.strictEqual(result, undefined);
    assert.strictEqual(await read('progress.md'), '# my own log\n');
    assert.strictEqual(await exists('features.json'), false, 'nothing else was written');
  });

  test('the Features view shows the features and the count once, with no badge; ticking writes features.json', async () => {
    await initialize({ goal: GOAL, draftWithClaude: false });
    const view = api.multiSession.features.view;
    await headerSays('0 / 3 passing');
    assert.strictEqual(view.badge, undefined, 'no standing activity-bar badge for failing features');

    const nodes = await featureNodes();
    assert.deepStrictEqual(nodes.map((n) => n.kind), ['summary', 'feature', 'feature', 'feature']);
    const provider = api.multiSession.features.provider;
    // The count is in the header; the first row says what is next instead of repeating it.
    const summary = provider.getTreeItem(nodes[0]);
    assert.strictEqual(summary.label, 'Next: F001 · add a todo');
    assert.doesNotMatch(`${String(summary.label)} ${String(summary.description)}`, /passing/);
    const item = provider.getTreeItem(nodes[2]);
    assert.strictEqual(item.label, 'list todos');
    assert.strictEqual(item.checkboxState && typeof item.checkboxState === 'object' ? item.checkboxState.state : item.checkboxState, vscode.TreeItemCheckboxState.Unchecked);
    const steps = await provider.getChildren(nodes[2]);
    assert.strictEqual(steps.length, 3, 'a feature expands to its steps');
    assert.match(String(provider.getTreeItem(steps[1]).label), /^2\. Use it as a user would to check: list todos$/);

    // Clicking a feature opens features.json on it.
    const open = item.command;
    assert.ok(open?.command);
    await vscode.commands.executeCommand(open.command, ...(open.arguments ?? []));
    const editor = vscode.window.activeTextEditor;
    assert.strictEqual(editor?.document.uri.toString(), uri('features.json').toString());
    assert.strictEqual(editor.document.lineAt(editor.selection.start.line).text.trim(), '"id": "F002",');

    const before = await read('features.json');
    await api.multiSession.features.setPasses([[await featureNode('F002'), vscode.TreeItemCheckboxState.Checked]]);
    const after = await read('features.json');
    assert.deepStrictEqual(features(after).map((f) => f.passes), [false, true, false]);
    const changed = after.split('\n').filter((line, i) => line !== before.split('\n')[i]);
    assert.deepStrictEqual(changed, ['    "passes": true'], 'only the ticked line changed');
    await headerSays('1 / 3 passing');
    assert.strictEqual(view.badge, undefined);
    const ticked = provider.getTreeItem(await featureNode('F002'));
    assert.strictEqual(typeof ticked.checkboxState === 'object' ? ticked.checkboxState.state : ticked.checkboxState, vscode.TreeItemCheckboxState.Checked);
  });

  test('ticking refreshes only the items it changes, so a click right after a tick is not lost', async () => {
    // A whole-tree refresh makes VS Code forget every item until the view has fetched the tree
    // again, and a checkbox click in that gap arrives with no items: the tick is lost. So a tick
    // refreshes items (the same element objects), and re-reading an unchanged file refreshes nothing.
    await initialize({ goal: GOAL, draftWithClaude: false });
    await headerSays('0 / 3 passing');
    await viewSettled();
    const provider = api.multiSession.features.provider;
    const node = await featureNode('F002');
    const events: Array<FeatureNode | FeatureNode[] | null | undefined | void> = [];
    const listening = provider.onDidChangeTreeData((e) => events.push(e));
    try {
      await api.multiSession.features.setPasses([[node, vscode.TreeItemCheckboxState.Checked]]);
      assert.ok(events.length > 0, 'the tick refreshed the view');
      assert.ok(events.every((e) => Array.isArray(e)), 'no whole-tree refresh for a tick');
      assert.ok(events.flat().includes(node), 'the ticked item itself is refreshed');
      assert.strictEqual(await featureNode('F002'), node, 'the view keeps the same element for the feature');
      await headerSays('1 / 3 passing');

      const seen = events.length;
      await provider.refresh(); // what the file watcher does after the write
      assert.strictEqual(events.length, seen, 'an unchanged features.json refreshes nothing');

      await api.multiSession.features.setPasses([[node, vscode.TreeItemCheckboxState.Unchecked]]);
      assert.deepStrictEqual(features(await read('features.json')).map((f) => f.passes), [false, false, false]);
      assert.ok(events.every((e) => Array.isArray(e)), 'no whole-tree refresh for an untick');
      await headerSays('0 / 3 passing');
    } finally {
      listening.dispose();
    }
  });

  test('the Features view follows edits made outside it, and explains invalid JSON', async () => {
    await initialize({ goal: GOAL, draftWithClaude: false });
    const view = api.multiSession.features.view;
    await headerSays('0 / 3 passing');
    const list = features(await read('features.json')).map((f) => ({ ...f, passes: true }));
    await vscode.workspace.fs.writeFile(uri('features.json'), new TextEncoder().encode(JSON.stringify(list)));
    await headerSays('3 / 3 passing');
    assert.strictEqual(view.badge, undefined);
    assert.strictEqual(api.multiSession.features.provider.getTreeItem((await featureNodes())[0]).label, 'Every feature passes');

    await vscode.workspace.fs.writeFile(uri('features.json'), new TextEncoder().encode('[{"id": "F001",'));
    await waitFor('a message item for invalid JSON', async () => ((await featureNodes())[0]?.kind === 'message' ? true : undefined));
    const message = api.multiSession.features.provider.getTreeItem((await featureNodes())[0]);
    assert.strictEqual(message.label, 'features.json is not a valid checklist');
    assert.match(String(message.tooltip), /it is not valid JSON/);
  });

  test('Initialize with a Claude draft: the scripted initializer conversation fills features.json through the guard', async () => {
    const drafted = [
      { id: 'F001', category: 'functional', description: 'add a todo', steps: ['run todo add milk', 'see it listed'], passes: false },
      { id: 'F002', category: 'functional', description: 'list todos', steps: ['run todo list'], passes: false },
    ];
    const server = await serve([
      { content: [{ type: 'tool_use', input: { command: 'view', path: '/memories/features.json' } }] },
      { content: [{ type: 'tool_use', input: { command: 'str_replace', path: '/memories/features.json', old_str: '[]', new_str: JSON.stringify(drafted, null, 2) } }] },
      { content: [{ type: 'tool_use', input: { command: 'str_replace', path: '/memories/progress.md', old_str: '- Then work on the first failing feature, one feature per session.\n', new_str: '- Then work on the first failing feature, one feature per session.\n\n## Drafted checklist\n- F001, F002 in this order.\n' } }] },
      { content: [{ type: 'text', text: 'I drafted 2 features.' }] },
    ]);
    const result = await initialize({ goal: 'A todo app with add and list.', draftWithClaude: true });
    assert.deepStrictEqual(result?.written, ['features', 'startup', 'progress']);
    assert.deepStrictEqual(result?.draft, { added: 2, finished: true, message: 'Claude added 2 features.' });

    assert.strictEqual(server.requests.length, 4);
    const prompt = firstUserText(server.requests[0]);
    assert.match(prompt, /This is the initializer session for this project/);
    assert.match(prompt, /> A todo app with add and list\./);
    assert.ok(toolResults(server.requests[2]).every((r) => !r.is_error), 'the draft was accepted');
    assert.ok(toolResults(server.requests[3]).every((r) => !r.is_error), 'the progress append was accepted');
    assert.deepStrictEqual(features(await read('features.json')).map((f) => f.id), ['F001', 'F002']);
    assert.match(await read('progress.md'), /- none yet: the initializer conversation with Claude drafts them\.[\s\S]*## Drafted checklist\n/);
    // The chat stays in front: the next steps are buttons on Claude's last message, not a jump
    // to the Features view and an editor over it.
    const entries = api.chat.snapshot().entries;
    const last = entries.filter((e) => e.kind === 'assistant').at(-1);
    assert.ok(last?.kind === 'assistant' && last.markdown === 'I drafted 2 features.', 'the last message is Claude\'s');
    assert.deepStrictEqual(last.followUps, { folder: vscode.workspace.workspaceFolders![0].name, actions: ['reviewFeatures', 'resume'] });
    assert.ok(!entries.some((e) => e.kind === 'notice' && e.followUps), 'no second line with buttons');
    assert.notStrictEqual(vscode.window.activeTextEditor?.document.uri.toString(), uri('features.json').toString(), 'features.json is not forced open');
    // "Review features.json" opens the checklist.
    await api.chat.receiveWebviewMessage({ type: 'followUp', entryId: last.id, action: 'reviewFeatures' });
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.toString(), uri('features.json').toString());
    await headerSays('0 / 2 passing');
  });

  test('Initialize with a Claude draft that is cut off at max_tokens reports that nothing was added, not a draft', async () => {
    const server = await serve([
      { content: [{ type: 'tool_use', input: { command: 'view', path: '/memories/features.json' } }] },
      { content: [{ type: 'text', text: 'Here is my plan for the features: first' }], stop_reason: 'max_tokens' },
    ]);
    const result = await initialize({ goal: 'A todo app.', draftWithClaude: true });
    assert.strictEqual(server.requests.length, 2);
    assert.deepStrictEqual(features(await read('features.json')), [], 'features.json is still []');
    assert.strictEqual(result?.draft?.added, 0);
    assert.strictEqual(result?.draft?.finished, false);
    assert.strictEqual(result?.draft?.message, "Claude's draft added no features. The draft was cut off at max_tokens before Claude finished (see the chat).");
    const error = api.chat.snapshot().entries.find((e) => e.kind === 'error');
    assert.ok(error && error.kind === 'error' && /cut off at max_tokens/.test(error.message), 'the chat shows the cut-off as an error');
    // Nothing to resume yet: only "Review features.json", on a line that says what happened.
    const line = api.chat.snapshot().entries.at(-1);
    assert.ok(line?.kind === 'notice', `the chat ends with a notice: ${JSON.stringify(line)}`);
    assert.strictEqual(line.text, `${result?.draft?.message} Add features to features.json, or ask Claude here to draft them.`);
    assert.deepStrictEqual(line.followUps?.actions, ['reviewFeatures']);
  });

  test('Initialize with a Claude draft that Claude refuses says so', async () => {
    await serve([{ content: [{ type: 'text', text: 'I' }], stop_reason: 'refusal' }]);
    const result = await initialize({ goal: 'A todo app.', draftWithClaude: true });
    assert.strictEqual(result?.draft?.message, "Claude's draft added no features. Claude declined to draft the features.");
  });

  test('inline code in feature texts shows without backticks in the tree, and as code in tooltips', async () => {
    const list = [{ id: 'F001', category: 'functional', description: 'run `todo add milk`', steps: ['type `todo list`'], passes: false }];
    await vscode.workspace.fs.createDirectory(primaryStore(api).rootUri);
    await vscode.workspace.fs.writeFile(uri('features.json'), new TextEncoder().encode(JSON.stringify(list)));
    await headerSays('0 / 1 passing');
    const provider = api.multiSession.features.provider;
    const node = await featureNode('F001');
    const item = provider.getTreeItem(node);
    assert.strictEqual(item.label, 'run todo add milk');
    assert.ok(item.tooltip instanceof vscode.MarkdownString);
    assert.match(item.tooltip.value, /`todo add milk`/, `code stays code in the tooltip: ${item.tooltip.value}`);
    assert.doesNotMatch(item.tooltip.value, /\\`/, 'no escaped (literal) backticks');
    const [step] = await provider.getChildren(node);
    assert.strictEqual(provider.getTreeItem(step).label, '1. type todo list');
    assert.strictEqual(provider.getTreeItem((await featureNodes())[0]).label, 'Next: F001 · run todo add milk');
  });

  test('removing the memory folder empties the Features view, and a stale click says why instead of failing', async () => {
    await initialize({ goal: GOAL, draftWithClaude: false });
    await headerSays('0 / 3 passing');
    const stale = api.multiSession.features.provider.getTreeItem(await featureNode('F002')).command;
    assert.ok(stale?.command);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    await vscode.workspace.fs.delete(primaryStore(api).rootUri, { recursive: true, useTrash: false });
    await waitFor('the Features view to empty', async () => ((await featureNodes()).length === 0 && api.multiSession.features.view.description === undefined ? true : undefined));

    const opened = await vscode.commands.executeCommand(stale.command, ...(stale.arguments ?? []));
    assert.strictEqual(opened, false, 'a clear message, not an editor on a missing file');
    assert.strictEqual(vscode.window.activeTextEditor, undefined);
    assert.strictEqual(vscode.window.tabGroups.all.flatMap((g) => g.tabs).length, 0, 'no error editor either');
  });

  test('two sessions: initialize, then Resume flips one feature, appends progress, and a deletion comes back as is_error', async () => {
    // Session 1: the initializer.
    await initialize({ goal: GOAL, draftWithClaude: false });
    const progressBefore = await read('progress.md');
    const featuresBefore = await read('features.json');
    const f003 = featuresBefore.slice(featuresBefore.lastIndexOf(',\n  {'), featuresBefore.lastIndexOf('\n]'));
    assert.match(f003, /"id": "F003"/);

    // Session 2: the routine, scripted as Claude would follow it.
    const server = await serve([
      { content: [{ type: 'text', text: 'Reading my memory.' }, { type: 'tool_use', input: { command: 'view', path: '/memories' } }] },
      { content: [{ type: 'tool_use', input: { command: 'view', path: '/memories/progress.md' } }] },
      {
        content: [
          {
            type: 'tool_use',
            input: { command: 'str_replace', path: '/memories/features.json', old_str: '"description": "add a todo",\n    "steps": [\n      "Start the project as /memories/startup.md describes",\n      "Use it as a user would to check: add a todo",\n      "Confirm the result, then run the project tests"\n    ],\n    "passes": false', new_str: '"description": "add a todo",\n    "steps": [\n      "Start the project as /memories/startup.md describes",\n      "Use it as a user would to check: add a todo",\n      "Confirm the result, then run the project tests"\n    ],\n    "passes": true' },
          },
        ],
      },
      { content: [{ type: 'tool_use', input: { command: 'str_replace', path: '/memories/features.json', old_str: f003, new_str: '' } }] },
      { content: [{ type: 'tool_use', input: { command: 'str_replace', path: '/memories/progress.md', old_str: '### Current state', new_str: '### Current state\nAll done.' } }] },
      { content: [{ type: 'tool_use', input: { command: 'insert', path: '/memories/progress.md', insert_line: progressBefore.trimEnd().split('\n').length, insert_text: '\n## Session 2: F001 passes\n### Current state\nF001 verified.\n### Session log\n- Implemented add.\n### Next steps\n- F002\n' } }] },
      { content: [{ type: 'text', text: 'F001 passes; the log is updated.' }] },
    ]);
    const routine = await vscode.commands.executeCommand<string | undefined>('claudeMemory.resume');
    assert.ok(routine, 'Resume sent the routine');
    assert.match(routine, /Status: 0 \/ 3 features passing\. Next failing feature: F001 \("add a todo"\)\./);
    assert.strictEqual(firstUserText(server.requests[0]), routine, 'the routine went to Claude as the first message');
    // The chat shows the routine as a chip naming the next feature, in a fresh conversation.
    const users = api.chat.snapshot().entries.filter((e) => e.kind === 'user');
    assert.deepStrictEqual(users.map((e) => e.kind === 'user' && [e.label, e.text]), [['Resume Session · next: F001', routine]]);
    assert.strictEqual(server.requests.length, 7);

    assert.ok(!toolResults(server.requests[3])[0].is_error, 'flipping F001 is allowed');
    const deletion = toolResults(server.requests[4])[0];
    assert.strictEqual(deletion.is_error, true, 'deleting F003 is refused');
    assert.match(String(deletion.content), /^The change was refused: it would remove feature "F003"\. Nothing was written\. Allowed changes to \/memories\/features\.json: /);
    const rewrite = toolResults(server.requests[5])[0];
    assert.strictEqual(rewrite.is_error, true, 'rewriting history is refused');
    assert.match(String(rewrite.content), /append-only/);
    assert.ok(!toolResults(server.requests[6])[0].is_error, 'appending to progress.md is allowed');

    assert.deepStrictEqual(features(await read('features.json')).map((f) => [f.id, f.passes]), [['F001', true], ['F002', false], ['F003', false]]);
    const progressAfter = await read('progress.md');
    assert.ok(progressAfter.startsWith(progressBefore.trimEnd()), 'earlier progress is untouched');
    assert.match(progressAfter, /## Session 2: F001 passes\n/);
    await headerSays('1 / 3 passing');
  });

  test('Resume without memory sends nothing', async () => {
    const server = await serve([{ content: [{ type: 'text', text: 'should not be asked' }] }]);
    assert.strictEqual(await vscode.commands.executeCommand('claudeMemory.resume'), undefined);
    assert.strictEqual(server.requests.length, 0);
  });
});
