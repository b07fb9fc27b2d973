/**
 * Every `claudeMemory.*` id the code uses, in one table: commands, views, context keys, the
 * secret's key. It lives in platform (no `vscode` import, nothing but constants) so every layer
 * may import it: commands register these ids, views and webviews put them on items and buttons.
 * test/unit/structure/ids.test.ts checks that no other file in src spells a `claudeMemory.` id,
 * and that COMMANDS matches package.json's contributes.commands both ways.
 */

/** Command ids, one per command declared in package.json (contributes.commands). */
export const COMMANDS = {
  setApiKey: 'claudeMemory.setApiKey',
  manageCommandRules: 'claudeMemory.manageCommandRules',
  clearApiKey: 'claudeMemory.clearApiKey',
  showLog: 'claudeMemory.showLog',
  refreshTree: 'claudeMemory.refreshTree',
  newFile: 'claudeMemory.newFile',
  newFolder: 'claudeMemory.newFolder',
  rename: 'claudeMemory.rename',
  delete: 'claudeMemory.delete',
  revealInExplorer: 'claudeMemory.revealInExplorer',
  copyMemoryPath: 'claudeMemory.copyMemoryPath',
  openFile: 'claudeMemory.openFile',
  ask: 'claudeMemory.ask',
  chatNew: 'claudeMemory.chat.new',
  chatHistory: 'claudeMemory.chat.history',
  chatStop: 'claudeMemory.chat.stop',
  chatChooseFolder: 'claudeMemory.chat.chooseFolder',
  openChat: 'claudeMemory.openChat',
  initialize: 'claudeMemory.initialize',
  resume: 'claudeMemory.resume',
  openFeature: 'claudeMemory.features.open',
  chatAddFile: 'claudeMemory.chat.addFile',
  chatOpenInEditor: 'claudeMemory.chat.openInEditor',
  askAboutSelection: 'claudeMemory.askAboutSelection',
  showHistory: 'claudeMemory.showHistory',
  restoreVersion: 'claudeMemory.restoreVersion',
  restoreDeleted: 'claudeMemory.restoreDeleted',
  pin: 'claudeMemory.pin',
  unpin: 'claudeMemory.unpin',
  expireNow: 'claudeMemory.expireNow',
  openChange: 'claudeMemory.changes.open',
  undoChange: 'claudeMemory.changes.undo',
  restoreExpired: 'claudeMemory.changes.restoreExpired',
  markAllReviewed: 'claudeMemory.changes.markAllReviewed',
  showChange: 'claudeMemory.changes.show',
  acceptEditInDiff: 'claudeMemory.chat.acceptEdit',
  rejectEditInDiff: 'claudeMemory.chat.rejectEdit',
} as const;

export type CommandId = (typeof COMMANDS)[keyof typeof COMMANDS];

/** View ids (package.json contributes.views). */
export const VIEWS = {
  memoryTree: 'claudeMemory.memoryTree',
  features: 'claudeMemory.features',
  chat: 'claudeMemory.chat',
  changes: 'claudeMemory.changes',
} as const;

export type ViewId = (typeof VIEWS)[keyof typeof VIEWS];

/** The command VS Code generates for every view: shows its container and focuses it. */
export function focusViewCommand(view: ViewId): `${ViewId}.focus` {
  return `${view}.focus`;
}

/** Context keys set with `setContext`, used in package.json `when` clauses. */
export const CONTEXT_KEYS = {
  storeEmpty: 'claudeMemory.storeEmpty',
  chatRunning: 'claudeMemory.chatRunning',
  apiKeySet: 'claudeMemory.apiKeySet',
  /** Some folder's checklist has a feature not passing yet: the Features view offers Resume Session. */
  canResume: 'claudeMemory.canResume',
  /** The active editor tab is a diff of a memory file's earlier version (Restore This Version shows). */
  versionDiffActive: 'claudeMemory.versionDiffActive',
  /** The active editor tab is the diff of an edit waiting on its chat card (Accept / Reject show in its title bar). */
  pendingEditDiffActive: 'claudeMemory.pendingEditDiffActive',
} as const;

/** Uri schemes of the extension's read-only documents. */
export const URI_SCHEMES = {
  /** An earlier version of a memory file: `claude-memory-version:/<folder index>/<version>/<store path>`. */
  version: 'claude-memory-version',
  /** A workspace file as a checkpoint holds it (the change summary's diffs): `claude-memory-checkpoint:/<folder index>/<checkpoint>/<path>`. */
  checkpoint: 'claude-memory-checkpoint',
} as const;

/** contributes.mcpServerDefinitionProviders[].id: the workspace memory's MCP servers. */
export const MCP_SERVER_PROVIDER = 'claudeMemory.workspaceMemoryServers';

/** The SecretStorage key of the Anthropic API key. */
export const API_KEY_SECRET = 'claudeMemory.anthropicApiKey';

/** Workspace-state (memento) keys. */
export const STATE_KEYS = {
  /** The command prefixes "Always allow" remembered for this workspace. */
  alwaysAllowedCommands: 'claudeMemory.commands.alwaysAllowed',
  /**
   * The one conversation New Chat set aside before Chat History kept them all; read once and
   * moved into the history.
   */
  previousChat: 'claudeMemory.chat.previous',
  /** Key prefix of Chat History's files when VS Code gives no workspace storage folder. */
  chatsPrefix: 'claudeMemory.chats/',
  /** When memory expiry last swept this workspace's stores (ms since the epoch). */
  lastExpirySweep: 'claudeMemory.expiry.lastSweep',
  /** What the user reviewed in the Memory Changes feed (a mark and opened versions per store). */
  reviewedChanges: 'claudeMemory.changes.reviewed',
} as const;

/** Webview panel types. */
export const PANEL_TYPES = {
  chat: 'claudeMemory.chatPanel',
} as const;
