/**
 * The chat's state and behaviour, apart from any webview: one conversation and its transcript.
 * The view provider, the commands and the tests all drive this one object, so the conversation
 * outlives the webview. It wires the parts that do the work, each against the port
 * (ChatEnvironment, chatPort.ts; chatEnvironment.ts implements it for VS Code):
 * ChatSendRunner (sends, the queue, the key flow, Retry), ChatAgents (the AgentLoop and the
 * tools' shell), ChatApprovals (questions on cards), ChatPersistence (Chat History saves and the
 * legacy migration), ChatConversations (New Chat, reopen, delete, the restore on start-up),
 * ChatFolders (the folder choice, availability, the starter line) and ChatRewinds (checkpoints,
 * Rewind, Undo of an edit).
 */
import type { ApprovalRequest, CardDecision } from '../../core/agent/tools';
import type { ChatSummary } from '../../core/session/chatArchive';
import type { ChatAuthor } from './chatMemory';
import type { ChatApprover } from './chatApprover';
import type { ChangeSummary } from './changeSummary';
import { ChatAttachments } from './chatAttachments';
import type { UndoResult } from './chatEdits';
import type { ChatFolderResult } from './chatFolders';
import type { ChatDisposable, ChatEmitter, ChatEnvironment, ChatEvent, ChatRange, ChatStore, ChatUri, EditLedger } from './chatPort';
import type { ChatRewinds, RewindChoice, RewindOutcome } from './chatRewinds';
import type { ChatSendResult, SendOptions } from './chatSendRunner';
import { createChatParts, type ChatParts } from './chatParts';
import { ChatTranscript, type ChatPatch } from './chatTranscript';
import type { ChatSnapshot, FollowUpAction } from './shared/protocol';
import type { EntryStoreLookup } from './toolEntryFolders';

export type { ChatEnvironment, ChatStore } from './chatPort';
export type { ChatFolderResult } from './chatFolders';
export { MAX_SAVED_CONVERSATION_CHARS } from './chatPersistence';
export type { RewindChoice, RewindOutcome } from './chatRewinds';
export type { ChatSendResult, SendOptions } from './chatSendRunner';

export class ChatController implements ChatDisposable {
  private readonly transcript = new ChatTranscript();
  private readonly patches: ChatEmitter<ChatPatch>;
  /** Every change of the conversation, in order; the view forwards them to the webview. */
  readonly onPatch: ChatEvent<ChatPatch>;
  /** Fires when the folder whose memory the chat uses changes. */
  readonly onDidChangeFolder: ChatEvent<void>;
  /** Fires with every question still waiting on a card whenever one is asked or answered. */
  readonly onDidChangeWaiting: ChatEvent<readonly ApprovalRequest[]>;
  readonly attachments: ChatAttachments;
  /** Asks on the cards of commands and edits that need consent (the tools' ToolApprover). */
  readonly approver: ChatApprover;
  /** Workspace edits shown on cards, for Open Diff and Undo. */
  readonly edits: EditLedger;
  /** The last conversation, restored from Chat History on start-up; sends wait for it. */
  readonly restored: Promise<void>;
  private readonly parts: ChatParts;
  /** "What changed, at a glance" above the composer (changeSummary.ts). */
  readonly changes: ChangeSummary;
  private readonly subscriptions: ChatDisposable[] = [];

  constructor(private readonly env: ChatEnvironment) {
    this.patches = env.emitter<ChatPatch>();
    this.onPatch = this.patches.event;
    this.attachments = new ChatAttachments(env.pathOf);
    this.edits = env.createEdits();
    this.parts = createChatParts(env, {
      transcript: this.transcript,
      attachments: this.attachments,
      edits: this.edits,
      emit: (patches) => this.emit(patches),
      newChat: () => this.newChat(),
    });
    this.approver = this.parts.approvals.approver;
    this.changes = this.parts.changes;
    this.onDidChangeFolder = this.parts.folders.onDidChangeFolder;
    this.onDidChangeWaiting = this.parts.approvals.onDidChangeWaiting;
    this.refreshAvailability();
    this.subscriptions.push(
      env.onDidChangeKey(() => void this.refreshKey()),
      // Every change of the conversation's rows is saved (at most once a second while an answer
      // runs); status changes (the key, chips) are not the conversation's.
      this.patches.event((patch) => {
        if (patch.type === 'entry' || patch.type === 'text' || patch.type === 'remove' || patch.type === 'output') this.parts.persistence.scheduleSave();
      }),
    );
    void this.refreshKey();
    this.restored = this.parts.conversations.start();
  }

