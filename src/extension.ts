import * as vscode from 'vscode';
import { PromptsHolder, type UserPrompts } from './commands/prompts';
import { registerChangeFeedCommands } from './commands/changeFeedCommands';
import { registerChatCommands } from './commands/chatCommands';
import { registerManageCommandRules } from './commands/manageCommandRules';
import { registerCommands } from './commands/register';
import { registerExpiry, type ExpiryApi } from './commands/expiry/registerExpiry';
import { registerMultiSession, type MultiSessionApi } from './commands/session/register';
import { registerAgentAccess, type AgentAccess } from './lm/registerAgentAccess';
import { createServices } from './platform/createServices';
import { registerHandEdits } from './platform/handEdits';
import type { ExtensionServices } from './platform/services';
import { registerChangeFeed, type ChangeFeed } from './views/registerChangeFeed';
import type { MemoryNode } from './views/memoryTreeNodes';
import type { MemoryTreeProvider } from './views/memoryTreeProvider';
import { registerExpiryViews } from './views/registerExpiryViews';
import { registerMemoryTree } from './views/registerMemoryTree';
import { registerChat, type ChatApi } from './webviews/registerChat';

/** What activate() returns: for integration tests and other extensions. */
export interface ClaudeMemoryApi {
  readonly services: ExtensionServices;
  readonly memoryTree: MemoryTreeProvider;
  readonly memoryTreeView: vscode.TreeView<MemoryNode>;
  /** Reveals the files the agent touches in the Memory view. */
  readonly memoryTreeRevealer: { readonly lastRevealed: MemoryNode | undefined };
  readonly chat: ChatApi;
  /** The Memory Changes feed: every store's recent versions, with diff, Undo and a review badge. */
  readonly changeFeed: ChangeFeed;
  /** Initialize/Resume and the Features view. */
  readonly multiSession: MultiSessionApi;
  /** The workspace memory for other agents: the Language Model tool and the MCP server definitions. */
  readonly agentAccess: AgentAccess;
  /** Memory expiry: the sweeps, Restore, pins and near-expiry badges. */
  readonly expiry: ExpiryApi;
  /**
   * Only outside production (extension tests, development host): replaces the input boxes and
   * confirmations of the tree and API-key commands with scripted answers. `undefined` restores them.
   */
  readonly testing?: {
    setPrompts(prompts: UserPrompts | undefined): void;
    /** This extension's log folder; the output channel's file is in a sibling folder. */
    readonly logUri: vscode.Uri;
  };
}

/** What deactivate waits for: the chat's last save (set by activate). */
let beforeExit: (() => Promise<void>) | undefined;

export function activate(context: vscode.ExtensionContext): ClaudeMemoryApi {
  const started = performance.now();
  const services = createServices(context);
  const prompts = new PromptsHolder();
  const tree = registerMemoryTree(context, services);
  context.subscriptions.push(registerHandEdits(services));
  registerCommands(context, services, tree, prompts);
  const changeFeed = registerChangeFeed(context, services);
  registerChangeFeedCommands(context, changeFeed, prompts);
  const { api: chat, feature: chatFeature } = registerChat(context, services, prompts);
  registerChatCommands(context, chatFeature, prompts);
  beforeExit = () => chatFeature.controller.flush();
  registerManageCommandRules(context);
  const multiSession = registerMultiSession(context, services);
  const agentAccess = registerAgentAccess(context, services, () => chat.folder());
  const expiry = registerExpiry(context, services, tree, registerExpiryViews(context, services, tree), prompts);

  services.logger('extension').info(`activated in ${Math.round(performance.now() - started)} ms (${services.stores.all().length} workspace folder(s), trusted: ${services.trust.isTrusted()})`);
  const testing =
    context.extensionMode === vscode.ExtensionMode.Production
      ? undefined
      : { setPrompts: (p: UserPrompts | undefined) => void (prompts.current = p ?? prompts.defaults), logUri: context.logUri };
  return { services, memoryTree: tree.provider, memoryTreeView: tree.view, memoryTreeRevealer: tree.revealer, chat, changeFeed, multiSession, agentAccess, expiry, testing };
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
