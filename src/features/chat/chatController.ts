/**
 * The chat's state and behaviour, apart from any webview: one AgentSession, the transcript, the
 * running send and its AbortController. The view provider, the commands and the tests all drive
 * this one object, so the conversation outlives the webview.
 */
import { randomUUID } from 'crypto';
import { CONTEXT_KEYS, STATE_KEYS, VIEWS } from '../../platform/ids';
import * as vscode from 'vscode';
import { restoreHistory, trimHistory } from '../../core/agent/historyRepair';
import { AgentSession } from '../../core/agent/session';
import { chatTitle, type ChatArchive, type ChatSummary, type StoredChat } from '../../core/session/chatArchive';
import { parseFeatures, summarizeFeatures } from '../../core/session/features';
import { SESSION_FILES } from '../../core/session/memoryFiles';
import type { AgentOptions } from '../../core/agent/options';
import type { AgentOutcome } from '../../core/agent/events';
import { undoneEditsNote, type UndoneEdit } from '../../core/workspace/messages';
import type { MemoryToolExecutor, TouchedPath } from '../../core/memory/types';
import type { ChatAuthor } from './chatMemory';
import type { Logger } from '../../platform/logger';
import { folderInfo, type WorkspaceTools } from '../../platform/workspaceTools';
import type { SettingsSnapshot } from '../../platform/settings';
import type { BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { ApprovalRequest, CardDecision, ToolApprover } from '../../core/agent/tools';
import { ChatApprover } from './chatApprover';
import { ChatAttachments, promptWithAttachments, type PathNamer } from './chatAttachments';
import { SendQueue } from './sendQueue';
import { ChatEdits, type UndoResult } from './chatEdits';
import { ChatTranscript, parseSavedConversation, type ChatPatch, type PromptView, type SavedConversation } from './chatTranscript';
import type { ChatSnapshot, DisabledAction, KeyState } from './shared/protocol';
import { ToolEntryFolders, type EntryStoreLookup } from './toolEntryFolders';
import { rewindNote, type CheckpointStore, type RewindPlan } from '../../core/checkpoints';
import { ChangeSummary, type ChangeSummaryPort } from './changeSummary';

/** The memory store the chat works in: one workspace folder's (the first unless the user chose another). */
export interface ChatStore {
  readonly folder: vscode.WorkspaceFolder;
  /** The folder's memory as the chat's agent calls it, each call made by `author()` (chatMemory.ts). */
  memory(author: () => ChatAuthor): MemoryToolExecutor;
  /** The Uri of a `/memories/...` path, or undefined when the path is not a valid one. */
  uriOf(memoryPath: string): vscode.Uri | undefined;
  /** A store file's text (`progress.md`...), undefined when missing: what is reloaded after a compaction. */
  readFile?(name: string): Promise<string | undefined>;
}

/** What the chat needs from the rest of the extension (adapted from ExtensionServices in registerChat). */
export interface ChatEnvironment {
  readonly log: Logger;
  apiKey(): Promise<string | undefined>;
  settings(): Readonly<SettingsSnapshot>;
  /** The store of the workspace folder `folder`, or the first folder's when `folder` is undefined. */
  store(folder: vscode.Uri | undefined): ChatStore | undefined;
  isTrusted(): boolean;
  memoryTouched(store: ChatStore, touched: TouchedPath): void;
  keyState(): Promise<KeyState>;
  /** Fires when the stored key is set or cleared. */
  readonly onDidChangeKey: vscode.Event<void>;
  /** The workspace's state (where New Chat kept one conversation before Chat History). */
  readonly state: vscode.Memento;
  /** Chat History: every conversation of this workspace, kept across window reloads. */
  readonly archive: ChatArchive<SavedConversation>;
  /** How an attached file is named to Claude and on its chip. */
  readonly pathOf: PathNamer;
  /**
   * The text editor and bash tools for a folder (one set per chat session: one shell per chat);
   * they ask `approver` before a write or a command that no rule allows.
   */
  workspaceTools?(folder: vscode.WorkspaceFolder, approver: ToolApprover): WorkspaceTools;
  /** The compaction edit's instructions (media/templates/compaction-instructions.md). */
  compactionInstructions?(): Promise<string | undefined>;
  /** The folder's checkpoints (src/core/checkpoints); undefined where git cannot reach the folder. */
  checkpoints?(folder: vscode.WorkspaceFolder): Promise<CheckpointStore> | undefined;
  /** What the change summary above the composer works through (changeSummaryUi.ts); undefined: no summary. */
  readonly changeSummary?: ChangeSummaryPort;
}

/** What "Rewind to here" would do or did; `ok: false` says why it cannot. */
export type RewindOutcome = { ok: true; plan: RewindPlan; message: string } | { ok: false; reason: string };

/** How a prompt is sent: as a chip (built-in prompts), and whether it starts a fresh conversation. */
export interface SendOptions {
  label?: string;
  fresh?: boolean;
  /** A Resume session: Claude is reminded once to append its progress.md entry before it stops. */
  resume?: boolean;
}

/**
 * Size cap of a saved chat's API history, in characters of JSON: Claude continues a reopened chat
 * with its latest part that fits. The transcript (what the chat shows) is saved whole: the
 * archive writes it in chunks, only the changed ones per save.
 */
export const MAX_SAVED_HISTORY_CHARS = 2_500_000;
/** How often a running answer is saved (a reload mid-answer keeps what was shown until then). */
const SAVE_WHILE_RUNNING_MS = 1_000;

/** The conversation on screen, once it has a first message: what Chat History knows it by. */
interface ChatIdentity {
  id: string;
  title: string;
  created: number;
  /** Messages sent in it so far (the one being answered included). */
  turns: number;
  /** The folder it was about (a Uri string) and its name, until a session says otherwise. */
  folder: string;
  folderName: string;
}

export type ChatFolderResult = { ok: true; changed: boolean } | { ok: false; reason: string };

/** A message waiting for its turn (SendQueue); `cancelled` says why it will not be sent. */
interface QueuedSend {
  id: string;
  text: string;
  view: PromptView;
  attachments: ReturnType<ChatAttachments['take']>;
  cancelled?: string;
}

export type ChatSendResult =
  /** `pending`: the message is shown and waits for an API key; it is sent once one is set. */
  | { started: false; reason: string; pending?: boolean }
  | { started: true; outcome: AgentOutcome };

// After a failure with at least one complete model turn the prompt is already in the session's
// history, so Retry must not send it again: it asks Claude to go on instead.
const CONTINUE_PROMPT = 'Please continue where you left off.';

export class ChatController implements vscode.Disposable {
  /** Workspace edits the user undid from their cards since the last message: told to Claude with the next one. */
  private undoneEdits: UndoneEdit[] = [];
  /** A rewind since Claude's last turn: told to Claude with the next message. */
  private rewoundNote: string | undefined;
  /** The folder each user message's checkpoint is of (a rewind after a folder switch uses its own). */
  private readonly checkpointFolders = new Map<string, vscode.WorkspaceFolder>();
  /** The next send is a Resume session's routine (SendOptions.resume). */
  private resumeNext = false;
  private readonly transcript = new ChatTranscript();
  /** The folder each tool card's call ran in, so a card opens its own folder's file after a switch. */
  private readonly toolFolders = new ToolEntryFolders<vscode.WorkspaceFolder>();
  private readonly patches = new vscode.EventEmitter<ChatPatch>();
  /** Every change of the conversation, in order; the view forwards them to the webview. */
  readonly onPatch = this.patches.event;
  /** `leftFolder`: the chat switched folders since; this conversation is not continued. */
  private session: { key: string; folder: string; agent: AgentSession; leftFolder?: boolean } | undefined;
  /** The folder the user (or a command) chose; undefined means the first folder. */
  private chosenFolder: vscode.Uri | undefined;
  private readonly folderChanges = new vscode.EventEmitter<void>();
  /** Fires when the folder whose memory the chat uses changes. */
  readonly onDidChangeFolder = this.folderChanges.event;
  private abort: AbortController | undefined;
  private running: Promise<ChatSendResult> | undefined;
  private retryPrompt: string | undefined;
  /** Messages sent without a key, in order: sent as soon as one is set. */
  private pendingKeyPrompts: string[] = [];
  /**
   * Sends run one after the other: a message sent while an answer runs (or is being saved) waits
   * here, shown as queued, and goes out when the previous send is over. Never refused, never lost.
   */
  private readonly sends = new SendQueue();
  /** Messages queued behind the running send that a New Chat or reopen took back to the composer. */
  private readonly queued = new Set<QueuedSend>();
  private queuedIds = 0;
  /** History to continue with, from a reopened conversation. */
  private restoredHistory: BetaMessageParam[] | undefined;
  readonly attachments: ChatAttachments;
  /** Asks on the cards of commands and edits that need consent (the tools' ToolApprover). */
  readonly approver: ChatApprover;
  /** Workspace edits shown on cards, for Open Diff and Undo. */
  readonly edits = new ChatEdits();
  /** "What changed, at a glance" above the composer (changeSummary.ts). */
  readonly changes: ChangeSummary;
  private readonly waitingChanged = new vscode.EventEmitter<readonly ApprovalRequest[]>();
  /** Fires with every question still waiting on a card whenever one is asked or answered. */
  readonly onDidChangeWaiting = this.waitingChanged.event;
  /** Ends the chat view's progress indicator; set while it shows. */
  private endProgress: (() => void) | undefined;
  /** Card id → tool_use id of the questions on cards. */
  private readonly approvals = new Map<string, string>();
  /** The folder of the running send (edits are relative to it). */
  private runningFolder: vscode.WorkspaceFolder | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The workspace tools of the current session's folder; a new chat or folder gets new ones (a fresh shell). */
  private tools: { folder: string; set: WorkspaceTools } | undefined;
  /** Undefined for an empty new chat: it joins Chat History with its first message. */
  private chat: ChatIdentity | undefined;
  /** The last conversation, restored from Chat History on start-up; sends wait for it. */
  readonly restored: Promise<void>;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  /**
   * The New Chat, reopen or delete under way: a send waits for it, or it would start in the
   * conversation being replaced and be wiped with it.
   */
  private switching: Promise<unknown> = Promise.resolve();

  constructor(private readonly env: ChatEnvironment) {
    this.attachments = new ChatAttachments(env.pathOf);
    this.changes = new ChangeSummary(env.changeSummary ?? NO_SUMMARY_PORT, {
      onView: (changes) => this.emit([{ type: 'changes', changes }]),
      onState: async (now) => {
        if (now) await this.saveNow();
        else this.scheduleSave();
      },
      messageCheckpoints: () => this.transcript.snapshot().entries.flatMap((e) => (e.kind === 'user' && e.checkpoint !== undefined ? [e.checkpoint] : [])),
    });
    this.approver = new ChatApprover({
      asked: (request) => {
        // The answer waits for the user, not the other way round: the view's progress stops, so
        // its badge (the cards waiting) shows on the activity bar instead of the spinner.
        this.showProgress(false);
        this.waitingChanged.fire(this.approver.waitingRequests);
        this.emit(this.transcript.setApproval(request.toolUseId, request, 'pending'));
        const entryId = this.transcript.entryIdOf(request.toolUseId);
        if (!entryId) return;
        this.approvals.set(entryId, request.toolUseId);
        if (request.kind === 'edit' && this.runningFolder) {
          this.edits.record(entryId, { folder: this.runningFolder, path: request.path, before: request.before, after: request.after });
        }
      },
      answered: (request, decision, rule) => {
        // The badge goes first: the activity bar shows one of the view's badge and its progress.
        this.waitingChanged.fire(this.approver.waitingRequests);
        if (this.abort && this.approver.waitingRequests.length === 0) this.showProgress(true);
        this.emit(this.transcript.setApproval(request.toolUseId, rule !== undefined && request.kind === 'command' ? { ...request, prefixes: [rule] } : request, decision));
      },
    });
    this.refreshAvailability();
    this.subscriptions.push(
      env.onDidChangeKey(() => void this.refreshKey()),
      // Every change of the conversation's rows is saved (at most once a second while an answer
      // runs); status changes (the key, chips) are not the conversation's.
      this.patches.event((patch) => {
        if (patch.type === 'entry' || patch.type === 'text' || patch.type === 'remove' || patch.type === 'output') this.scheduleSave();
      }),
    );
    void this.refreshKey();
    this.restored = this.restoreLast().catch((error: unknown) => {
      this.env.log.error(`could not restore the last chat: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** Who makes this chat's memory calls: the chat's id, the message being answered, its title. */
  author(): ChatAuthor {
    return { name: 'chat', ...(this.chat ? { session: this.chat.id, turn: this.chat.turns, title: this.chat.title } : {}) };
  }

  /** The chats of Chat History, most recently updated first (the current one included). */
  async listChats(): Promise<ChatSummary[]> {
    await this.restored;
    return this.env.archive.list();
  }

  /** The id of the conversation on screen; undefined for an empty new chat. */
  get chatId(): string | undefined {
    return this.chat?.id;
  }

  /**
   * Reads whether a key exists and shows it; when a message was waiting for one, sends it now.
   * Resolves with that send's result, if there was one.
   */
  async refreshKey(): Promise<ChatSendResult | undefined> {
    const key = await this.env.keyState();
    this.emit(this.transcript.setKeyState(key));
    // A new (or removed) key: the one the API rejected is not the one on the key line any more.
    this.emit(this.transcript.setKeyRejected(false));
    const pending = this.pendingKeyPrompts;
    if (key === 'missing' || pending.length === 0 || this.running) return undefined;
    this.pendingKeyPrompts = [];
    this.emit(this.transcript.setPendingKey(false));
    const results = pending.map((prompt) => this.start(prompt, { show: false, resend: 'API key set: sending your message.' }));
    return results[0];
  }

  /** A click on a card's approval button; false when that card asks nothing (any more). */
  approve(entryId: string, decision: CardDecision, details: { rule?: string; reason?: string } = {}): boolean {
    const toolUseId = this.approvals.get(entryId);
    if (!toolUseId) return false;
    if (decision === 'sandboxed') {
      // "Allow sandboxed commands in this chat": this command once, later ones without asking.
      const command = this.approver.waiting(toolUseId)?.kind === 'command';
      if (command) this.tools?.set.allowSandboxedCommands();
      if (!this.approver.decide(toolUseId, 'once')) return false;
      this.approvals.delete(entryId);
      return true;
    }
    if (!this.approver.decide(toolUseId, decision, details)) return false;
    this.approvals.delete(entryId);
    return true;
  }

  /** Opens the diff of the edit on card `entryId`. */
  openDiff(entryId: string): Promise<boolean> {
    return this.edits.openDiff(entryId);
  }

  /** Restores the file of the edit on card `entryId` while it still holds Claude's version. */
  async undoEdit(entryId: string): Promise<UndoResult> {
    const edit = this.edits.get(entryId);
    const result = await this.edits.undo(entryId);
    if (result.ok) {
      this.emit(this.transcript.markUndone(entryId));
      void this.changes.refresh();
      // Claude is told with the next message; a later undo of the same file says the latest state.
      if (edit) {
        this.undoneEdits = this.undoneEdits.filter((u) => u.path !== edit.path);
        this.undoneEdits.push({ path: edit.path, created: edit.before === undefined });
      }
      this.env.log.info('undid an edit from its chat card; Claude is told with the next message');
    }
    return result;
  }

  /** The edits undone since Claude's last turn, for the next message's note (empty after). */
  private takeUndoneEditsNote(): string | undefined {
    const note = undoneEditsNote(this.undoneEdits);
    this.undoneEdits = [];
    return note;
  }

  private takeRewoundNote(): string | undefined {
    const note = this.rewoundNote;
    this.rewoundNote = undefined;
    return note;
  }

  /** The checkpoint store and id behind user message `entryId`'s "Rewind to here". */
  private async checkpointOf(entryId: string): Promise<{ ok: true; store: CheckpointStore; id: number; text: string } | { ok: false; reason: string }> {
    const entry = this.transcript.snapshot().entries.find((e) => e.id === entryId);
    if (entry?.kind !== 'user' || entry.checkpoint === undefined) return { ok: false, reason: 'This message has no checkpoint to rewind to.' };
    if (entry.rewound) return { ok: false, reason: 'This message was rewound already.' };
    if (this.abort !== undefined) return { ok: false, reason: 'Stop the running answer first: Claude may still be changing files.' };
    // An answer that just ended may still be being saved: the rewind comes after it.
    await this.sends.idle();
    const folder = this.checkpointFolders.get(entryId) ?? this.currentStore()?.folder;
    const store = folder === undefined ? undefined : this.env.checkpoints?.(folder);
    if (store === undefined) return { ok: false, reason: 'Checkpoints are only kept for folders on this computer\'s disk.' };
    try {
      return { ok: true, store: await store, id: entry.checkpoint, text: entry.text };
    } catch (error) {
      return { ok: false, reason: `The checkpoints cannot be read: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  /** What "Rewind to here" on user message `entryId` would change (nothing changes yet). */
  async previewRewind(entryId: string): Promise<RewindOutcome> {
    const found = await this.checkpointOf(entryId);
    if (!found.ok) return found;
    try {
      return { ok: true, plan: await found.store.preview(found.id), message: found.text };
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : String(error) };
    }
  }

  /**
   * Rewinds the folder's files and memory to the checkpoint before user message `entryId`. The
   * message and everything after it stay in the conversation, folded and marked rewound; the
   * message's text goes back to the composer; Claude is told with the next message.
   */
  async rewind(entryId: string): Promise<RewindOutcome> {
    const found = await this.checkpointOf(entryId);
    if (!found.ok) return found;
    let result;
    try {
      result = await found.store.rewind(found.id);
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : String(error) };
    }
    this.emit(this.transcript.markRewound(entryId, rewoundLine(result)));
    void this.changes.rewound(found.id);
    this.rewoundNote = rewindNote(found.text, result);
    // Edits undone from cards before the rewind are part of what the rewind note says.
    this.undoneEdits = [];
    this.emit([{ type: 'draft', text: found.text, reason: 'Rewound: your message is back here to edit and send again.' }]);
    this.env.log.info(`rewound to checkpoint ${found.id}: ${result.files.length} file(s), ${result.memory.length} memory file(s); backup checkpoint ${result.backup.id}`);
    await this.saveNow();
    return { ok: true, plan: result, message: found.text };
  }

  /** Adds a file (or a selection of it) as a chip in the input; it goes with the next message. */
  attach(uri: vscode.Uri, range?: vscode.Range): void {
    this.attachments.add(uri, range);
    this.emit(this.transcript.setAttachments(this.attachments.list()));
  }

  /** The active editor changed (or its selection): its chip follows. */
  followEditor(uri: vscode.Uri | undefined, selection: vscode.Range | undefined): void {
    if (this.attachments.follow(uri, selection)) this.emit(this.transcript.setAttachments(this.attachments.list()));
  }

  detach(id: string): void {
    if (this.attachments.remove(id)) this.emit(this.transcript.setAttachments(this.attachments.list()));
  }

  snapshot(): ChatSnapshot {
    return this.withChanges(this.transcript.snapshot());
  }

  /** What a view is sent when it opens: old cards' outputs folded (ChatTranscript.viewSnapshot). */
  viewSnapshot(): ChatSnapshot {
    return this.withChanges(this.transcript.viewSnapshot());
  }

  private withChanges(snapshot: ChatSnapshot): ChatSnapshot {
    const changes = this.changes.view;
    return changes === undefined ? snapshot : { ...snapshot, changes };
  }

  /** A folded card's Show Output: the card is sent again with its output. */
  unfoldOutput(entryId: string): void {
    this.emit(this.transcript.unfolded(entryId));
  }

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  get canRetry(): boolean {
    return !this.isRunning && this.retryPrompt !== undefined;
  }

  /**
   * The store the chat works in: the chosen folder's, else the first folder's (also when the
   * chosen folder was removed from the workspace).
   */
  currentStore(): ChatStore | undefined {
    return (this.chosenFolder && this.env.store(this.chosenFolder)) || this.env.store(undefined);
  }

  /**
   * The store a tool card's path opens in: the one of the folder its call ran in (see
   * ToolEntryFolders.storeFor for removed folders and unknown ids).
   */
  storeForEntry(entryId: string): EntryStoreLookup<ChatStore> {
    return this.toolFolders.storeFor(entryId, (folder) => this.env.store(folder.uri), () => this.currentStore());
  }

  /**
   * Makes the chat work in `folder`'s memory. The next message starts a new session with the
   * usual notice (see sessionFor): the earlier conversation was about the other folder's files.
   */
  useFolder(folder: vscode.Uri): ChatFolderResult {
    const store = this.env.store(folder);
    if (!store) return { ok: false, reason: `${folder.toString(true)} is not a folder of this workspace.` };
    if (this.currentStore()?.folder.uri.toString() === store.folder.uri.toString()) return { ok: true, changed: false };
    // The running answer keeps writing to its own folder; switching under it would make the view
    // name one folder while Claude changes another.
    if (this.running) return { ok: false, reason: 'Claude is still answering: stop the answer or wait for it, then choose another folder.' };
    this.chosenFolder = store.folder.uri;
    // Switching away ends the conversation, even if the chat comes back to this folder later.
    if (this.session) this.session.leftFolder = true;
    // A retry ("continue") belongs to the other folder's conversation.
    this.retryPrompt = undefined;
    this.env.log.info(`the chat now works in folder "${store.folder.name}"`);
    this.folderChanges.fire();
    void this.refreshStarter();
    return { ok: true, changed: true };
  }

  /**
   * The empty chat's line and starter actions: the folder, the model, and whether the folder's
   * checklist has a feature left (Resume Session is offered only then). Call when the folder, the
   * model or features.json may have changed.
   */
  async refreshStarter(): Promise<void> {
    const store = this.currentStore();
    if (!store) {
      this.emit(this.transcript.setStarter(undefined));
      return;
    }
    let canResume = false;
    try {
      const text = await store.readFile?.(SESSION_FILES.features);
      const parsed = text === undefined ? undefined : parseFeatures(text);
      canResume = parsed?.ok === true && summarizeFeatures(parsed.features).nextFailing !== undefined;
    } catch {
      // Unreadable: nothing to offer.
    }
    // The folder may have changed while the file was read.
    if (this.currentStore()?.folder.uri.toString() !== store.folder.uri.toString()) return;
    this.emit(this.transcript.setStarter({ folder: store.folder.name, model: this.env.settings().model, canResume }));
  }

  /** Recomputes why the chat is unusable (trust, folders); call when either changes. */
  refreshAvailability(): void {
    if (this.chosenFolder && !this.env.store(this.chosenFolder)) {
      // The chosen folder was closed: back to the default, and say so in the view.
      this.chosenFolder = undefined;
      this.folderChanges.fire();
    }
    const disabled = this.disabled();
    this.emit(this.transcript.setDisabledReason(disabled?.reason, disabled?.action));
    void this.refreshStarter();
  }

  /**
   * Sends a prompt (with the input's chips); resolves when the answer is complete, failed or
   * stopped. `fresh` sets the current conversation aside first (Resume: the memory carries the state).
   */
  async send(prompt: string, options: SendOptions = {}): Promise<ChatSendResult> {
    if (options.fresh && !this.running && this.transcript.snapshot().entries.length > 0) await this.newChat();
    this.resumeNext = options.resume === true;
    return this.start(prompt, { label: options.label });
  }

  /** Sends the last prompt again (or asks Claude to continue when part of the answer was kept). */
  retry(): Promise<ChatSendResult> {
    const prompt = this.retryPrompt;
    if (!prompt) return Promise.resolve({ started: false, reason: 'There is nothing to retry.' });
    // The same prompt again is already on screen; "continue" is a new message and is shown.
    return this.start(prompt, { show: prompt === CONTINUE_PROMPT });
  }

  /**
   * Starts a send, or queues it behind the one running (shown at once as a queued message; it is
   * sent when the answer before it is over and saved). Resolves when its own answer is over.
   */
  private start(prompt: string, view: PromptView): Promise<ChatSendResult> {
    const text = prompt.trim();
    if (text === '') return Promise.resolve({ started: false, reason: 'The message is empty.' });
    // Chips go with what the user writes, as they are when it is sent (also when it waits).
    const attachments = view.show === false || view.label !== undefined ? [] : this.attachments.take();
    if (attachments.length > 0) this.emit(this.transcript.setAttachments([]));
    const item: QueuedSend = { id: `q${++this.queuedIds}`, text, view: { ...view, attachments: attachments.map((a) => a.label) }, attachments };
    if (this.sends.size > 0) {
      this.queued.add(item);
      this.showQueued();
    }
    return this.sends.run(async () => {
      if (this.queued.delete(item)) this.showQueued();
      if (item.cancelled) return { started: false, reason: item.cancelled };
      return this.startNow(item);
    });
  }

  /** The queued messages under the conversation (the ones shown: a retry's prompt is on screen already). */
  private showQueued(): void {
    this.emit(this.transcript.setQueued([...this.queued].filter((q) => q.view.show !== false).map((q) => ({ id: q.id, text: q.text }))));
  }

  private async startNow(item: QueuedSend): Promise<ChatSendResult> {
    const { text, attachments, view } = item;
    await this.restored;
    await this.switching;
    if (item.cancelled) return { started: false, reason: item.cancelled };
    const disabled = this.disabled();
    if (disabled) {
      this.giveBack([item], disabled.reason);
      return { started: false, reason: disabled.reason };
    }
    // Edits the user undid from their cards since Claude's last turn: Claude reads it first.
    const notes = [this.takeRewoundNote(), this.takeUndoneEditsNote(), this.changes.takeNote()].filter((n): n is string => n !== undefined);
    const note = notes.length === 0 ? undefined : notes.join('\n\n');
    const withAttachments = await promptWithAttachments(text, attachments);
    const full = note === undefined ? withAttachments : `${note}\n\n${withAttachments}`;
    if ((await this.env.keyState()) === 'missing') {
      // Kept on screen and sent once a key is set, instead of an error about a missing key.
      this.pendingKeyPrompts.push(full);
      this.retryPrompt = undefined;
      if (view.show !== false) this.emit(this.transcript.hold(text, view));
      this.emit(this.transcript.setKeyState('missing'));
      return { started: false, pending: true, reason: 'Set an Anthropic API key: your message is sent as soon as there is one.' };
    }
    const run = this.run(full, text, view);
    this.running = run;
    try {
      return await run;
    } finally {
      if (this.running === run) this.running = undefined;
    }
  }

  /**
   * Queued messages whose conversation went away (New Chat, reopen, delete, the chat turned off):
   * their rows leave and their text goes back to the composer, with the reason.
   */
  private giveBack(items: QueuedSend[], reason: string): void {
    const texts: string[] = [];
    for (const item of items) {
      item.cancelled = reason;
      this.queued.delete(item);
      if (item.view.show !== false) texts.push(item.text);
    }
    this.showQueued();
    if (texts.length > 0) this.emit([{ type: 'draft', text: texts.join('\n\n'), reason }]);
  }

  /** Cancels the running send at once; the session ends it with a "cancelled" error. */
  stop(): void {
    this.abort?.abort();
  }

  /**
   * Stops any running answer and starts an empty chat; the conversation stays in Chat History
   * (the empty chat offers to reopen it). Memory files stay.
   */
  newChat(): Promise<void> {
    return this.switchConversation(async () => {
      await this.settle();
      await this.saveNow();
      const had = this.chat !== undefined;
      this.forgetConversation();
      this.emit(this.transcript.clear());
      this.emit(this.transcript.setPendingKey(false));
      await this.env.archive.setCurrent(undefined);
      await this.refreshHasPrevious();
      this.env.log.info(had ? 'new chat; the previous conversation is kept in Chat History' : 'new chat');
    });
  }

  /**
   * Reopens the most recently updated other chat of Chat History (the empty chat's "Reopen the last one").
   * False when there is none or an answer is running.
   */
  async reopenPrevious(): Promise<boolean> {
    await this.restored;
    const other = (await this.env.archive.list()).find((c) => c.id !== this.chat?.id);
    return other ? this.openChat(other.id) : false;
  }

  /**
   * Shows chat `id` of Chat History instead of the current one (which stays in the list), and
   * Claude continues its history. False when it is not kept (any more) or an answer is running.
   */
  openChat(id: string): Promise<boolean> {
    return this.switchConversation(async () => {
      if (this.running) return false;
      if (id === this.chat?.id) return true;
      await this.saveNow();
      const stored = await this.env.archive.load(id);
      if (!stored) {
        await this.refreshHasPrevious();
        return false;
      }
      this.approver.denyAll();
      this.forgetConversation();
      this.show(stored);
      await this.env.archive.setCurrent(id);
      await this.refreshHasPrevious();
      this.env.log.info('reopened a chat from Chat History');
      return true;
    });
  }

  /**
   * Deletes chat `id` from Chat History; deleting the conversation on screen leaves an empty
   * chat. False when it is not kept, or it is the one answering right now.
   */
  deleteChat(id: string): Promise<boolean> {
    return this.switchConversation(async () => {
      const current = id === this.chat?.id;
      if (current && this.running) return false;
      if (current) {
        this.forgetConversation();
        this.emit(this.transcript.clear());
      }
      const removed = await this.env.archive.remove(id);
      await this.refreshHasPrevious();
      if (removed) this.env.log.info('deleted a chat from Chat History');
      return removed;
    });
  }

  /** Runs a change of the conversation on screen after the restore and any earlier change; sends wait for it. */
  private switchConversation<T>(work: () => Promise<T>): Promise<T> {
    const next = Promise.all([this.restored, this.switching]).then(work);
    this.switching = next.catch(() => undefined);
    return next;
  }

  /** Resolves once no send is running. */
  async whenIdle(): Promise<void> {
    await this.sends.idle();
  }

  /** The chat view's progress indicator: on while Claude works, off while it waits for the user or is done. */
  private showProgress(on: boolean): void {
    if (on && !this.endProgress) {
      void vscode.window.withProgress({ location: { viewId: VIEWS.chat } }, () => new Promise<void>((resolve) => (this.endProgress = resolve)));
    } else if (!on && this.endProgress) {
      this.endProgress();
      this.endProgress = undefined;
    }
  }

  /**
   * Writes the conversation as it is now. The window closes or reloads (deactivate waits for it,
   * for a few seconds at most): an answer that ended a moment ago, whose save is still queued or
   * under way, reaches the disk, or a reload right after it would bring back an older chat.
   */
  flush(): Promise<void> {
    return this.saveNow();
  }

  dispose(): void {
    // A window that reloads disposes this while the next window may already be saving: from here
    // on nothing is written, so what was saved last stays (deactivate's flush comes before).
    this.disposed = true;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.stop();
    this.approver.denyAll();
    this.edits.dispose();
    for (const d of this.subscriptions) d.dispose();
    this.disposeTools();
    this.patches.dispose();
    this.folderChanges.dispose();
    this.waitingChanged.dispose();
    this.showProgress(false);
  }

  /** `prompt` goes to Claude (with attachments); `text` is what was typed, kept for a retry. */
  private async run(prompt: string, text: string, view: PromptView): Promise<ChatSendResult> {
    const store = this.currentStore();
    if (!store) return { started: false, reason: 'Open a folder first.' };
    const abort = new AbortController();
    this.abort = abort;
    this.runningFolder = store.folder;
    this.retryPrompt = undefined;
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.chatRunning, true);
    this.chat ??= { id: randomUUID(), title: chatTitle(view.label ?? text), created: Date.now(), turns: 0, folder: store.folder.uri.toString(), folderName: store.folder.name };
    this.chat.turns += 1;
    try {
      // Before the user's row, so a "new session" notice reads in the right order.
      const agent = await this.sessionFor(store);
      const requireProgressEntry = this.resumeNext;
      this.resumeNext = false;
      // Editor cards name files relative to the folder the tools work in.
      this.transcript.setWorkspaceFolder(folderInfo(store.folder, this.env.settings().memoryFolder));
      this.emit(this.transcript.begin(text, this.env.settings().model, view));
      this.showProgress(true);
      this.changes.setRunning(true);
      // The checkpoint of the files and memory as they are before Claude reads this message.
      if (view.show !== false) await this.recordCheckpoint(store.folder, text);
      const outcome = await agent.send(
        prompt,
        (event) => {
          const patches = this.transcript.apply(event);
          this.toolFolders.record(patches, store.folder);
          this.emit(patches);
          if (event.type === 'tool_end' && event.detail?.kind === 'edit' && !event.is_error) {
            const entryId = this.transcript.entryIdOf(event.id);
            const { path, before, after } = event.detail;
            if (entryId) this.edits.record(entryId, { folder: store.folder, path, before, after });
          }
          if (event.type === 'tool_end' && event.touched) this.env.memoryTouched(store, event.touched);
          // What the call changed shows in the summary while the answer goes on (reads change nothing;
          // a failed command may have written files all the same).
          if (event.type === 'tool_end' && event.detail?.kind !== 'fileRead' && event.detail?.kind !== 'memoryRead') void this.changes.refresh();
        },
        abort.signal,
        { requireProgressEntry },
      );
      if (!outcome.ok && outcome.error?.kind !== 'cancelled') {
        this.retryPrompt = outcome.turns === 0 ? prompt : CONTINUE_PROMPT;
      }
      this.env.log.info(
        `send ${outcome.ok ? 'finished' : `ended (${outcome.error?.kind})`}: ${outcome.turns} request(s), ` +
          `${outcome.usage.input_tokens} in, ${outcome.usage.cache_read_input_tokens} cache read, ` +
          `${outcome.usage.cache_creation_input_tokens} cache write, ${outcome.usage.output_tokens} out`,
      );
      return { started: true, outcome };
    } catch (error) {
      // AgentSession.send never rejects; this is a bug in our glue, shown instead of swallowed.
      this.env.log.error(error instanceof Error ? error : String(error));
      this.emit(this.transcript.fail('unknown', 'Something went wrong inside the extension; see the "Claude Memory" output for details.'));
      this.emit(this.transcript.end());
      return { started: false, reason: 'internal error' };
    } finally {
      if (this.abort === abort) this.abort = undefined;
      this.showProgress(false);
      this.changes.setRunning(false);
      void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.chatRunning, false);
      // Every completed, stopped or failed send is saved before the send resolves.
      await this.saveNow();
      // Then the summary is read once more (after the save: a reload right after the answer keeps it).
      void this.changes.refresh();
    }
  }

  /** Records a checkpoint for the message just shown; a failure is logged, never in the way of the answer. */
  private async recordCheckpoint(folder: vscode.WorkspaceFolder, text: string): Promise<void> {
    const store = this.env.checkpoints?.(folder);
    if (store === undefined) return;
    try {
      const checkpoint = await (await store).create({ kind: 'chat', prompt: text, session: this.chat?.id });
      const patches = this.transcript.setCheckpoint(checkpoint.id);
      for (const p of patches) if (p.type === 'entry') this.checkpointFolders.set(p.entry.id, folder);
      this.emit(patches);
      const entry = patches.find((p) => p.type === 'entry');
      if (entry?.type === 'entry') await this.changes.checkpointTaken(folder.uri.toString(), checkpoint.id, entry.entry.id, text);
    } catch (error) {
      this.env.log.warn(`no checkpoint for this message: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * The session for the current key, settings and store. A change of any of them needs a new
   * SDK client. With the same folder the conversation carries over to it; a new folder means
   * another memory, so the conversation starts afresh and the transcript says so rather than
   * pretending Claude still remembers it.
   */
  private async sessionFor(store: ChatStore): Promise<AgentSession> {
    const settings = this.env.settings();
    const tools = this.toolsFor(store.folder);
    const options: AgentOptions = {
      apiKey: await this.env.apiKey(),
      baseURL: settings.apiBaseUrl,
      model: settings.model,
      maxTokens: settings.maxTokens,
      maxTurns: settings.maxTurns,
      memory: store.memory(() => this.author()),
      promptCaching: settings.promptCaching,
      contextEditing: settings.contextEditing,
      compaction: settings.compaction,
      compactionTrigger: settings.compactionTrigger,
      compactionSaveThreshold: settings.compactionSavePercent / 100,
      compactionInstructions: settings.compaction ? await this.env.compactionInstructions?.() : undefined,
      readMemoryFile: store.readFile ? (name) => store.readFile!(name) : undefined,
      tools: tools?.tools,
      system: tools?.systemPrompt,
      logger: this.env.log,
    };
    const key = JSON.stringify([
      options.compaction,
      options.compactionTrigger,
      options.compactionSaveThreshold,
      options.compactionInstructions ?? '',
      tools ? this.tools?.folder : '',
      options.apiKey ?? '',
      options.baseURL ?? '',
      options.model,
      options.maxTokens,
      options.maxTurns,
      options.promptCaching,
      options.contextEditing,
      store.folder.uri.toString(),
    ]);
    if (this.session?.key === key) return this.session.agent;
    const previous = this.session;
    const folder = store.folder.uri.toString();
    const continues = previous !== undefined && !previous.leftFolder && previous.folder === folder && previous.agent.history.length > 0;
    const history = continues ? previous.agent.history : this.restoredHistory;
    this.restoredHistory = undefined;
    this.session = { key, folder, agent: new AgentSession({ ...options, history: history ? [...history] : undefined }) };
    if (continues) {
      this.emit(this.transcript.notice('The API key or settings changed: the conversation continues with them.'));
    } else if (previous && previous.agent.history.length > 0) {
      this.emit(this.transcript.notice(`The chat now works in the memory of "${store.folder.name}": Claude starts this message without the earlier conversation.`));
    }
    return this.session.agent;
  }

  /** The folder's tool set, made on first use after a new chat or a folder switch. */
  private toolsFor(folder: vscode.WorkspaceFolder): WorkspaceTools | undefined {
    if (!this.env.workspaceTools) return undefined;
    const key = folder.uri.toString();
    if (this.tools?.folder !== key) {
      this.disposeTools();
      this.tools = { folder: key, set: this.env.workspaceTools(folder, this.approver) };
    }
    return this.tools.set;
  }

  private disposeTools(): void {
    this.tools?.set.dispose();
    this.tools = undefined;
  }

  /** Stops a running answer, refuses open questions and waits until the send is over. */
  private async settle(): Promise<void> {
    this.stop();
    this.approver.denyAll();
    await this.running;
  }

  /** Drops everything that belongs to the conversation on screen (its rows stay until replaced). */
  private forgetConversation(): void {
    this.approvals.clear();
    this.edits.clear();
    this.session?.agent.reset();
    this.session = undefined;
    this.restoredHistory = undefined;
    // Another conversation gets a fresh shell (the tools start one on their next command).
    this.disposeTools();
    this.retryPrompt = undefined;
    this.pendingKeyPrompts = [];
    // A new conversation's Claude never saw those edits.
    this.undoneEdits = [];
    this.changes.reset();
    this.giveBack([...this.queued], 'Not sent: the conversation it was queued in was replaced. Your message is back in the input.');
    this.toolFolders.clear();
    this.chat = undefined;
  }

  /**
   * Puts a saved chat on screen and makes its history the next session's. A chat about a folder
   * that is still open switches the chat to it; one about a folder no longer open is shown, and
   * Claude starts the next message without it.
   */
  private show(stored: StoredChat<SavedConversation>): void {
    this.chat = { id: stored.id, title: stored.title, created: stored.created, turns: stored.turns, folder: stored.folder, folderName: stored.folderName };
    const folder = stored.folder ? vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === stored.folder) : undefined;
    if (folder && this.currentStore()?.folder.uri.toString() !== stored.folder && this.env.store(folder.uri)) {
      this.chosenFolder = folder.uri;
      this.folderChanges.fire();
    }
    const sameFolder = stored.folder === '' || stored.folder === (this.currentStore()?.folder.uri.toString() ?? '');
    const history = restoreHistory(stored.history);
    this.restoredHistory = sameFolder && history && history.length > 0 ? history : undefined;
    this.emit(this.transcript.restore(stored.transcript));
    void this.changes.restore(stored.transcript.changes);
    this.emit(this.transcript.setPendingKey(false));
    if (!sameFolder) {
      this.emit(this.transcript.notice(`This conversation was about the memory of "${stored.folderName}", which is not open: Claude starts the next message without it.`));
    } else if (stored.history.length > 0 && !history) {
      this.emit(this.transcript.notice('The saved conversation could not be read back for Claude: Claude starts the next message without it.'));
    }
  }

  /** Start-up: the chat shown when the window closed comes back (and a legacy set-aside chat joins the list). */
  private async restoreLast(): Promise<void> {
    await this.importLegacyPrevious();
    const id = await this.env.archive.current();
    const stored = id ? await this.env.archive.load(id) : undefined;
    if (stored && !this.running && !this.chat && this.transcript.snapshot().entries.length === 0) {
      this.show(stored);
      this.env.log.info(stored.running ? 'restored the last chat; its answer was cut off by the reload and is shown as stopped' : 'restored the last chat');
      // Saved as stopped now, so the next reload does not stop it again.
      if (stored.running) await this.saveNow();
    }
    await this.refreshHasPrevious();
  }

  /** The one conversation New Chat set aside in the workspace state, before Chat History. */
  private async importLegacyPrevious(): Promise<void> {
    const legacy = this.env.state.get<Record<string, unknown>>(STATE_KEYS.previousChat);
    if (legacy === undefined) return;
    const transcript = parseSavedConversation(legacy);
    const first = transcript?.entries.find((e) => e.kind === 'user');
    if (transcript && first?.kind === 'user') {
      const folder = typeof legacy.folder === 'string' ? legacy.folder : '';
      const now = Date.now();
      await this.env.archive.save({
        id: randomUUID(),
        title: chatTitle(first.label ?? first.text),
        created: now,
        updated: now,
        folder,
        folderName: vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === folder)?.name ?? '',
        turns: transcript.entries.filter((e) => e.kind === 'user').length,
        transcript,
        history: Array.isArray(legacy.history) ? legacy.history : [],
      });
    }
    await this.env.state.update(STATE_KEYS.previousChat, undefined);
  }

  private async refreshHasPrevious(): Promise<void> {
    const others = (await this.env.archive.list()).some((c) => c.id !== this.chat?.id);
    this.emit(this.transcript.setHasPrevious(others));
  }

  /** Saves soon: at once when idle, at most once a second while an answer streams. */
  private scheduleSave(): void {
    if (this.saveTimer || this.disposed || !this.chat) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.saveNow();
    }, this.running ? SAVE_WHILE_RUNNING_MS : 0);
  }

  /**
   * Writes the conversation on screen to Chat History (as the current chat). While an answer
   * runs it is saved as running: restored after a reload, it ends as stopped. A failed write is
   * logged; the chat goes on.
   */
  private async saveNow(): Promise<void> {
    const chat = this.chat;
    if (this.disposed || !chat) return;
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
    }
    const transcript: SavedConversation = { ...this.transcript.saved(), changes: this.changes.saved() };
    if (transcript.entries.length === 0) return;
    const history = this.session?.agent.history ?? this.restoredHistory ?? [];
    const folder = this.session?.folder ?? chat.folder;
    const folderName = vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === folder)?.name ?? chat.folderName;
    const record: StoredChat<SavedConversation> = {
      id: chat.id,
      title: chat.title,
      created: chat.created,
      updated: Date.now(),
      folder,
      folderName,
      turns: chat.turns,
      transcript,
      history: trimHistory(history, MAX_SAVED_HISTORY_CHARS),
      ...(transcript.send ? { running: true } : {}),
    };
    try {
      await this.env.archive.save(record, { current: true });
    } catch (error) {
      this.env.log.error(`could not save the chat: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private disabled(): { reason: string; action: DisabledAction } | undefined {
    if (!this.env.isTrusted()) {
      return {
        reason: 'Chat is off in Restricted Mode: memory files in an untrusted workspace may carry a stranger\'s instructions, and Claude would write files here. Trust the workspace to chat.',
        action: 'manageTrust',
      };
    }
    if (!this.currentStore()) {
      return { reason: `Open a folder to chat: Claude keeps its memory in the folder's ${this.env.settings().memoryFolder}/ directory.`, action: 'openFolder' };
    }
    return undefined;
  }

  private emit(patches: ChatPatch[]): void {
    for (const patch of patches) this.patches.fire(patch);
  }
}

/** Without a port (tests' environments): no checkpoints, so no summary. */
const NO_SUMMARY_PORT: ChangeSummaryPort = {
  checkpoints: () => undefined,
  memory: () => undefined,
  confirm: async () => false,
  log: { info: () => undefined, warn: () => undefined },
};

/** The line a rewound message shows: what the rewind changed, and what it could not. */
function rewoundLine(plan: RewindPlan): string {
  const changed = [`${plan.files.length} ${plan.files.length === 1 ? 'file' : 'files'}`];
  const memory = plan.memory.filter((m) => m.action !== 'unavailable').length;
  if (memory > 0) changed.push(`${memory} memory ${memory === 1 ? 'file' : 'files'}`);
  const parts = [`Rewound to before this message: ${changed.join(' and ')} changed back.`];
  if (plan.notRestored.length > 0) parts.push(`Not restored (over the size limit): ${plan.notRestored.map((f) => f.path).join(', ')}.`);
  const lost = plan.memory.filter((m) => m.action === 'unavailable');
  if (lost.length > 0) parts.push(`Not restored (no longer in memory history): ${lost.map((m) => m.rel).join(', ')}.`);
  return parts.join(' ');
}
