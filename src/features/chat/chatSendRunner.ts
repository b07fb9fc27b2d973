/**
 * The chat's send and turn runner: messages go out one after the other (SendQueue; one sent
 * while an answer runs is shown as queued), a message sent without an API key waits for one, a
 * failed send offers Retry, and each answer's events become the transcript's patches. Moved out
 * of ChatController.
 */
import { SendQueue } from './sendQueue';
import type { PromptView } from './chatTranscript';
import type { ChatEnvironment, ChatFolder } from './chatPort';

import { CONTINUE_PROMPT, type ChatSendResult, type ChatSendRunnerHooks, type QueuedSend, type SendOptions } from './chatSendTypes';

export type { ChatSendResult, ChatSendRunnerHooks, SendOptions } from './chatSendTypes';
export { CONTINUE_PROMPT } from './chatSendTypes';

export class ChatSendRunner {
  /** The next send is a Resume session's routine (SendOptions.resume). */
  private resumeNext = false;
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
  /** The folder of the running send (edits are relative to it). */
  runningFolder: ChatFolder | undefined;

  constructor(
    private readonly env: Pick<ChatEnvironment, 'keyState' | 'settings' | 'log' | 'memoryTouched' | 'folderInfo' | 'promptWithAttachments' | 'setRunning'>,
    private readonly hooks: ChatSendRunnerHooks,
  ) {}

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  get canRetry(): boolean {
    return !this.isRunning && this.retryPrompt !== undefined;
  }

  /** True while an answer streams (until its send is over; the save after it may still run). */
  get answering(): boolean {
    return this.abort !== undefined;
  }

  /**
   * Reads whether a key exists and shows it; when a message was waiting for one, sends it now.
   * Resolves with that send's result, if there was one.
   */
  async refreshKey(): Promise<ChatSendResult | undefined> {
    const key = await this.env.keyState();
    this.hooks.emit(this.hooks.transcript.setKeyState(key));
    // A new (or removed) key: the one the API rejected is not the one on the key line any more.
    this.hooks.emit(this.hooks.transcript.setKeyRejected(false));
    const pending = this.pendingKeyPrompts;
    if (key === 'missing' || pending.length === 0 || this.running) return undefined;
    this.pendingKeyPrompts = [];
    this.hooks.emit(this.hooks.transcript.setPendingKey(false));
    const results = pending.map((prompt) => this.start(prompt, { show: false, resend: 'API key set: sending your message.' }));
    return results[0];
  }

  /**
   * Sends a prompt (with the input's chips); resolves when the answer is complete, failed or
   * stopped. `fresh` sets the current conversation aside first (Resume: the memory carries the state).
   */
  async send(prompt: string, options: SendOptions = {}): Promise<ChatSendResult> {
    if (options.fresh && !this.running && this.hooks.transcript.snapshot().entries.length > 0) await this.hooks.newChat();
    this.resumeNext = options.resume === true;
    return this.start(prompt, { label: options.label });
  }

  /** Sends the last prompt again (or asks Claude to continue when part of the answer was kept). */
  retry(): Promise<ChatSendResult> {
    const prompt = this.retryPrompt;
    if (!prompt) return Promise.resolve({ started: false, reason: 'There is nothing to retry.' });
    // The same prompt again is already on screen; "continue" is a new message and is shown.
    return this.start(prompt, { show: prompt === CONTINUE_PROMPT, retry: true });
  }

  /** A retry ("continue") belongs to the conversation it failed in: a folder switch drops it. */
  dropRetry(): void {
    this.retryPrompt = undefined;
  }

  /**
   * Starts a send, or queues it behind the one running (shown at once as a queued message; it is
   * sent when the answer before it is over and saved). Resolves when its own answer is over.
   */
  private start(prompt: string, view: PromptView): Promise<ChatSendResult> {
    const text = prompt.trim();
    if (text === '') return Promise.resolve({ started: false, reason: 'The message is empty.' });
    // Chips go with what the user writes, as they are when it is sent (also when it waits).
    const attachments = view.show === false || view.label !== undefined ? [] : this.hooks.attachments.take();
    if (attachments.length > 0) this.hooks.emit(this.hooks.transcript.setAttachments([]));
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
    this.hooks.emit(this.hooks.transcript.setQueued([...this.queued].filter((q) => q.view.show !== false).map((q) => ({ id: q.id, text: q.text }))));
  }

