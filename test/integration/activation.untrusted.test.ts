// Restricted Mode pass (workspace trust on, not granted): the extension still activates (it
// declares limited untrusted-workspace support) and the pass really is untrusted.
import * as assert from 'assert';
import * as vscode from 'vscode';

// Not imported from activation.test: requiring that file would run its suite in this pass too.
const extensionId = 'claude-workspace-memory.claude-workspace-memory';

suite('activation in an untrusted workspace', () => {
  test('the workspace is not trusted', () => {
    assert.strictEqual(vscode.workspace.isTrusted, false);
  });

  test('the extension activates in Restricted Mode', async () => {
    const extension = vscode.extensions.getExtension(extensionId);
    assert.ok(extension, `${extensionId} is not installed`);
    await extension.activate();
    assert.strictEqual(extension.isActive, true);
  });
});
