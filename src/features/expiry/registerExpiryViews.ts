import * as vscode from 'vscode';
import { MemoryExpiry } from '../../platform/memoryExpiry';
import type { ExtensionServices } from '../../platform/services';
import { ExpiryDecorationProvider } from './expiryDecorations';
import { ExpiryTreeMarks } from './expiryTreeMarks';
import type { MemoryTree } from '../memoryTree';

/**
 * Files cross into "close to expiry" by the passage of time alone, with nothing written: the
 * badges are re-judged this often (in memory, no disk access).
 */
const REJUDGE_MS = 60 * 60 * 1000;

export interface ExpiryViews {
  readonly expiry: MemoryExpiry;
  readonly decorations: ExpiryDecorationProvider;
  /** The first read of the stores' uses (activation does not wait for it). */
  readonly ready: Promise<void>;
}

/** Pins and expiry dates in the Memory tree, near-expiry badges on the files; kept current with the stores. */
export function registerExpiryViews(context: vscode.ExtensionContext, services: ExtensionServices, tree: MemoryTree): ExpiryViews {
  const expiry = new MemoryExpiry(services.stores, services.settings, services.logger('expiry'));
  const decorations = new ExpiryDecorationProvider(expiry);
  const timer = setInterval(() => decorations.update(), REJUDGE_MS);
  context.subscriptions.push(
    expiry,
    decorations,
    vscode.window.registerFileDecorationProvider(decorations),
    expiry.onDidChange(() => decorations.update()),
    tree.provider.addAnnotator(new ExpiryTreeMarks(expiry)),
    // Pins, agent reads and history live in the store's private folder: any change there counts.
    services.storeChanges.onDidChange(() => void expiry.refresh()),
    { dispose: () => clearInterval(timer) },
  );
  return { expiry, decorations, ready: expiry.refresh() };
}
