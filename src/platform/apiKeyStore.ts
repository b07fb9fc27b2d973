import * as vscode from 'vscode';

import { API_KEY_SECRET } from './ids';

export { API_KEY_SECRET };
/** Read when no key is stored, as the SDK and the CLI do. */
export const API_KEY_ENV = 'ANTHROPIC_API_KEY';

export type ApiKeySource = 'secretStorage' | 'environment';

/**
 * The API key, kept in VS Code's SecretStorage (the OS keychain on desktop). The key itself is
 * never logged, shown or put in an error message: callers get it only to hand it to the SDK.
 */
export class ApiKeyStore implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  private readonly subscription: vscode.Disposable;
  /** Fires when the stored key is set or cleared (in this or another window). */
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key === API_KEY_SECRET) this.emitter.fire();
    });
  }

  async get(): Promise<string | undefined> {
    return (await this.getWithSource())?.key;
  }

  async getWithSource(): Promise<{ key: string; source: ApiKeySource } | undefined> {
    const stored = await this.secrets.get(API_KEY_SECRET);
    if (stored) return { key: stored, source: 'secretStorage' };
    const fromEnv = this.env[API_KEY_ENV]?.trim();
    return fromEnv ? { key: fromEnv, source: 'environment' } : undefined;
  }

  /** Stores a key after trimming; throws (without echoing the key) when it cannot be one. */
  async set(key: string): Promise<void> {
    const reason = invalidApiKeyReason(key);
    if (reason) throw new Error(`Not stored: the API key ${reason}.`);
    await this.secrets.store(API_KEY_SECRET, key.trim());
  }

  async clear(): Promise<void> {
    await this.secrets.delete(API_KEY_SECRET);
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

/** Why `key` cannot be an API key, or undefined. Never includes the key. */
export function invalidApiKeyReason(key: string): string | undefined {
  const trimmed = key.trim();
  if (trimmed === '') return 'is empty';
  if (/\s/.test(trimmed)) return 'contains spaces or line breaks';
  if (trimmed.length < 20) return 'is too short';
  if (trimmed.length > 500) return 'is too long';
  return undefined;
}
