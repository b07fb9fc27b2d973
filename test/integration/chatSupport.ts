// Helpers for the chat integration suites (not a test file: the index loads only *.test.js).
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ClaudeMemoryApi } from '../../src/extension';
import type { ChatEntry, ChatSnapshot } from '../../src/features/chat/shared/protocol';
import { startMockMessagesApi, type MockMessagesApi, type MockStep } from '../support/mockMessagesApi';

export const extensionId = 'claude-workspace-memory.claude-workspace-memory';
export const FAKE_KEY = 'sk-ant-test-chat-integration-0000000000';

export async function activateExtension(): Promise<ClaudeMemoryApi> {
  const extension = vscode.extensions.getExtension<ClaudeMemoryApi>(extensionId);
  assert.ok(extension, `${extensionId} is not installed`);
  const api = await extension.activate();
  assert.ok(api?.testing, 'activate() returned no test hooks (only the development bundle, in ExtensionMode.Test)');
  return api;
}

/** Resolves when `predicate` holds for the chat (checked after each change), or fails after 15 s. */
export function waitForChat(api: ClaudeMemoryApi, predicate: (s: ChatSnapshot) => boolean, what: string): Promise<ChatSnapshot> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const snapshot = api.chat.snapshot();
      if (!predicate(snapshot)) return;
      clearTimeout(timer);
      subscription.dispose();
      resolve(snapshot);
    };
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`timed out waiting for: ${what}\n${JSON.stringify(api.chat.snapshot(), null, 1)}`));
    }, 15_000);
    const subscription = api.chat.onDidChange(check);
    check();
  });
}

export async function waitFor(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for: ${what}`);
}

/** Starts a scripted server and points the extension at it (user settings, as a person would). */
export async function serve(api: ClaudeMemoryApi, script: MockStep[], options: { apiKey?: string } = {}): Promise<MockMessagesApi> {
  const mock = await startMockMessagesApi(script, options);
  await vscode.workspace.getConfiguration('claudeMemory').update('apiBaseUrl', mock.url, vscode.ConfigurationTarget.Global);
  await waitFor(() => api.services.settings.get('apiBaseUrl') === mock.url, 'the extension reads the new apiBaseUrl');
  return mock;
}

export async function forgetApiBaseUrl(): Promise<void> {
  await vscode.workspace.getConfiguration('claudeMemory').update('apiBaseUrl', undefined, vscode.ConfigurationTarget.Global);
}

/** Stores a key through the real "Set API Key" command, answering its input box. */
export async function setKeyWithCommand(api: ClaudeMemoryApi, key: string): Promise<void> {
  api.testing.setPrompts({ inputBox: async () => key, confirm: async () => true, pickWorkspaceFolder: async () => undefined });
  try {
    await vscode.commands.executeCommand('claudeMemory.setApiKey');
  } finally {
    api.testing.setPrompts(undefined);
  }
  assert.strictEqual(await api.services.apiKey.get(), key);
}

export function ofKind<K extends ChatEntry['kind']>(s: ChatSnapshot, kind: K): Extract<ChatEntry, { kind: K }>[] {
  return s.entries.filter((e): e is Extract<ChatEntry, { kind: K }> => e.kind === kind);
}

export { exists } from './treeHelpers';
