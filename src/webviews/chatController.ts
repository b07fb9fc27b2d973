/**
 * The chat's state and behaviour, apart from any webview: one AgentSession, the transcript, the
 * running send and its AbortController. The view provider, the commands and the tests all drive
 * this one object, so the conversation outlives the webview.
 */
import * as vscode from 'vscode';
import { AgentSession } from '../core/agent/session';
import type { AgentOptions } from '../core/agent/options';
import type { AgentOutcome } from '../core/agent/events';
import type { MemoryToolExecutor, TouchedPath } from '../core/memory/types';
import { CONTEXT_KEYS, VIEWS } from '../platform/ids';
import type { Logger } from '../platform/logger';
import type { SettingsSnapshot } from '../platform/settings';
import { ChatTranscript, type ChatPatch } from './chatTranscript';
import type { ChatSnapshot, DisabledAction } from './protocol';
import { ToolEntryFolders, type EntryStoreLookup } from './toolEntryFolders';

export const CHAT_VIEW_ID = VIEWS.chat;
/** Context key for `when` clauses (e.g. showing Stop only while an answer runs). */
export const CHAT_RUNNING_CONTEXT = CONTEXT_KEYS.chatRunning;

/** The memory store the chat works in: one workspace folder's (the first unless the user chose another). */
export interface ChatStore {
  readonly folder: vscode.WorkspaceFolder;
  readonly engine: MemoryToolExecutor;
  /** The Uri of a `/memories/...` path, or undefined when the path is not a valid one. */
  uriOf(memoryPath: string): vscode.Uri | undefined;
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
}

export type ChatFolderResult = { ok: true; changed: boolean } | { ok: false; reason: string };

export type ChatSendResult =
  | { started: false; reason: string }
  | { started: true; outcome: AgentOutcome };

// After a failure with at least one complete model turn the prompt is already in the session's
// history, so Retry must not send it again: it asks Claude to go on instead.
const CONTINUE_PROMPT = 'Please continue where you left off.';

export class ChatController implements vscode.Disposable {
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

  constructor(private readonly env: ChatEnvironment) {
    this.refreshAvailability();
  }

  snapshot(): ChatSnapshot {
    return this.transcript.snapshot();
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
    return { ok: true, changed: true };
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
  }

  /** Sends a prompt; resolves when the answer is complete, failed or stopped. */
  send(prompt: string): Promise<ChatSendResult> {
    return this.start(prompt, true);
  }

  /** Sends the last prompt again (or asks Claude to continue when part of the answer was kept). */
  retry(): Promise<ChatSendResult> {
    const prompt = this.retryPrompt;
    if (!prompt) return Promise.resolve({ started: false, reason: 'There is nothing to retry.' });
    // The same prompt again is already on screen; "continue" is a new message and is shown.
    return this.start(prompt, prompt === CONTINUE_PROMPT);
  }

  private start(prompt: string, showPrompt: boolean): Promise<ChatSendResult> {
    const text = prompt.trim();
    if (text === '') return Promise.resolve({ started: false, reason: 'The message is empty.' });
    if (this.running) return Promise.resolve({ started: false, reason: 'Claude is still answering: stop the answer or wait for it, then send again.' });
    const disabled = this.disabled();
    if (disabled) return Promise.resolve({ started: false, reason: disabled.reason });
    const run = this.run(text, showPrompt);
    this.running = run;
    void run.finally(() => {
      if (this.running === run) this.running = undefined;
    });
    return run;
  }

  /** Cancels the running send at once; the session ends it with a "cancelled" error. */
  stop(): void {
    this.abort?.abort();
  }

  /** Stops any running answer, then forgets the conversation (memory files stay). */
  async newChat(): Promise<void> {
    this.stop();
    await this.running;
    this.session?.agent.reset();
    this.retryPrompt = undefined;
    this.toolFolders.clear();
    this.emit(this.transcript.clear());
    this.env.log.info('new chat');
  }

  /** Resolves once no send is running. */
  async whenIdle(): Promise<void> {
    while (this.running) await this.running;
  }

  dispose(): void {
    this.stop();
    this.patches.dispose();
    this.folderChanges.dispose();
  }

  private async run(prompt: string, showPrompt: boolean): Promise<ChatSendResult> {
    const store = this.currentStore();
    if (!store) return { started: false, reason: 'Open a folder first.' };
    const abort = new AbortController();
    this.abort = abort;
    this.retryPrompt = undefined;
    void vscode.commands.executeCommand('setContext', CHAT_RUNNING_CONTEXT, true);
    try {
      // Before the user's row, so a "new session" notice reads in the right order.
      const agent = await this.sessionFor(store);
      this.emit(this.transcript.begin(prompt, showPrompt));
      const outcome = await vscode.window.withProgress({ location: { viewId: CHAT_VIEW_ID } }, () =>
        agent.send(
          prompt,
          (event) => {
            const patches = this.transcript.apply(event);
            this.toolFolders.record(patches, store.folder);
            this.emit(patches);
            if (event.type === 'tool_end' && event.touched) this.env.memoryTouched(store, event.touched);
          },
          abort.signal,
        ),
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
      void vscode.commands.executeCommand('setContext', CHAT_RUNNING_CONTEXT, false);
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
    const options: AgentOptions = {
      apiKey: await this.env.apiKey(),
      baseURL: settings.apiBaseUrl,
      model: settings.model,
      maxTokens: settings.maxTokens,
      maxTurns: settings.maxTurns,
      memory: store.engine,
      promptCaching: settings.promptCaching,
      contextEditing: settings.contextEditing,
      logger: this.env.log,
    };
    const key = JSON.stringify([
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
    this.session = { key, folder, agent: new AgentSession({ ...options, history: continues ? previous.agent.history : undefined }) };
    if (continues) {
      this.emit(this.transcript.notice('The API key or settings changed: the conversation continues with them.'));
    } else if (previous && previous.agent.history.length > 0) {
      this.emit(this.transcript.notice(`The chat now works in the memory of "${store.folder.name}": Claude starts this message without the earlier conversation.`));
    }
    return this.session.agent;
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
