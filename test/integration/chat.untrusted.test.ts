// Restricted Mode: the chat explains why it is off, and nothing can start an answer.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ClaudeMemoryApi } from '../../src/extension';

const extensionId = 'claude-workspace-memory.claude-workspace-memory';

suite('chat in an untrusted workspace', () => {
  let api: ClaudeMemoryApi;

  suiteSetup(async () => {
    const extension = vscode.extensions.getExtension<ClaudeMemoryApi>(extensionId);
    assert.ok(extension);
    api = await extension.activate();
  });

  test('the chat is disabled and says why', () => {
    const reason = api.chat.snapshot().status.disabledReason;
    assert.ok(reason, 'a disabled reason is shown');
    assert.match(reason, /Restricted Mode/);
    assert.match(reason, /[Tt]rust/);
    assert.strictEqual(api.chat.snapshot().status.disabledAction, 'manageTrust');
  });

  test('neither the chat nor Ask Claude starts an answer', async () => {
    const direct = await api.chat.send('Write to my memory.');
    assert.strictEqual(direct.started, false);
    const viaCommand = (await vscode.commands.executeCommand('claudeMemory.ask', 'Write to my memory.')) as { started: boolean } | undefined;
    assert.strictEqual(viaCommand?.started, false);
    assert.deepStrictEqual(api.chat.snapshot().entries, [], 'no message was added');
    assert.strictEqual(api.chat.snapshot().status.running, false);
  });
});
