/**
 * The chat feature's registrations: the webview view and the reactions to trust and folder
 * changes. Returns a small API the extension exposes for tests, and the pieces the chat's
 * commands need (chatCommands.ts; index.ts registers both).
 */
import * as vscode from 'vscode';
import { rewindFromCard, undoRewindFromCard } from './chatRewind';
import { registerEditDiffActions } from './editDiffActions';
import { COMMANDS, CONTEXT_KEYS, focusViewCommand, VIEWS } from '../../platform/ids';
import type { ExtensionServices } from '../../platform/services';
import { SETTINGS_SECTION } from '../../platform/settings';
import { allowDomainForCommands } from '../../platform/workspaceTools';
import { mayHaveChanged } from '../../platform/storeChanges';
import { formatCost } from '../../core/agent/pricing';
import { ChatArchive, type ChatSummary } from '../../core/session/chatArchive';
import { SESSION_FILES } from '../../core/session/memoryFiles';
import { workspaceChatBlobs } from '../../platform/chatStorage';
import { ChatController, type ChatEnvironment, type ChatSendResult, type SendOptions } from './chatController';
import { runCodeAction } from './chatCodeActions';
import { openLine } from './shared/cardText';
import { chatEnvironment } from './chatEnvironment';
import { chatMessageRouter, type ChatActions } from './chatPage';
import { ChatPanel } from './chatPanel';
import { parseSavedConversation, savedConversationRows } from './chatTranscript';
import { ChatViewProvider } from './chatViewProvider';
import type { ChatSnapshot } from './shared/protocol';
import { ChatAttention } from './chatAttention';
import { changeSummaryPort, registerCheckpointDocuments, runSummaryAction, type MemoryReviews } from './changeSummaryUi';
import { runFollowUp } from './chatFollowUps';

const OPEN_CHAT = 'Open Chat';

/** What the rest of the extension (and the integration tests) can do with the chat. */
export interface ChatApi {
  /** The conversation as the view shows it. */
  snapshot(): ChatSnapshot;
  /** Fires after every change of the conversation. */
  readonly onDidChange: vscode.Event<void>;
  send(prompt: string, options?: SendOptions): Promise<ChatSendResult>;
  /** What the error's Retry button does. */
  retry(): Promise<ChatSendResult>;
  stop(): void;
  newChat(): Promise<void>;
  /** Chat History, most recently updated first; `chatId()` is the conversation on screen. */
  listChats(): Promise<ChatSummary[]>;
  chatId(): string | undefined;
  /** Reopens a chat of Chat History (false: not kept, or an answer runs). */
  openChat(id: string): Promise<boolean>;
  deleteChat(id: string): Promise<boolean>;
  /** Resolves once the last conversation is restored after start-up. */
  whenRestored(): Promise<void>;
  /** Resolves once no answer is running. */
  whenIdle(): Promise<void>;
  /** True once the chat webview is showing and has said `ready`. */
  isWebviewReady(): boolean;
  /** Shows the chat view (creating its webview if needed). */
  reveal(focusInput?: boolean): Promise<void>;
  /** The workspace folder whose memory the chat works in (undefined without a folder). */
  folder(): vscode.WorkspaceFolder | undefined;
  /** The text next to the Chat view's title: the folder's name, only in a multi-root workspace. */
  viewDescription(): string | undefined;
  /**
   * Handles `message` as if the chat webview had posted it: the same validation and handlers
   * (for tests, e.g. a click on a tool card). Resolves once its action is done.
   */
  receiveWebviewMessage(message: unknown): Promise<void>;
  /** "Open Chat in Editor": the same conversation in an editor-area panel. */
  openInEditor(): void;
  /** True once the editor panel's page has said `ready`. */
  isPanelReady(): boolean;
  /** The chat view's badge: the number of cards waiting for the user (undefined: none). */
  waitingBadge(): vscode.ViewBadge | undefined;
  /** Buttons under the conversation's last message, acting in `folder` (ChatController.addFollowUps). */
  addFollowUps: ChatController['addFollowUps'];
}