  private async startNow(item: QueuedSend): Promise<ChatSendResult> {
    const { text, attachments, view } = item;
    await this.hooks.restored();
    await this.hooks.switching();
    if (item.cancelled) return { started: false, reason: item.cancelled };
    const disabled = this.hooks.disabled();
    if (disabled) {
      this.giveBack([item], disabled.reason);
      return { started: false, reason: disabled.reason };
    }
    // Edits the user undid from their cards since Claude's last turn: Claude reads it first.
    const note = this.hooks.takeNote();
    const withAttachments = await this.env.promptWithAttachments(text, attachments);
    const full = note === undefined ? withAttachments : `${note}\n\n${withAttachments}`;
    if ((await this.env.keyState()) === 'missing') {
      // Kept on screen and sent once a key is set, instead of an error about a missing key.
      this.pendingKeyPrompts.push(full);
      this.retryPrompt = undefined;
      if (view.show !== false) this.hooks.emit(this.hooks.transcript.hold(text, view));
      this.hooks.emit(this.hooks.transcript.setKeyState('missing'));
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
    if (texts.length > 0) this.hooks.emit([{ type: 'draft', text: texts.join('\n\n'), reason }]);
  }

  /** The conversation is replaced: its retry, the messages waiting for a key and the queued ones go. */
  forget(): void {
    this.retryPrompt = undefined;
    this.pendingKeyPrompts = [];
    this.giveBack([...this.queued], 'Not sent: the conversation it was queued in was replaced. Your message is back in the input.');
  }

  /** Cancels the running send at once; the session ends it with a "cancelled" error. */
  stop(): void {
    this.abort?.abort();
  }

  /** Resolves once the running send (if any) is over. */
  async settled(): Promise<void> {
    await this.running;
  }

  /** Resolves once no send is running. */
  async whenIdle(): Promise<void> {
    await this.sends.idle();
  }

  /** `prompt` goes to Claude (with attachments); `text` is what was typed, kept for a retry. */
  private async run(prompt: string, text: string, view: PromptView): Promise<ChatSendResult> {
    const store = this.hooks.currentStore();
    if (!store) return { started: false, reason: 'Open a folder first.' };
    const abort = new AbortController();
    this.abort = abort;
    this.runningFolder = store.folder;
    this.retryPrompt = undefined;
    this.env.setRunning(true);
    this.hooks.countTurn(store, view.label ?? text);
    const { transcript } = this.hooks;
    try {
      // Before the user's row, so a "new session" notice reads in the right order.
      const agent = await this.hooks.agentFor(store);
      const requireProgressEntry = this.resumeNext;
      this.resumeNext = false;
      // Editor cards name files relative to the folder the tools work in.
      transcript.setWorkspaceFolder(this.env.folderInfo(store.folder, this.env.settings().memoryFolder));
      this.hooks.emit(transcript.begin(text, this.env.settings().model, view));
      this.hooks.progress.show(true);
      this.hooks.running(true);
      // The checkpoint of the files and memory as they are before Claude reads this message.
      if (view.show !== false) await this.hooks.recordCheckpoint(store.folder, text, view.label);
      const outcome = await agent.send(
        prompt,
        (event) => {
          const patches = transcript.apply(event);
          this.hooks.toolFolders.record(patches, store.folder);
          this.hooks.emit(patches);
          if (event.type === 'tool_end' && event.detail?.kind === 'edit' && !event.is_error) {
            const entryId = transcript.entryIdOf(event.id);
            const { path, before, after } = event.detail;
            if (entryId) this.hooks.edits.record(entryId, { folder: store.folder, path, before, after });
          }
          if (event.type === 'tool_end' && event.touched) this.env.memoryTouched(store, event.touched);
          if (event.type === 'tool_end') this.hooks.toolEnded(event);
        },
        abort.signal,
        { requireProgressEntry },
      );
      if (!outcome.ok && outcome.error?.kind !== 'cancelled') {
        this.retryPrompt = outcome.turns === 0 ? prompt : CONTINUE_PROMPT;
      }
      // A Retry that got its answer: its "sending again" line and the old error's buttons go.
      if (outcome.ok && view.retry) this.hooks.emit(transcript.retried());
      this.env.log.info(
        `send ${outcome.ok ? 'finished' : `ended (${outcome.error?.kind})`}: ${outcome.turns} request(s), ` +
          `${outcome.usage.input_tokens} in, ${outcome.usage.cache_read_input_tokens} cache read, ` +
          `${outcome.usage.cache_creation_input_tokens} cache write, ${outcome.usage.output_tokens} out`,
      );
      return { started: true, outcome };
    } catch (error) {
      // AgentLoop.send never rejects; this is a bug in our glue, shown instead of swallowed.
      this.env.log.error(error instanceof Error ? error : String(error));
      this.hooks.emit(transcript.fail('unknown', 'Something went wrong inside the extension; see the "Claude Memory" output for details.'));
      this.hooks.emit(transcript.end());
      return { started: false, reason: 'internal error' };
    } finally {
      if (this.abort === abort) this.abort = undefined;
      this.hooks.progress.show(false);
      this.hooks.running(false);
      this.env.setRunning(false);
      // Every completed, stopped or failed send is saved before the send resolves.
      await this.hooks.answerSaved();
    }
  }
}
