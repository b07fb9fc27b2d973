/** Memory expiry: the sweeps (on opening, daily, on command), Restore, Pin / Unpin and the near-expiry marks. */
import type * as vscode from 'vscode';
import type { ExtensionServices } from '../../platform/services';
import type { UserPrompts } from '../../ui/prompts';
import type { MemoryTree } from '../memoryTree';
import { registerExpiry, type ExpiryApi } from './registerExpiry';
import { registerExpiryViews } from './registerExpiryViews';

export type { ExpiryApi } from './registerExpiry';

export function register(context: vscode.ExtensionContext, services: ExtensionServices, tree: MemoryTree, prompts: UserPrompts): ExpiryApi {
  return registerExpiry(context, services, tree, registerExpiryViews(context, services, tree), prompts);
}
