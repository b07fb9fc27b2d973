// The chat's cards tell the truth (issue 19), in the real extension host against the scripted
// Messages API: a command that fails is a failed card with its exit code; a file card names its
// file relative to the folder and opens it at the lines read; Undo on an edit card asks first,
// naming the file, and Claude is told with the next message.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ClaudeMemoryApi } from '../../src/extension';
import type { MockMessagesApi, MockStep } from '../support/mockMessagesApi';
import { activateExtension, FAKE_KEY, forgetApiBaseUrl, ofKind, serve as serveFor, setKeyWithCommand, waitForChat } from './chatSupport';
import { scriptedPrompts, withPrompts } from './treeHelpers';

let api: ClaudeMemoryApi;
let mock: MockMessagesApi | undefined;

const serve = async (script: MockStep[]) => (mock = await serveFor(api, script));

function lastUserContent(server: MockMessagesApi, request: number): string {
  const messages = server.requests[request].body.messages as Array<{ role: string; content: unknown }>;
  const last = messages.filter((m) => m.role === 'user').at(-1);
  return JSON.stringify(last?.content);
}

suite('chat cards tell the truth', () => {
  let folder: vscode.WorkspaceFolder;
  const files: vscode.Uri[] = [];

  async function file(name: string, text: string): Promise<vscode.Uri> {
    const uri = vscode.Uri.joinPath(folder.uri, name);
    files.push(uri);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    return uri;
  }

  const read = async (uri: vscode.Uri) => new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));

  suiteSetup(async () => {
    api = await activateExtension();
    delete process.env.ANTHROPIC_API_KEY;
    await setKeyWithCommand(api, FAKE_KEY);
    folder = vscode.workspace.workspaceFolders![0];
  });

  teardown(async () => {
    api.chat.stop();
    await api.chat.whenIdle();
    await api.chat.newChat();
    await mock?.close();
    mock = undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  suiteTeardown(async () => {
    await forgetApiBaseUrl();
    for (const uri of files) await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
  });

  test('the empty chat names its folder and model and offers Resume only while a feature is left', async () => {
    const starter = (await waitForChat(api, (s) => s.status.starter !== undefined, 'the starter')).status.starter!;
    assert.strictEqual(starter.folder, folder.name);
    assert.strictEqual(starter.model, api.services.settings.get('model'));
    const store = api.services.stores.primary()!;
    const features = vscode.Uri.joinPath(store.rootUri, 'features.json');
    const had = await vscode.workspace.fs.readFile(features).then((b) => b, () => undefined);
    const checklist = (passes: boolean) => JSON.stringify([{ id: 'F001', category: 'functional', description: 'add a todo', steps: ['run it'], passes }], null, 2);
    try {
      // Written as a person's edit (no touch from the chat): the file watcher brings it.
      await store.engine.update('features.json', () => checklist(false));
      await waitForChat(api, (s) => s.status.starter?.canResume === true, 'Resume offered: F001 does not pass');
      await store.engine.update('features.json', () => checklist(true));
      await waitForChat(api, (s) => s.status.starter?.canResume === false, 'no Resume: every feature passes');
    } finally {
      if (had) await vscode.workspace.fs.writeFile(features, had);
      else await vscode.workspace.fs.delete(features).then(undefined, () => undefined);
    }
  });

  test('a command that exits non-zero is a failed card with its exit code; one that exits 0 stays ok; Claude gets both as results', async () => {
    const server = await serve([
      {
        content: [
          { type: 'tool_use', name: 'bash', input: { command: 'ls it-no-such-folder' } },
          { type: 'tool_use', name: 'bash', input: { command: 'pwd' } },
        ],
      },
      { content: [{ type: 'text', text: 'One of them failed.' }] },
    ]);
    const result = await api.chat.send('List a missing folder, then say where you are.');
    assert.ok(result.started && result.outcome.ok, JSON.stringify(result));
    const [failing, passing] = ofKind(api.chat.snapshot(), 'tool').filter((c) => c.tool === 'bash');
    assert.strictEqual(failing.path, 'ls it-no-such-folder');
    assert.strictEqual(failing.status, 'error', 'a non-zero exit is not a ✓');
    assert.ok(failing.exit?.code !== undefined && failing.exit.code !== 0, `an exit code on the card: ${JSON.stringify(failing.exit)}`);
    assert.match(failing.output ?? '', /it-no-such-folder/, 'the error output is on the card');
    assert.strictEqual(passing.status, 'ok');
    assert.deepStrictEqual(passing.exit, { code: 0 });
    // What Claude gets is unchanged: an ordinary result that ends with the exit code.
    const results = JSON.stringify(server.requests[1].body.messages);
    assert.match(results, /\[exit code [1-9]\d*\]/);
  });

  test('a file card names its file relative to the folder and opens it at the lines read', async () => {
    await file('it-view.txt', 'one\ntwo\nthree\nfour\nfive\n');
    await serve([
      { content: [{ type: 'tool_use', name: 'str_replace_based_edit_tool', input: { command: 'view', path: `${folder.uri.fsPath}/it-view.txt`, view_range: [2, 3] } }] },
      { content: [{ type: 'text', text: 'Read it.' }] },
    ]);
    assert.ok((await api.chat.send('Read lines 2 to 3.')).started);
    const card = ofKind(api.chat.snapshot(), 'tool').at(-1)!;
    assert.strictEqual(card.path, 'it-view.txt', 'relative, never the host path');
    assert.deepStrictEqual(card.file, { path: 'it-view.txt', range: [2, 3], lines: 5 });
    assert.strictEqual(card.summary, 'Lines 2–3 of 5');
    assert.ok(!JSON.stringify(card).includes(folder.uri.fsPath), 'no absolute path on the card');

    await api.chat.receiveWebviewMessage({ type: 'openFile', entryId: card.id });
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor?.document.uri.path.endsWith('/it-view.txt'), `the file is open: ${editor?.document.uri.toString()}`);
    assert.strictEqual(editor?.selection.start.line, 1, 'at line 2');
    assert.strictEqual(editor?.selection.end.line, 2, 'through line 3');
  });

  test('Undo on an edit card asks first, naming the file; No keeps the edit, Undo restores it; Claude is told once, with the next message', async () => {
    const uri = await file('it-undo.txt', 'one\ntwo\n');
    const server = await serve([
      { content: [{ type: 'tool_use', name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'it-undo.txt', old_str: 'two', new_str: 'TWO' } }] },
      { content: [{ type: 'text', text: 'Shouted.' }] },
      { content: [{ type: 'text', text: 'Understood, the file is back.' }] },
      { content: [{ type: 'text', text: 'Nothing new.' }] },
    ]);
    assert.ok((await api.chat.send('Shout the second line.')).started);
    assert.strictEqual(await read(uri), 'one\nTWO\n');
    const card = ofKind(api.chat.snapshot(), 'tool').at(-1)!;
    assert.deepStrictEqual(card.file, { path: 'it-undo.txt', line: 2 }, 'the link opens at the changed line');
    assert.strictEqual(card.summary, undefined, 'no body repeating "edited it-undo.txt"');

    const no = scriptedPrompts({ confirms: [false] });
    await withPrompts(api, no, () => api.chat.receiveWebviewMessage({ type: 'undoEdit', entryId: card.id }));
    assert.deepStrictEqual(no.asked, ["confirm:Undo Claude's edit to it-undo.txt?"]);
    assert.match(no.details[0], /Claude is told with your next message/);
    assert.strictEqual(await read(uri), 'one\nTWO\n', 'No keeps the edit');
    assert.strictEqual(ofKind(api.chat.snapshot(), 'tool').at(-1)?.edit?.undone, undefined);

    const yes = scriptedPrompts({ confirms: [true] });
    await withPrompts(api, yes, () => api.chat.receiveWebviewMessage({ type: 'undoEdit', entryId: card.id }));
    assert.strictEqual(await read(uri), 'one\ntwo\n', 'Undo restored the file');
    assert.strictEqual(ofKind(api.chat.snapshot(), 'tool').at(-1)?.edit?.undone, true, 'the card says Undone');

    assert.ok((await api.chat.send('What now?')).started);
    const told = lastUserContent(server, 2);
    assert.match(told, /the user undid your edit/);
    assert.match(told, /it-undo\.txt: the file is back to its content before your edit/);
    assert.match(told, /What now\?/);
    assert.deepStrictEqual(ofKind(api.chat.snapshot(), 'user').map((u) => u.text), ['Shout the second line.', 'What now?'], 'the note is for Claude, not a row of yours');

    assert.ok((await api.chat.send('Anything else?')).started);
    assert.doesNotMatch(lastUserContent(server, 3), /undid/, 'told once');
  });
});
