// Shared by the Memory tree / settings / commands integration tests (not a test file itself).
import * as assert from 'assert';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { UserPrompts } from '../../src/ui/prompts';
import type { ClaudeMemoryApi } from '../../src/extension';
import type { MemoryStore } from '../../src/platform/memoryStores';
import type { MemoryNode } from '../../src/features/memoryTree/memoryTreeNodes';

export const extensionId = 'claude-workspace-memory.claude-workspace-memory';

export async function extensionApi(): Promise<ClaudeMemoryApi> {
  const extension = vscode.extensions.getExtension<ClaudeMemoryApi>(extensionId);
  assert.ok(extension, `${extensionId} is not installed`);
  const api = await extension.activate();
  assert.ok(api?.services, 'activate() returned no test hooks (only the development bundle, in ExtensionMode.Test)');
  return api;
}

/** A folder name no other test uses, so tests sharing the workspace never see each other's files. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${crypto.randomBytes(4).toString('hex')}`;
}

/**
 * Polls until `probe` returns a value. Not a timing assertion: the bound only turns "never"
 * into a readable failure (file watcher events take ~100–250 ms here).
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The node at `rel` as the tree currently lists it, walking down from the store's root with
 * getChildren (no explicit refresh: the tree must have noticed changes by itself).
 */
export async function findNode(api: ClaudeMemoryApi, store: MemoryStore, rel: string): Promise<MemoryNode | undefined> {
  const roots = await api.memoryTree.getChildren();
  let node = roots.find((r) => r.store.folder.uri.toString() === store.folder.uri.toString());
  if (!node || rel === '') return node;
  const parts = rel.split('/');
  for (let i = 0; i < parts.length && node; i++) {
    const want: string = parts.slice(0, i + 1).join('/');
    node = (await api.memoryTree.getChildren(node)).find((c: MemoryNode) => c.rel === want);
  }
  return node;
}

export function primaryStore(api: ClaudeMemoryApi): MemoryStore {
  const store = api.services.stores.primary();
  assert.ok(store, 'no memory store: the test workspace has no folder');
  return store;
}

export interface ScriptedPrompts extends UserPrompts {
  readonly asked: string[];
  /** The detail line of each confirmation, in order. */
  readonly details: string[];
}

/**
 * Answers input boxes and confirmations from a script, in order, and records what was asked.
 * Input answers are returned as typed even when validateInput objects, so the commands' own
 * re-validation is exercised too; the validation message is recorded. Folder picks answer with
 * the workspace folder at the scripted index (the first folder once the script is used up).
 */
export function scriptedPrompts(script: { inputs?: string[]; confirms?: boolean[]; folders?: number[] }): ScriptedPrompts {
  const inputs = [...(script.inputs ?? [])];
  const confirms = [...(script.confirms ?? [])];
  const folders = [...(script.folders ?? [])];
  const asked: string[] = [];
  const details: string[] = [];
  return {
    asked,
    details,
    async inputBox(options) {
      const answer = inputs.shift();
      asked.push(`input:${options.title ?? ''}`);
      if (answer !== undefined && options.validateInput) {
        const problem = await options.validateInput(answer);
        if (problem) asked.push(`invalid:${typeof problem === 'string' ? problem : problem.message}`);
      }
      return answer;
    },
    async confirm(message, detail) {
      asked.push(`confirm:${message}`);
      details.push(detail);
      return confirms.shift() ?? false;
    },
    async pickWorkspaceFolder() {
      asked.push('pickFolder');
      return vscode.workspace.workspaceFolders?.[folders.shift() ?? 0];
    },
  };
}

export async function withPrompts<T>(api: ClaudeMemoryApi, prompts: UserPrompts, run: () => Thenable<T>): Promise<T> {
  api.testing.setPrompts(prompts);
  try {
    return await run();
  } finally {
    api.testing.setPrompts(undefined);
  }
}

export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

export const text = (s: string): Uint8Array => new TextEncoder().encode(s);

/** The "Claude Memory" output channel's log file: `<exthost logs>/output_logging_<time>/<n>-Claude Memory.log`. */
export function channelLogText(api: ClaudeMemoryApi): string | undefined {
  const exthostLogs = path.dirname(api.testing.logUri.fsPath);
  if (!fs.existsSync(exthostLogs)) return undefined;
  const files = (fs.readdirSync(exthostLogs, { recursive: true }) as string[]).filter((f) => f.endsWith('Claude Memory.log'));
  return files.length > 0 ? files.map((f) => fs.readFileSync(path.join(exthostLogs, f), 'utf8')).join('\n') : undefined;
}