/** The chat's pieces, for the command files. */
export interface ChatFeature {
  readonly controller: ChatController;
  reveal(focusInput?: boolean): Promise<void>;
  /** "Open Chat in Editor": the same conversation in an editor-area panel. */
  openInEditor(): void;
}

/** The questions the chat asks outside its webview (ui/prompts.ts's UserPrompts fits). */
export interface ChatPrompts {
  /** A modal yes/no; true only when the user chose `confirmLabel`. */
  confirm(message: string, detail: string, confirmLabel: string): Thenable<boolean>;
}

export function registerChat(context: vscode.ExtensionContext, services: ExtensionServices, prompts: ChatPrompts, reviews?: MemoryReviews): { api: ChatApi; feature: ChatFeature } {
  const archive = new ChatArchive(workspaceChatBlobs(context.storageUri, context.workspaceState), parseSavedConversation, undefined, savedConversationRows);
  const base = chatEnvironment(services, context.workspaceState, archive, context.extensionUri);
  const checkpoints = (folder: vscode.WorkspaceFolder) => base.checkpoints?.(folder);
  const env: ChatEnvironment = { ...base, changeSummary: changeSummaryPort(services, checkpoints, (message, detail, label) => prompts.confirm(message, detail, label), reviews) };
  const controller = new ChatController(env);
  const actions = chatActions(controller, env, prompts, services);
  const route = chatMessageRouter(actions, env.log);
  const provider = new ChatViewProvider(context.extensionUri, controller, route, env.log);
  const panel = new ChatPanel(context.extensionUri, controller, route, env.log);
  const changed = new vscode.EventEmitter<void>();
  const attention = new ChatAttention();

  const reveal = async (focusInput = false): Promise<void> => {
    // `<viewId>.focus` is the command VS Code generates for every view: it opens the container
    // and resolves the webview if it was never shown.
    await vscode.commands.executeCommand(focusViewCommand(VIEWS.chat));
    if (focusInput) provider.focusInput();
  };
  const feature: ChatFeature = { controller, reveal, openInEditor: () => panel.open() };
  // Which folder's memory the chat uses only needs saying when there is a choice; the session's
  // estimated cost once there is one.
  const viewDescription = (): string | undefined => {
    const folder = services.stores.all().length > 1 ? controller.currentStore()?.folder.name : undefined;
    const cost = controller.snapshot().status.costUsd;
    const parts = [folder, cost !== undefined ? `≈ ${formatCost(cost)} this chat` : undefined].filter((p) => p !== undefined);
    return parts.length > 0 ? parts.join(' · ') : undefined;
  };
  let described: string | undefined;
  const describe = (): void => {
    const next = viewDescription();
    if (next === described) return;
    described = next;
    provider.setDescription(next);
  };
  describe();
  const updateKeyContext = (): void => {
    const key = controller.snapshot().status.key;
    if (key !== undefined) void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.apiKeySet, key !== 'missing');
  };

  context.subscriptions.push(
    controller,
    provider,
    panel,
    registerCheckpointDocuments(checkpoints),
    registerEditDiffActions(controller, env.log),
    changed,
    ...followActiveEditor(controller),
    controller.onPatch((patch) => {
      if (patch.type === 'status' || patch.type === 'snapshot') {
        describe();
        updateKeyContext();
      }
      changed.fire();
    }),
    // No retainContextWhenHidden: the webview is rebuilt from the controller's state instead,
    // which costs nothing while hidden.
    vscode.window.registerWebviewViewProvider(VIEWS.chat, provider),
    controller.onDidChangeFolder(describe),
    services.trust.onDidGrant(() => controller.refreshAvailability()),
    services.stores.onDidChange(() => {
      controller.refreshAvailability();
      describe();
    }),
    services.settings.onDidChange((change) => {
      if (change.affects('memoryFolder')) controller.refreshAvailability();
      else if (change.affects('model')) void controller.refreshStarter();
    }),
    // The empty chat offers Resume Session while the checklist has a feature left: features.json
    // is followed whoever changes it (Claude, a tick in the Features view, the editor, git).
    services.storeChanges.onDidChange((change) => {
      if (mayHaveChanged(change, (store) => [store.fs.uriOf(SESSION_FILES.features)])) void controller.refreshStarter();
    }),
    // A card waiting while the chat is out of sight: a badge, and a notification with Open Chat.
    controller.onDidChangeWaiting((waiting) => {
      const inSight = (provider.visible || panel.visible) && vscode.window.state.focused;
      const { badge, notify } = attention.update(waiting, inSight);
      provider.setBadge(badge);
      if (notify === undefined) return;
      env.log.info(`a card waits while the chat is out of sight: ${notify}`);
      void vscode.window.showInformationMessage(notify, OPEN_CHAT).then((choice) => {
        if (choice === OPEN_CHAT) void (panel.visible ? panel.open() : reveal(false));
      });
    }),
  );

  const api: ChatApi = {
    snapshot: () => controller.snapshot(),
    onDidChange: changed.event,
    send: (prompt, options) => controller.send(prompt, options),
    retry: () => controller.retry(),
    stop: () => controller.stop(),
    newChat: () => controller.newChat(),
    listChats: () => controller.listChats(),
    chatId: () => controller.chatId,
    openChat: (id) => controller.openChat(id),
    deleteChat: (id) => controller.deleteChat(id),
    whenRestored: () => controller.restored,
    whenIdle: () => controller.whenIdle(),
    isWebviewReady: () => provider.isReady,
    reveal,
    folder: () => controller.currentStore()?.folder,
    viewDescription,
    receiveWebviewMessage: route,
    openInEditor: () => panel.open(),
    isPanelReady: () => panel.isReady,
    waitingBadge: () => provider.currentBadge,
    addFollowUps: (folder, actions, note, onAnswer) => controller.addFollowUps(folder, actions, note, onAnswer),
  };
  return { api, feature };
}

