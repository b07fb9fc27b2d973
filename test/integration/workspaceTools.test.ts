// The workspace tools inside the real extension host: the text editor changes an open, dirty
// document through a WorkspaceEdit (the user's unsaved change stays, Ctrl+Z undoes Claude's edit,
// nothing is saved), saves a clean one, refuses the memory folder; bash runs in the folder and
// "Always allow" is remembered in the workspace's memento only.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ApprovalRequest, ToolApprover } from '../../src/core/agent/tools';
import { commandRules, createWorkspaceTools, type WorkspaceTools } from '../../src/platform/workspaceTools';
import { DEFAULT_SETTINGS } from '../../src/platform/settingsParse';
import { activateExtension, waitFor } from './chatSupport';
import { STATE_KEYS } from '../../src/platform/ids';

suite('workspace tools', () => {
  let folder: vscode.WorkspaceFolder;
  let tools: WorkspaceTools;
  const asked: ApprovalRequest[] = [];
  const approver: ToolApprover = { ask: async (request) => (asked.push(request), 'always') };
  const memento = new Map<string, unknown>();
  const fakeMemento: vscode.Memento = {
    keys: () => [...memento.keys()],
    get: <T>(key: string, fallback?: T) => (memento.has(key) ? (memento.get(key) as T) : fallback) as T,
    update: async (key: string, value: unknown) => void memento.set(key, value),
  };
  const files: vscode.Uri[] = [];
  const call = (tool: number, input: unknown) => tools.tools[tool].execute(input, { toolUseId: 'toolu_it', onOutput: () => undefined });

  suiteSetup(async () => {
    await activateExtension();
    // code-server saves dirty files after a delay by default (reason AfterDelay); the claim here
    // is about what the tool saves, so the editor's own auto save is off for this suite.
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    folder = vscode.workspace.workspaceFolders![0];
    tools = createWorkspaceTools({
      folder,
      approver,
      settings: () => DEFAULT_SETTINGS,
      memento: fakeMemento,
      log: { debug() {}, info() {}, warn() {}, error() {} } as never,
    });
  });
  suiteTeardown(async () => {
    tools.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    for (const uri of files) await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
  });

  async function file(name: string, text: string): Promise<vscode.Uri> {
    const uri = vscode.Uri.joinPath(folder.uri, name);
    files.push(uri);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    return uri;
  }

  test('edits an open dirty document through the editor: the unsaved change stays, undo reverts Claude, nothing is saved', async () => {
    const uri = await file('it-dirty.txt', 'alpha\nbeta\n');
    const document = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'USER '));
    assert.ok(document.isDirty);
    const saves: string[] = [];
    const listener = vscode.workspace.onWillSaveTextDocument((e) => saves.push(`${e.document.uri.path.split('/').pop()} reason ${e.reason}: ${JSON.stringify(e.document.getText())}`));
    const diskBefore = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    assert.strictEqual(diskBefore, 'alpha\nbeta\n', 'the user\'s edit is not on disk yet');

    const result = await call(0, { command: 'str_replace', path: 'it-dirty.txt', old_str: 'beta', new_str: 'gamma' });
    assert.strictEqual(result.is_error, false, String(result.content));
    assert.strictEqual(document.getText(), 'USER alpha\ngamma\n');
    assert.ok(document.isDirty, 'still dirty: the user saves their own work');
    listener.dispose();
    assert.deepStrictEqual(saves, [], 'nothing was saved');
    assert.strictEqual(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), 'alpha\nbeta\n', 'nothing was saved');

    await vscode.commands.executeCommand('undo');
    assert.strictEqual(document.getText(), 'USER alpha\nbeta\n', 'Ctrl+Z undoes Claude\'s edit, not the user\'s');
    // Leave nothing dirty behind for the suite's clean-up.
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  test('saves a document that had no unsaved changes, and refuses the memory folder', async () => {
    const uri = await file('it-clean.txt', 'one\n');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const result = await call(0, { command: 'insert', path: `${folder.uri.fsPath}/it-clean.txt`, insert_line: 1, new_str: 'two' });
    assert.strictEqual(result.is_error, false, String(result.content));
    // The save happened before the tool returned; the host's dirty flag may follow a moment later.
    const onDisk = async () => new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    await waitFor(async () => (await onDisk()) === 'one\ntwo\n', 'the edit saved to disk');
    await waitFor(() => !document.isDirty, 'the document clean after the save');
    const memory = await call(0, { command: 'view', path: '.claude-memories' });
    assert.match(String(memory.content), /use the memory tool for \/memories/);
  });

  test('runs bash in the folder after approval and remembers "Always allow" in the memento, not in settings', async () => {
    const result = await call(1, { command: 'pwd && touch it-made.txt' });
    files.push(vscode.Uri.joinPath(folder.uri, 'it-made.txt'));
    assert.strictEqual(result.is_error, false, String(result.content));
    assert.ok(String(result.content).startsWith(folder.uri.fsPath));
    assert.deepStrictEqual(asked.map((a) => a.kind === 'command' && a.prefixes), [['touch']]);
    assert.deepStrictEqual(memento.get(STATE_KEYS.alwaysAllowedCommands), ['touch']);
    assert.ok(commandRules(fakeMemento).allow.includes('touch'));
    const again = await call(1, { command: 'touch it-made.txt' });
    assert.strictEqual(again.is_error, false);
    assert.strictEqual(asked.length, 1, 'the remembered prefix does not ask again');
  });

  test('reads command rules from the user (global) scope only, never the workspace', async () => {
    const config = vscode.workspace.getConfiguration('claudeMemory');
    await config.update('commands.allow', ['make'], vscode.ConfigurationTarget.Global);
    try {
      assert.ok(commandRules(fakeMemento).allow.includes('make'));
      // An application-scoped setting cannot be written to the workspace at all.
      await assert.rejects(Promise.resolve(config.update('commands.allow', ['*'], vscode.ConfigurationTarget.Workspace)));
      assert.ok(!commandRules(fakeMemento).allow.includes('*'));
    } finally {
      await config.update('commands.allow', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
