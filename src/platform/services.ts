import type * as vscode from 'vscode';
import type { ApiKeyStore } from './apiKeyStore';
import type { Logger } from './logger';
import type { MemoryActivity } from './memoryActivity';
import type { MemoryStores } from './memoryStores';
import type { StoreChanges } from './storeChanges';
import type { Settings } from './settings';
import type { WorkspaceTrust } from './trust';

/**
 * What the composition root (src/extension.ts) hands every feature: the chat, the multi-session
 * commands, the tree. Everything here lives as long as the extension; features register their own
 * disposables on the ExtensionContext.
 */
export interface ExtensionServices {
  /** The one "Claude Memory" LogOutputChannel; prefer `logger(component)` for `[component]` lines. */
  readonly log: vscode.LogOutputChannel;
  logger(component: string): Logger;
  /** Typed, validated `claudeMemory.*` settings with a change event. */
  readonly settings: Settings;
  /** The Anthropic API key (SecretStorage, else ANTHROPIC_API_KEY). Never log it. */
  readonly apiKey: ApiKeyStore;
  /** One memory store (engine + Uris) per workspace folder; look it up per request. */
  readonly stores: MemoryStores;
  /**
   * The one "a store changed" signal (this window's writes, other processes' through one file
   * watcher per store, the stores rebuilt): every view of a store listens to it.
   */
  readonly storeChanges: StoreChanges;
  /** Fire after each agent memory tool call; the tree reveals and marks the file. */
  readonly memoryActivity: MemoryActivity;
  /** Untrusted workspace: no agent, no writes (the engine's file system refuses them too). */
  readonly trust: WorkspaceTrust;
}