function chatActions(controller: ChatController, env: ChatEnvironment, prompts: ChatPrompts, services: ExtensionServices): ChatActions {
  return {
    send: (text) => void controller.send(text).then(explainRefusal),
    stop: () => controller.stop(),
    retry: () => void controller.retry().then(explainRefusal),
    openMemory: (entryId, path) => openMemory(controller, entryId, path),
    setApiKey: () => void setApiKeyThenRetry(controller, env),
    getApiKey: () => void vscode.env.openExternal(vscode.Uri.parse(API_KEYS_URL)),
    openSettings: () => void vscode.commands.executeCommand('workbench.action.openSettings', `${SETTINGS_SECTION}.`),
    manageTrust: () => void vscode.commands.executeCommand('workbench.trust.manage'),
    openFolder: () => void vscode.commands.executeCommand('workbench.action.files.openFolder'),
    reopenPrevious: async () => void (await controller.reopenPrevious()),
    removeAttachment: (id) => controller.detach(id),
    toggleAttachment: (id) => controller.toggleAttachment(id),
    code: (action, code, language) => runCodeAction(action, code, language),
    manageRules: () => void vscode.commands.executeCommand(COMMANDS.manageCommandRules),
    sandboxSetting: () => void vscode.commands.executeCommand('workbench.action.openSettings', `${SETTINGS_SECTION}.sandbox`),
    allowHost: async (entryId, label) => {
      await controller.allowBlockedHost(entryId, label, async (host) => {
        await allowDomainForCommands(host);
        env.log.info(`[bash] added ${host} to sandbox.allowedDomains from a blocked request's card`);
      });
    },
    approve: (entryId, decision, details) => {
      if (!controller.approve(entryId, decision, details)) void vscode.window.showInformationMessage('That question was already answered.');
    },
    openDiff: async (entryId) => {
      if (!(await controller.openDiff(entryId))) void vscode.window.showInformationMessage('This edit is no longer known to the chat.');
    },
    undoEdit: (entryId) => undoEdit(controller, prompts, env.log, entryId),
    rewind: (entryId) => rewindFromCard(controller, env.log, entryId),
    undoRewind: (entryId) => undoRewindFromCard(controller, env.log, entryId),
    showChange: (entryId) => showChange(controller, entryId),
    unfoldOutput: (entryId) => controller.unfoldOutput(entryId),
    openFile: (entryId) => openFile(controller, entryId),
    starter: (action) => {
      const command = { initialize: COMMANDS.initialize, resume: COMMANDS.resume, addFile: COMMANDS.chatAddFile }[action];
      void vscode.commands.executeCommand(command);
    },
    summary: async (action, row) => void (await runSummaryAction(services, controller.changes, action, row)),
    followUp: (entryId, action) => runFollowUp(controller, () => services.stores.all().map((s) => s.folder), entryId, action),
  };
}