  /** Who makes this chat's memory calls: the chat's id, the message being answered, its title. */
  author(): ChatAuthor {
    return this.parts.persistence.author();
  }

  /** The chats of Chat History, most recently updated first (the current one included). */
  listChats(): Promise<ChatSummary[]> {
    return this.parts.conversations.listChats();
  }

  /** The id of the conversation on screen; undefined for an empty new chat. */
  get chatId(): string | undefined {
    return this.parts.persistence.chatId;
  }

  /**
   * Reads whether a key exists and shows it; when a message was waiting for one, sends it now.
   * Resolves with that send's result, if there was one.
   */
  refreshKey(): Promise<ChatSendResult | undefined> {
    return this.parts.runner.refreshKey();
  }

  /** A click on a card's approval button; false when that card asks nothing (any more). */
  approve(entryId: string, decision: CardDecision, details: { rule?: string; reason?: string; host?: string } = {}): boolean {
    return this.parts.approvals.approve(entryId, decision, details);
  }

  /**
   * A blocked host's offer on card `entryId` (`label`: host:port as the card shows it): `add` gets
   * the bare host when the card offers exactly that; false when it does not.
   */
  allowBlockedHost(entryId: string, label: string, add: (host: string) => Promise<void>): Promise<boolean> {
    return this.parts.approvals.allowBlockedHost(entryId, label, add);
  }

  /** Opens the diff of the edit on card `entryId`. */
  openDiff(entryId: string): Promise<boolean> {
    return this.edits.openDiff(entryId);
  }

  /** Restores the file of the edit on card `entryId` while it still holds Claude's version. */
  undoEdit(entryId: string): Promise<UndoResult> {
    return this.parts.rewinds.undoEdit(entryId);
  }

  /** What "Rewind to here" on user message `entryId` would change (nothing changes yet). */
  previewRewind(entryId: string): Promise<RewindOutcome> {
    return this.parts.rewinds.previewRewind(entryId);
  }

  /** Rewinds to the checkpoint before user message `entryId`: files, conversation or both (ChatRewinds.rewind). */
  rewind(entryId: string, choice?: RewindChoice): Promise<RewindOutcome> {
    return this.parts.rewinds.rewind(entryId, choice);
  }

  /** What Undo Rewind on message `entryId` would bring back (ChatRewinds.previewUndoRewind). */
  previewUndoRewind(entryId: string): ReturnType<ChatRewinds['previewUndoRewind']> {
    return this.parts.rewinds.previewUndoRewind(entryId);
  }

  /** Undoes the rewind to before message `entryId` (ChatRewinds.undoRewind). */
  undoRewind(entryId: string): Promise<RewindOutcome> {
    return this.parts.rewinds.undoRewind(entryId);
  }

  /** Adds a file (or a selection of it) as a chip in the input; it goes with the next message. */
  attach(uri: ChatUri, range?: ChatRange): void {
    this.attachments.add(uri, range);
    this.emit(this.transcript.setAttachments(this.attachments.list()));
  }

  /** The active editor changed (or its selection): its chip follows. */
  followEditor(uri: ChatUri | undefined, selection: ChatRange | undefined): void {
    if (this.attachments.follow(uri, selection)) this.emit(this.transcript.setAttachments(this.attachments.list()));
  }

  /** This chat's "Allow sandboxed commands" grant (Manage Command Rules lists it and takes it back). */
  readonly sandboxGrant = {
    granted: (): boolean => this.parts.agents.sandboxedCommandsAllowed(),
    revoke: (): void => this.parts.agents.revokeSandboxedCommands(),
    give: (): void => this.parts.agents.allowSandboxedCommands(),
  };

  /** The implicit current-file chip on or off. */
  toggleAttachment(id: string): void {
    if (this.attachments.toggle(id)) this.emit(this.transcript.setAttachments(this.attachments.list()));
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
    return this.parts.runner.isRunning;
  }

