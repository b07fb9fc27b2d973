// Multi-root pass: a .code-workspace with two copies of the sample workspace.
import * as assert from 'assert';
import * as vscode from 'vscode';

// Not imported from activation.test: requiring that file would run its suite in this pass too.
const extensionId = 'claude-workspace-memory.claude-workspace-memory';

suite('activation in a multi-root workspace', () => {
  test('two workspace folders are open', () => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.strictEqual(folders.length, 2);
    assert.notStrictEqual(folders[0].uri.toString(), folders[1].uri.toString());
    assert.ok(vscode.workspace.workspaceFile, 'expected a .code-workspace file');
  });

  test('the extension activates with several folders', async () => {
    const extension = vscode.extensions.getExtension(extensionId);
    assert.ok(extension, `${extensionId} is not installed`);
    await extension.activate();
    assert.strictEqual(extension.isActive, true);
  });
});