/**
 * The active editor's file (or selection) as a chip in the chat's input. Only files of the
 * workspace: not output panes, diffs or settings.
 */
function followActiveEditor(controller: ChatController): vscode.Disposable[] {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const update = (): void => {
    const editor = vscode.window.activeTextEditor;
    const uri = editor?.document.uri;
    const inWorkspace = uri !== undefined && vscode.workspace.getWorkspaceFolder(uri) !== undefined;
    controller.followEditor(inWorkspace ? uri : undefined, inWorkspace ? editor?.selection : undefined);
  };
  // Selections change at typing speed; the chip needs to be right only when the user sends.
  const soon = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(update, 250);
  };
  update();
  return [
    vscode.window.onDidChangeActiveTextEditor(update),
    vscode.window.onDidChangeTextEditorSelection(soon),
    { dispose: () => timer && clearTimeout(timer) },
  ];
}

/** A button that did nothing says why (busy, disabled, nothing to retry); a message waiting for a key is on screen already. */
function explainRefusal(result: ChatSendResult): void {
  if (!result.started && !result.pending) void vscode.window.showInformationMessage(result.reason);
}

/** Where a user gets an Anthropic API key (the chat's key prompt links to it). */
export const API_KEYS_URL = 'https://console.anthropic.com/settings/keys';

/**
 * Runs the extension's "Set API Key". A message waiting for a key is sent by the controller when
 * the key changes; a message that failed on a rejected key (401) is sent again here.
 */
async function setApiKeyThenRetry(controller: ChatController, env: ChatEnvironment): Promise<void> {
  const before = await env.apiKey();
  await vscode.commands.executeCommand(COMMANDS.setApiKey);
  const after = await env.apiKey();
  if (!after || after === before) return;
  const pendingSent = await controller.refreshKey();
  if (!pendingSent && controller.canRetry) await controller.retry();
}

/**
 * Opens a tool card's path in the memory of the folder its call ran in: after a folder switch
 * the same `/memories` path names a different file in the chat's current folder.
 */
/** A memory write card's History link: its version in the Memory Changes feed, of the store the call ran in. */
async function showChange(controller: ChatController, entryId: string): Promise<void> {
  const entry = controller.snapshot().entries.find((e) => e.id === entryId);
  const lookup = controller.storeForEntry(entryId);
  if (entry?.kind !== 'tool' || entry.version === undefined || !lookup.ok) {
    void vscode.window.showInformationMessage(`This change is no longer known to the chat${lookup.ok ? '' : `: ${lookup.reason}`}`);
    return;
  }
  await vscode.commands.executeCommand(COMMANDS.showChange, { folderUri: lookup.store.folder.uri.toString(), version: entry.version });
}

/**
 * An edit card's Undo: asks first (naming the file), then restores it and says so; Claude is told
 * with the next message (ChatController.undoEdit).
 */
