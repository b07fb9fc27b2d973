// Multi-root: the chat works in the first workspace folder's memory (no picker, by design).
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ClaudeMemoryApi } from '../../src/extension';
import type { MockMessagesApi } from '../support/mockMessagesApi';
import { activateExtension, exists, FAKE_KEY, forgetApiBaseUrl, ofKind, serve, setKeyWithCommand } from './chatSupport';

suite('chat in a multi-root workspace', () => {
  let api: ClaudeMemoryApi;
  let mock: MockMessagesApi | undefined;

  suiteSetup(async () => {
    api = await activateExtension();
    delete process.env.ANTHROPIC_API_KEY;
    await setKeyWithCommand(api, FAKE_KEY);
  });

  suiteTeardown(async () => {
    await mock?.close();
    await forgetApiBaseUrl();
  });

  test('memory files the chat writes go to the first folder only', async () => {
    mock = await serve(api, [
      { content: [{ type: 'tool_use', input: { command: 'create', path: '/memories/multiroot.md', file_text: 'first folder\n' } }] },
      { content: [{ type: 'text', text: 'Written.' }] },
    ]);
    const result = await api.chat.send('Write a note.');
    assert.ok(result.started && result.outcome.ok);
    const [first, second] = api.services.stores.all();
    assert.ok(first && second, 'two stores');
    assert.strictEqual(first.folder.index, 0);
    assert.ok(await exists(vscode.Uri.joinPath(first.rootUri, 'multiroot.md')), 'written in the first folder');
    assert.ok(!(await exists(vscode.Uri.joinPath(second.rootUri, 'multiroot.md'))), 'not in the second folder');
    assert.deepStrictEqual(ofKind(api.chat.snapshot(), 'tool').map((e) => e.status), ['ok']);
  });
});
