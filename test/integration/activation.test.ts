// The extension is installed under its id, activates, and registers every command its
// package.json declares (read at run time, so new commands are checked without editing this test).
import * as assert from 'assert';
import * as vscode from 'vscode';

const extensionId = 'claude-workspace-memory.claude-workspace-memory';

interface ContributedCommand {
  command: string;
}

suite('activation', () => {
  test('the extension is present and activates', async () => {
    const extension = vscode.extensions.getExtension(extensionId);
    assert.ok(extension, `${extensionId} is not installed`);
    const wasActive = extension.isActive;
    const started = performance.now();
    await extension.activate();
    // A figure for the report, not an assertion: timings vary with the machine.
    if (!wasActive) console.log(`    activate() took ${(performance.now() - started).toFixed(0)} ms`);
    assert.strictEqual(extension.isActive, true);
  });

  test('every command declared in package.json is registered', async () => {
    const extension = vscode.extensions.getExtension(extensionId);
    assert.ok(extension);
    await extension.activate();
    const declared = ((extension.packageJSON.contributes?.commands ?? []) as ContributedCommand[]).map((c) => c.command);
    assert.ok(declared.length > 0, 'package.json declares no commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = declared.filter((id) => !registered.has(id));
    assert.deepStrictEqual(missing, [], `declared but not registered: ${missing.join(', ')}`);
  });

  test('the workspace is the trusted single-folder sample workspace', () => {
    assert.strictEqual(vscode.workspace.isTrusted, true);
    assert.strictEqual(vscode.workspace.workspaceFolders?.length, 1);
    assert.strictEqual(vscode.workspace.workspaceFolders[0].name, 'sample-workspace');
  });
});