async function undoEdit(controller: ChatController, prompts: ChatPrompts, log: ChatEnvironment['log'], entryId: string): Promise<void> {
  const edit = controller.edits.get(entryId);
  if (!edit) {
    void vscode.window.showInformationMessage('This edit is no longer known to the chat.');
    return;
  }
  const created = edit.before === undefined;
  let ok: boolean;
  try {
    ok = await prompts.confirm(
      created ? `Undo Claude's creation of ${edit.path}?` : `Undo Claude's edit to ${edit.path}?`,
      `${created ? 'The file Claude created is deleted (moved to the trash).' : 'The file goes back to its content before this edit.'} Claude is told with your next message.`,
      'Undo',
    );
  } catch {
    // A dialog the workbench refuses to show is no "yes".
    ok = false;
  }
  log.info(`undo of ${edit.path} from its chat card: ${ok ? 'confirmed' : 'not confirmed'}`);
  if (!ok) return;
  const result = await controller.undoEdit(entryId);
  if (!result.ok) {
    void vscode.window.showWarningMessage(`Not undone: ${result.reason}`);
    return;
  }
  vscode.window.setStatusBarMessage(`$(discard) Undid Claude's ${created ? 'creation of' : 'edit to'} ${edit.path}; Claude is told with your next message`, UNDONE_MESSAGE_MS);
}

/** How long the status bar says an edit was undone. */
const UNDONE_MESSAGE_MS = 8_000;

/**
 * A workspace file card's link: the card's file in the folder its call ran in, at the lines a
 * read covered (selected) or the line an edit changed; a folder is revealed in the Explorer.
 * The path comes from the card the extension made, never from the webview's message.
 */
async function openFile(controller: ChatController, entryId: string): Promise<void> {
  const entry = controller.snapshot().entries.find((e) => e.id === entryId);
  const file = entry?.kind === 'tool' ? entry.file : undefined;
  const lookup = controller.storeForEntry(entryId);
  if (!file || !lookup.ok) {
    void vscode.window.showInformationMessage(`This file is no longer known to the chat${lookup.ok ? '' : `: ${lookup.reason}`}`);
    return;
  }
  const segments = file.path === '.' ? [] : file.path.split('/');
  if (file.path.startsWith('/') || segments.some((s) => s === '' || s === '.' || s === '..')) return;
  const uri = vscode.Uri.joinPath(lookup.store.folder.uri, ...segments);
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(uri);
  } catch {
    void vscode.window.showInformationMessage(`${file.path} does not exist (any more).`);
    return;
  }
  if (stat.type & vscode.FileType.Directory) {
    await vscode.commands.executeCommand('revealInExplorer', uri);
    return;
  }
  const line = openLine(file);
  const end = file.range && file.range[1] !== -1 ? file.range[1] : undefined;
  const selection =
    line === undefined ? undefined : end !== undefined && end >= line ? new vscode.Range(line - 1, 0, end - 1, Number.MAX_SAFE_INTEGER) : new vscode.Range(line - 1, 0, line - 1, 0);
  await vscode.window.showTextDocument(uri, { preview: true, ...(selection ? { selection } : {}) });
}

async function openMemory(controller: ChatController, entryId: string, memoryPath: string): Promise<void> {
  const lookup = controller.storeForEntry(entryId);
  if (!lookup.ok) {
    void vscode.window.showWarningMessage(`Cannot open ${memoryPath}: ${lookup.reason}`);
    return;
  }
  const uri = lookup.store.uriOf(memoryPath);
  if (!uri) {
    void vscode.window.showWarningMessage(`Cannot open ${memoryPath}: it is not a path in the memory of "${lookup.store.folder.name}".`);
    return;
  }
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(uri);
  } catch {
    void vscode.window.showInformationMessage(`${memoryPath} does not exist (any more).`);
    return;
  }
  if (stat.type & vscode.FileType.Directory) {
    await vscode.commands.executeCommand('revealInExplorer', uri);
    return;
  }
  await vscode.window.showTextDocument(uri, { preview: true });
}
