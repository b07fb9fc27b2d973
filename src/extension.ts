import * as vscode from 'vscode';
import * as agents from './features/agents';
import * as apiKey from './features/apiKey';
import * as changes from './features/changes';
import * as chatFeature from './features/chat';
import * as expiryFeature from './features/expiry';
import * as memoryTree from './features/memoryTree';
import * as session from './features/session';
import { createServices } from './platform/createServices';
import { registerHandEdits } from './platform/handEdits';
import type { ExtensionServices } from './platform/services';
import { PromptsHolder, type UserPrompts } from './ui/prompts';
import { registerVersionDocuments } from './ui/versionDocuments';

/**
 * Defined by esbuild (extensionBundle.js): true in the development bundle that `npm run build`
 * makes for the extension tests, false in the packaged one, where the test hooks below are dead
 * code and esbuild drops them.
 */
declare const __TEST_HOOKS__: boolean;

/**
 * The integration tests' hooks into the running extension: what activate() returns only in the
 * development bundle and only while VS Code runs extension tests (ExtensionMode.Test). They hold
 * the services (the API key's store among them) and can send chat messages, so the packaged
 * extension returns nothing: other extensions get no API (docs/security.md#what-the-extension-exports).
 */
export interface ClaudeMemoryApi {
  readonly services: ExtensionServices;
  readonly memoryTree: memoryTree.MemoryTreeProvider;
  readonly memoryTreeView: vscode.TreeView<memoryTree.MemoryNode>;
  /** Reveals the files the agent touches in the Memory view. */
  readonly memoryTreeRevealer: { readonly lastRevealed: memoryTree.MemoryNode | undefined };
  readonly chat: chatFeature.ChatApi;
  /** The Memory Changes feed: every store's recent versions, with diff, Undo and a review badge. */
  readonly changeFeed: changes.ChangeFeed;
  /** Initialize/Resume and the Features view. */
  readonly multiSession: session.MultiSessionApi;
  /** The workspace memory for other agents: the Language Model tool and the MCP server definitions. */
  readonly agentAccess: agents.AgentAccess;
  /** Memory expiry: the sweeps, Restore, pins and near-expiry badges. */
  readonly expiry: expiryFeature.ExpiryApi;
  /**
   * Replaces the input boxes and confirmations of the tree and API-key commands with scripted
   * answers. `undefined` restores them.
   */
  readonly testing: {
    setPrompts(prompts: UserPrompts | undefined): void;
    /** This extension's log folder; the output channel's file is in a sibling folder. */
    readonly logUri: vscode.Uri;
  };
}

/** What deactivate waits for: the chat's last save (set by activate). */
let beforeExit: (() => Promise<void>) | undefined;

export function activate(context: vscode.ExtensionContext): ClaudeMemoryApi | undefined {
  const started = performance.now();
  const services = createServices(context);
  const prompts = new PromptsHolder();
  context.subscriptions.push(registerVersionDocuments(services.stores));
  apiKey.register(context, services, prompts);
  const tree = memoryTree.register(context, services, prompts);
  context.subscriptions.push(registerHandEdits(services));
  const changeFeed = changes.register(context, services, prompts);
  const { api: chat, feature: chatParts } = chatFeature.register(context, services, prompts, changeFeed);
  beforeExit = () => chatParts.controller.flush();
  const multiSession = session.register(context, services, chat);
  const agentAccess = agents.register(context, services, () => chat.folder());
  const expiry = expiryFeature.register(context, services, tree, prompts);

  services.logger('extension').info(`activated in ${Math.round(performance.now() - started)} ms (${services.stores.all().length} workspace folder(s), trusted: ${services.trust.isTrusted()})`);
  // The packaged bundle ends here (test/unit/structure/exports.test.ts checks it returns nothing).
  if (__TEST_HOOKS__ && context.extensionMode === vscode.ExtensionMode.Test) {
    const testing = { setPrompts: (p: UserPrompts | undefined) => void (prompts.current = p ?? prompts.defaults), logUri: context.logUri };
    return { services, memoryTree: tree.provider, memoryTreeView: tree.view, memoryTreeRevealer: tree.revealer, chat, changeFeed, multiSession, agentAccess, expiry, testing };
  }
  return undefined;
}

/**
 * The window closes or reloads: VS Code calls this before it disposes the subscriptions, and waits
 * (at most 5 s) for the promise. The chat writes what is on screen, so nothing said is lost.
 */
export function deactivate(): Promise<void> | undefined {
  const flush = beforeExit;
  beforeExit = undefined;
  return flush?.();
}