  get canRetry(): boolean {
    return this.parts.runner.canRetry;
  }

  /** The store the chat works in (ChatFolders.currentStore). */
  currentStore(): ChatStore | undefined {
    return this.parts.folders.currentStore();
  }

  /** The store a tool card's path opens in (ChatFolders.storeForEntry). */
  storeForEntry(entryId: string): EntryStoreLookup<ChatStore> {
    return this.parts.folders.storeForEntry(entryId);
  }

  /** Makes the chat work in `folder`'s memory (ChatFolders.useFolder). */
  useFolder(folder: ChatUri): ChatFolderResult {
    return this.parts.folders.useFolder(folder);
  }

  /** The empty chat's line and starter actions (ChatFolders.refreshStarter). */
  refreshStarter(): Promise<void> {
    return this.parts.folders.refreshStarter();
  }

  /** Recomputes why the chat is unusable (trust, folders); call when either changes. */
  refreshAvailability(): void {
    this.parts.folders.refreshAvailability();
  }

  /**
   * Sends a prompt (with the input's chips); resolves when the answer is complete, failed or
   * stopped. `fresh` sets the current conversation aside first (Resume: the memory carries the state).
   */
  send(prompt: string, options: SendOptions = {}): Promise<ChatSendResult> {
    return this.parts.runner.send(prompt, options);
  }

  /**
   * Buttons that lead on from the conversation's last message, acting in `folder` (Initialize's
   * draft: ChatTranscript.followUps places them). False, and nothing shown, when they would not
   * belong to that conversation: an answer runs, or the chat works in another folder now.
   */
  addFollowUps(folder: ChatUri, actions: FollowUpAction[], note: string, onAnswer: boolean): boolean {
    const store = this.currentStore();
    if (this.isRunning || actions.length === 0 || store?.folder.uri.toString() !== folder.toString()) return false;
    this.emit(this.transcript.followUps({ folder: store.folder.name, actions }, note, onAnswer));
    return true;
  }

  /** Sends the last prompt again (or asks Claude to continue when part of the answer was kept). */
  retry(): Promise<ChatSendResult> {
    return this.parts.runner.retry();
  }

  /** Cancels the running send at once; the session ends it with a "cancelled" error. */
  stop(): void {
    this.parts.runner.stop();
  }

  /** Stops any running answer and starts an empty chat (ChatConversations.newChat). */
  newChat(): Promise<void> {
    return this.parts.conversations.newChat();
  }

  /** Reopens the most recently updated other chat of Chat History (false: none, or an answer runs). */
  reopenPrevious(): Promise<boolean> {
    return this.parts.conversations.reopenPrevious();
  }

  /** Shows chat `id` of Chat History instead of the current one (ChatConversations.openChat). */
  openChat(id: string): Promise<boolean> {
    return this.parts.conversations.openChat(id);
  }

  /** Deletes chat `id` from Chat History (ChatConversations.deleteChat). */
  deleteChat(id: string): Promise<boolean> {
    return this.parts.conversations.deleteChat(id);
  }

  /** Resolves once no send is running. */
  whenIdle(): Promise<void> {
    return this.parts.runner.whenIdle();
  }

  /**
   * Writes the conversation as it is now. The window closes or reloads (deactivate waits for it,
   * for a few seconds at most): an answer that ended a moment ago, whose save is still queued or
   * under way, reaches the disk, or a reload right after it would bring back an older chat.
   */
  flush(): Promise<void> {
    return this.parts.persistence.saveNow();
  }

  dispose(): void {
    // From here on nothing is written (ChatPersistence.dispose).
    this.parts.persistence.dispose();
    this.stop();
    this.parts.approvals.denyAll();
    this.edits.dispose();
    for (const d of this.subscriptions) d.dispose();
    this.parts.agents.disposeTools();
    this.patches.dispose();
    this.parts.folders.dispose();
    this.parts.approvals.dispose();
    this.parts.progress.show(false);
  }

  private emit(patches: ChatPatch[]): void {
    for (const patch of patches) this.patches.fire(patch);
  }
}
