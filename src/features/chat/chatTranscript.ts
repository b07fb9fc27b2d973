/**
 * The conversation as the chat view shows it, kept in the extension so it survives the webview
 * being disposed when the view is hidden. Pure (no `vscode`): it folds agent events into entries
 * and returns the patches the webview needs to stay in step.
 */
import type { ApiRetryReason } from '../../core/agent/apiRetries';
import type { AgentErrorKind, AgentEvent } from '../../core/agent/events';
import { memoryFileReadOf, memoryReadsNote } from '../../core/agent/memoryReads';
import type { RowSplitter } from '../../core/session/chatArchive';
import { estimateCost, responseCost } from '../../core/agent/pricing';
import type { ApprovalRequest, ToolCallDetail } from '../../core/agent/tools';
import { EDITOR_TOOL } from '../../core/workspace/messages';
import { parseWorkspacePath, type WorkspaceFolderInfo } from '../../core/workspace/paths';
import { readSummary } from './shared/cardText';
import { parseSummaryState, type SummaryState } from './shared/changeSummary';
import {
  MAX_CARD_OUTPUT_CHARS,
  emptyTokenUsage,
  isEntry,
  type ApprovalState,
  type CommandExit,
  type ToolApproval,
  type ToolFile,
  type ToolEdit,
  type ChatAttachment,
  type ChatStarter,
  type ChatEntry,
  type ChatSnapshot,
  type ChatStatus,
  type QueuedMessage,
  type DisabledAction,
  type ErrorAction,
  type ExtensionToWebview,
  type KeyState,
  type NoticeAction,
  type TokenUsage,
  type ToolChange,
} from './shared/protocol';

/** How a send's prompt is shown. */
export interface PromptView {
  /** False for a retry of a prompt already on screen. */
  show?: boolean;
  /** With `show: false`: the line that says why it is sent now (default "Sending your message again…"). */
  resend?: string;
  /** A built-in prompt's chip text ("Resume Session · next: F003"); the text itself is collapsed. */
  label?: string;
  /** Labels of the chips that travel with the message. */
  attachments?: string[];
}

export const WAITING_TEXT = 'Waiting for Claude…';
/** The line a chat restored after a reload ends with when an answer was running. */
export const INTERRUPTED_TEXT = 'Stopped: the window was reloaded while Claude was answering.';
/** A card whose call was still running when the window reloaded. */
export const INTERRUPTED_CARD = 'interrupted by a window reload before it finished';
/** Cards whose output a view gets with the conversation; older ones are folded (viewSnapshot). */
export const UNFOLDED_OUTPUTS = 12;

const RETRY_REASONS: Record<ApiRetryReason, string> = {
  overloaded: 'Overloaded',
  rate_limit: 'Rate limited',
  server: 'Server error',
  timeout: 'No answer in time',
  network: 'Connection failed',
};

/** "Overloaded — retrying in 4 s (attempt 1 of 2)" */
export function retryText(reason: ApiRetryReason, delayMs: number, attempt: number, maxRetries: number): string {
  const seconds = Math.max(1, Math.round(delayMs / 1000));
  return `${RETRY_REASONS[reason]} — retrying in ${seconds} s (attempt ${attempt} of ${maxRetries})`;
}

export type ChatPatch = Exclude<ExtensionToWebview, { type: 'focusInput' }>;

/** What the user can do about each kind of failure. */
export function actionsFor(kind: AgentErrorKind): ErrorAction[] {
  switch (kind) {
    case 'missing_key':
      return ['setApiKey'];
    case 'auth':
      // The question is kept: Retry sends it again (after Set API Key, that happens by itself).
      return ['setApiKey', 'retry'];
    case 'permission':
    case 'not_found':
    case 'bad_request':
      return ['openSettings'];
    case 'rate_limit':
    case 'overloaded':
    case 'network':
    case 'stream':
    case 'unknown':
    case 'max_turns':
    case 'empty_response':
      return ['retry'];
    case 'max_tokens':
      return ['retry', 'openSettings'];
    case 'context_window':
    case 'refusal':
    case 'cancelled':
      return [];
  }
}

export class ChatTranscript {
  private entries: ChatEntry[] = [];
  private totals: TokenUsage = emptyTokenUsage();
  private requests = 0;
  /** Sum of the answers' estimated costs; undefined once an answer's model had no known price. */
  private costUsd: number | undefined = 0;
  private running = false;
  private working: string | undefined;
  private key: KeyState | undefined;
  private keyRejected = false;
  private starter: ChatStarter | undefined;
  private pendingKey = false;
  private hasPrevious = false;
  private attachments: ChatAttachment[] = [];
  /** Messages waiting for the running send to end (shown under the conversation). */
  private queued: QueuedMessage[] = [];
  /** The running send's model and the usage of its requests so far (one usage line per answer). */
  private model = '';
  private sendUsage: TokenUsage = emptyTokenUsage();
  private sendRequests = 0;
  /** The running send's estimated cost, request by request (undefined: a price was unknown). */
  private sendCost: number | undefined = 0;
  /** Of the send's usage and cost, what went to server-side compaction. */
  private sendCompaction: { usage: TokenUsage; costUsd: number | undefined } | undefined;
  private disabledReason: string | undefined;
  private disabledAction: DisabledAction | undefined;
  private nextId = 1;
  /** Ids of assistant entries streamed in the current model response (voided by a `retry`). */
  private turnTextIds: string[] = [];
  /** The first text of the running answer: the one with the "Claude" header (later ones continue it). */
  private answerTextId: string | undefined;
  /** The assistant entry text deltas currently append to. */
  private openTextId: string | undefined;
  /** tool_use id → entry id, for the current send (a scripted server may reuse tool ids). */
  private toolEntries = new Map<string, string>();
  /**
   * Memory files read during the conversation's first send, and the id of their note once it is
   * shown; undefined for later sends.
   */
  private reads: { paths: string[]; id?: string } | undefined;
  /** The folder the running send's workspace tools work in: editor cards show paths relative to it. */
  private folder: WorkspaceFolderInfo | undefined;

  /** The workspace folder of the sends that follow (editor cards name their files relative to it). */
  setWorkspaceFolder(folder: WorkspaceFolderInfo | undefined): void {
    this.folder = folder;
  }

  snapshot(): ChatSnapshot {
    return { entries: this.entries.map((e) => ({ ...e })), status: this.status() };
  }

  /**
   * The snapshot a view is sent: the outputs of all but the last UNFOLDED_OUTPUTS cards with one
   * are folded (left out, their line count kept), so a long chat's view stays light; a card's
   * Show Output brings its output back (`unfolded`).
   */
  viewSnapshot(): ChatSnapshot {
    let keep = UNFOLDED_OUTPUTS;
    const entries: ChatEntry[] = new Array<ChatEntry>(this.entries.length);
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      if (e.kind === 'tool' && e.output !== undefined && keep-- <= 0) {
        const { output, ...rest } = e;
        entries[i] = { ...rest, foldedOutput: output.split('\n').length };
      } else {
        entries[i] = { ...e };
      }
    }
    return { entries, status: this.status() };
  }

  /** A folded card again, with its output (undefined when it is not a card with output). */
  unfolded(id: string): ChatPatch[] {
    const entry = this.find(id);
    return entry?.kind === 'tool' && entry.output !== undefined ? [{ type: 'entry', entry: { ...entry } }] : [];
  }

  status(): ChatStatus {
    return {
      running: this.running,
      disabledReason: this.disabledReason,
      disabledAction: this.disabledAction,
      totals: { ...this.totals },
      requests: this.requests,
      ...(this.requests > 0 && this.costUsd !== undefined ? { costUsd: this.costUsd } : {}),
      ...(this.working !== undefined ? { working: this.working } : {}),
      ...(this.key !== undefined ? { key: this.key } : {}),
      ...(this.keyRejected ? { keyRejected: true } : {}),
      ...(this.pendingKey ? { pendingKey: true } : {}),
      ...(this.hasPrevious ? { hasPrevious: true } : {}),
      ...(this.attachments.length > 0 ? { attachments: this.attachments.map((a) => ({ ...a })) } : {}),
      ...(this.queued.length > 0 ? { queued: this.queued.map((q) => ({ ...q })) } : {}),
      ...(this.starter ? { starter: { ...this.starter } } : {}),
    };
  }

  /** The messages waiting for their turn, in order. */
  setQueued(queued: readonly QueuedMessage[]): ChatPatch[] {
    if (queued.length === this.queued.length && queued.every((q, i) => q.id === this.queued[i].id)) return [];
    this.queued = queued.map((q) => ({ ...q }));
    return [this.statusPatch()];
  }

  /** The entries and totals, to save the chat; while an answer runs, also that send's usage so far. */
  saved(): SavedConversation {
    return {
      entries: this.entries.map((e) => ({ ...e })),
      totals: { ...this.totals },
      requests: this.requests,
      costUsd: this.costUsd,
      ...(this.running ? { send: { model: this.model, usage: { ...this.sendUsage }, requests: this.sendRequests } } : {}),
    };
  }

  /**
   * Shows a saved conversation (ids continue after the highest one it holds). One saved while an
   * answer ran ends the way Stop ends it: the partial answer kept, running cards marked
   * interrupted, unanswered questions gone, a "Stopped" line and the send's usage line.
   */
  restore(saved: SavedConversation): ChatPatch[] {
    this.entries = saved.entries.map((e) => ({ ...e }));
    this.totals = { ...saved.totals };
    this.requests = saved.requests;
    this.costUsd = saved.costUsd;
    this.resetSend();
    for (const e of this.entries) {
      const n = Number.parseInt(e.id.slice(1), 10);
      if (n >= this.nextId) this.nextId = n + 1;
    }
    if (saved.send) {
      this.entries = this.entries.map(interruptedEntry);
      this.model = saved.send.model;
      this.sendUsage = { ...saved.send.usage };
      this.sendRequests = saved.send.requests;
      this.sendCost = estimateCost(this.model, this.sendUsage);
      this.running = true;
      this.add({ kind: 'notice', id: this.id(), text: INTERRUPTED_TEXT });
      this.finish();
    }
    return [{ type: 'snapshot', snapshot: this.viewSnapshot() }];
  }

  setKeyState(key: KeyState): ChatPatch[] {
    if (key === this.key) return [];
    this.key = key;
    return [this.statusPatch()];
  }

  /** What the empty chat shows: the folder, the model, whether Resume has work (undefined: no folder). */
  setStarter(starter: ChatStarter | undefined): ChatPatch[] {
    if (JSON.stringify(starter) === JSON.stringify(this.starter)) return [];
    this.starter = starter ? { ...starter } : undefined;
    return [this.statusPatch()];
  }

  /** The API rejected the key (401), or a new key / a successful request says it no longer does. */
  setKeyRejected(rejected: boolean): ChatPatch[] {
    if (rejected === this.keyRejected) return [];
    this.keyRejected = rejected;
    return [this.statusPatch()];
  }

  /** Whether a message is waiting for a key (shown as the key prompt's "your message is kept"). */
  setPendingKey(pending: boolean): ChatPatch[] {
    if (pending === this.pendingKey) return [];
    this.pendingKey = pending;
    return [this.statusPatch()];
  }

  setHasPrevious(has: boolean): ChatPatch[] {
    if (has === this.hasPrevious) return [];
    this.hasPrevious = has;
    return [this.statusPatch()];
  }

  setAttachments(attachments: readonly ChatAttachment[]): ChatPatch[] {
    // Only the display fields: the extension's attachments also carry Uris and ranges.
    this.attachments = attachments.map((a) => ({ id: a.id, label: a.label, detail: a.detail, ...(a.current ? { current: true } : {}) }));
    return [this.statusPatch()];
  }

  /** Clears the conversation ("New chat"). */
  clear(): ChatPatch[] {
    this.entries = [];
    this.totals = emptyTokenUsage();
    this.requests = 0;
    this.costUsd = 0;
    this.resetSend();
    return [{ type: 'snapshot', snapshot: this.snapshot() }];
  }

  private resetSend(): void {
    this.turnTextIds = [];
    this.openTextId = undefined;
    this.answerTextId = undefined;
    this.toolEntries.clear();
    this.reads = undefined;
    this.running = false;
    this.working = undefined;
    this.sendUsage = emptyTokenUsage();
    this.sendRequests = 0;
    this.sendCost = 0;
    this.sendCompaction = undefined;
  }

  setDisabledReason(reason: string | undefined, action?: DisabledAction): ChatPatch[] {
    if (reason === this.disabledReason && action === this.disabledAction) return [];
    this.disabledReason = reason;
    this.disabledAction = reason === undefined ? undefined : action;
    return [{ type: 'status', status: this.status() }];
  }

  /**
   * A send starts with `model`: the user's row (or a "sent again" line for a retry), and the
   * running state with "Waiting for Claude…" until the first token.
   */
  begin(prompt: string, model: string, view: PromptView = {}): ChatPatch[] {
    this.resetSend();
    this.running = true;
    this.working = WAITING_TEXT;
    this.model = model;
    this.pendingKey = false;
    // Only the answer to a conversation's first message says what Claude loaded from memory.
    if (this.requests === 0 && !this.entries.some((e) => e.kind === 'reads')) this.reads = { paths: [] };
    const row: ChatEntry =
      view.show === false
        ? { kind: 'notice', id: this.id(), text: view.resend ?? 'Sending your message again…' }
        : this.userRow(prompt, view);
    return [this.add(row), this.statusPatch()];
  }

  /** The user's message without a send (it waits for an API key). */
  hold(prompt: string, view: PromptView = {}): ChatPatch[] {
    this.pendingKey = true;
    return [this.add(this.userRow(prompt, view)), this.statusPatch()];
  }

  private userRow(prompt: string, view: PromptView): ChatEntry {
    return {
      kind: 'user',
      id: this.id(),
      text: prompt,
      ...(view.label ? { label: view.label } : {}),
      ...(view.attachments && view.attachments.length > 0 ? { attachments: [...view.attachments] } : {}),
    };
  }

  /** The checkpoint taken before the last user message: its "Rewind to here". */
  setCheckpoint(checkpoint: number): ChatPatch[] {
    const row = [...this.entries].reverse().find((e) => e.kind === 'user');
    if (row?.kind !== 'user') return [];
    return [this.upsert({ ...row, checkpoint })];
  }

  /** The rewind to before user message `id`: it and every row after it are marked rewound (and folded); it says what changed. */
  markRewound(id: string, summary: string): ChatPatch[] {
    const index = this.entries.findIndex((e) => e.id === id);
    if (index < 0) return [];
    return this.entries
      .slice(index)
      .map((e) => (e.id === id && e.kind === 'user' ? { ...e, rewound: true as const, rewoundHere: summary } : { ...e, rewound: true as const }))
      .map((e) => this.upsert(e));
  }

  /** An error found before the agent ran (no key, no folder): shown like an agent error. */
  fail(kind: AgentErrorKind, message: string): ChatPatch[] {
    return [this.add({ kind: 'error', id: this.id(), message, actions: actionsFor(kind) })];
  }

  /** A quiet line in the conversation, with an optional button. */
  notice(text: string, action?: NoticeAction): ChatPatch[] {
    return [this.add({ kind: 'notice', id: this.id(), text, ...(action ? { action } : {}) })];
  }

  apply(event: AgentEvent): ChatPatch[] {
    const note = this.noteReads(event);
    const patches = this.fold(event);
    return note.before ? [...note.patches, ...patches] : [...patches, ...note.patches];
  }

  /**
   * The "Read N memory files" note of the first send: it appears once Claude moves on from its
   * first reads (text, another tool, the end), right before that, and counts later reads too.
   */
  private noteReads(event: AgentEvent): { patches: ChatPatch[]; before: boolean } {
    const reads = this.reads;
    if (!reads) return { patches: [], before: false };
    const path = memoryFileReadOf(event);
    if (path !== undefined) {
      if (reads.paths.includes(path)) return { patches: [], before: false };
      reads.paths.push(path);
      return { patches: reads.id ? [this.upsert(this.readsEntry(reads.id, reads.paths))] : [], before: false };
    }
    const movesOn =
      (event.type === 'text' && event.text !== '') ||
      (event.type === 'tool_start' && ((event.tool ?? 'memory') !== 'memory' || event.command !== 'view')) ||
      event.type === 'done' ||
      event.type === 'error';
    if (!movesOn || reads.id || reads.paths.length === 0) return { patches: [], before: false };
    reads.id = this.id();
    return { patches: [this.add(this.readsEntry(reads.id, reads.paths))], before: true };
  }

  private readsEntry(id: string, paths: readonly string[]): ChatEntry {
    return { kind: 'reads', id, text: memoryReadsNote(paths), paths: [...paths] };
  }

  private fold(event: AgentEvent): ChatPatch[] {
    switch (event.type) {
      case 'text':
        return [...this.appendText(event.text), ...this.setWorking(undefined)];
      case 'tool_start': {
        this.openTextId = undefined;
        const file = this.fileOf(event.tool, event.path, undefined);
        return [
          this.upsert({
            kind: 'tool',
            id: this.toolEntryId(event.id),
            ...toolName(event.tool),
            command: event.command,
            path: file?.path ?? event.path,
            status: 'running',
            ...(file ? { file } : {}),
          }),
          ...this.setWorking(undefined),
        ];
      }
      case 'tool_end': {
        this.openTextId = undefined;
        const change = changeOf(event.detail);
        const id = this.toolEntryId(event.id);
        const before = this.find(id);
        const kept = before?.kind === 'tool' ? { ...(before.approval ? { approval: before.approval } : {}), ...(before.output ? { output: before.output } : {}) } : {};
        const edit = event.detail?.kind === 'edit' && !event.is_error ? editOf(event.detail.path, event.detail.before, event.detail.after) : undefined;
        const exit = exitOf(event.detail);
        const file = this.fileOf(event.tool, event.path, event.is_error ? undefined : event.detail);
        // A command that ran but failed (exit 1, a timeout) is a failure on its card, though
        // Claude gets its output as an ordinary result.
        const failed = event.is_error || (exit !== undefined && (exit.ended !== undefined || exit.code !== 0));
        // A successful editor card does not repeat its path below the header: a read says which
        // lines it covered, an edit has its bar (size, Open Diff, Undo).
        const summary = file && !event.is_error && event.tool === EDITOR_TOOL.name ? (event.detail?.kind === 'fileRead' ? readSummary(file) : undefined) : event.summary;
        return [
          this.upsert({
            kind: 'tool',
            id,
            ...toolName(event.tool),
            command: event.command,
            path: file?.path ?? event.touched?.newPath ?? event.path,
            status: failed ? 'error' : 'ok',
            ...(summary !== undefined ? { summary } : {}),
            ...(change ? { change } : {}),
            ...kept,
            ...(edit ? { edit } : {}),
            ...(exit ? { exit } : {}),
            ...(file ? { file } : {}),
            ...(event.touched?.version !== undefined && !event.is_error ? { version: event.touched.version } : {}),
          }),
          ...this.setWorking(WAITING_TEXT),
        ];
      }
      case 'usage':
        // A request went through: whatever key it used is accepted.
        this.keyRejected = false;
        this.sendRequests += 1;
        this.sendUsage = addUsage(this.sendUsage, event.usage);
        {
          // Priced per request (long-prompt tiers are per request), compaction as its own part.
          const cost = responseCost(this.model, event.usage, event.compaction);
          this.sendCost = cost === undefined || this.sendCost === undefined ? undefined : this.sendCost + cost.total;
          if (event.compaction) {
            const before = this.sendCompaction;
            this.sendCompaction = {
              usage: addUsage(before?.usage ?? emptyTokenUsage(), event.compaction),
              costUsd: cost === undefined || (before && before.costUsd === undefined) ? undefined : (before?.costUsd ?? 0) + cost.compaction,
            };
          }
        }
        this.openTextId = undefined;
        return [];
      case 'api_retry':
        return this.setWorking(retryText(event.reason, event.delayMs, event.attempt, event.maxRetries));
      case 'context_edit':
        return [
          this.add({
            kind: 'notice',
            id: this.id(),
            text: `Context editing cleared ${event.cleared_tool_uses} old tool result(s) (${event.cleared_input_tokens} input tokens).`,
          }),
        ];
      case 'compaction':
        return [...this.closeTurn(), this.add({ kind: 'notice', id: this.id(), text: event.line })];
      case 'memory_prompt':
        // A built-in request the loop sent to Claude: a compact chip, like Resume's routine. What
        // Claude says next answers it, under a header of its own.
        this.answerTextId = undefined;
        return [...this.closeTurn(), this.add({ kind: 'user', id: this.id(), text: event.text, label: event.label })];
      case 'retry':
        return [
          ...this.voidTurnText(),
          this.add({ kind: 'notice', id: this.id(), text: `Connection dropped; retrying (attempt ${event.attempt}).` }),
          ...this.setWorking(WAITING_TEXT),
        ];
      case 'turn_end':
        return [...this.closeTurn(), ...this.setWorking(WAITING_TEXT)];
      case 'error':
        if (event.kind === 'cancelled') return [...this.closeTurn(), this.add({ kind: 'notice', id: this.id(), text: event.message })];
        return [
          ...this.closeTurn(),
          this.add({ kind: 'error', id: this.id(), message: event.message, actions: actionsFor(event.kind) }),
          ...(event.kind === 'auth' ? this.setKeyRejected(true) : []),
        ];
      case 'done':
        return this.finish();
      case 'tool_output':
        return this.appendOutput(event.id, event.text);
    }
  }

  /**
   * The workspace file of a text editor card: its path relative to the folder (from the result
   * when there is one, else the path as Claude wrote it, when it lies in the folder), with the
   * lines a read covered or the first line an edit changed. Undefined for other tools and for
   * paths outside the folder (those cards show the path as written, without a link).
   */
  private fileOf(tool: string | undefined, raw: string | undefined, detail: ToolCallDetail | undefined): ToolFile | undefined {
    if (tool !== EDITOR_TOOL.name) return undefined;
    if (detail?.kind === 'fileRead') {
      return { path: detail.path, ...(detail.range ? { range: [detail.range[0], detail.range[1]] as [number, number] } : {}), ...(detail.lines !== undefined ? { lines: detail.lines } : {}), ...(detail.directory ? { directory: true } : {}) };
    }
    if (detail?.kind === 'edit') {
      const line = firstChangedLine(detail.before ?? '', detail.after);
      return { path: detail.path, ...(line !== undefined ? { line } : {}) };
    }
    const folder = this.folder;
    if (!folder || raw === undefined) return undefined;
    try {
      const rel = parseWorkspacePath(raw, folder).rel;
      return { path: rel === '' ? '.' : rel, ...(rel === '' ? { directory: true } : {}) };
    } catch {
      return undefined;
    }
  }

  /** The card of tool call `toolUseId` in the running send, if it has one. */
  entryIdOf(toolUseId: string): string | undefined {
    return this.toolEntries.get(toolUseId);
  }

  /** A tool card by id (a copy). */
  tool(id: string): Extract<ChatEntry, { kind: 'tool' }> | undefined {
    const entry = this.find(id);
    return entry?.kind === 'tool' ? { ...entry } : undefined;
  }

  /** Puts an approval question (or its answer) on the card of `toolUseId`. */
  setApproval(toolUseId: string, request: ApprovalRequest, state: ApprovalState): ChatPatch[] {
    const id = this.toolEntryId(toolUseId);
    const entry = this.find(id);
    if (entry?.kind !== 'tool') return [];
    const approval: ToolApproval =
      request.kind === 'command'
        ? { kind: 'command', command: request.command, prefixes: [...request.prefixes], state, ...(request.sandboxed ? { sandboxed: true as const } : {}) }
        : request.kind === 'network'
          ? { kind: 'network', host: request.port === undefined ? request.host : `${request.host}:${request.port}`, state }
          : { kind: 'edit', path: request.path, ...lineCounts(request.before, request.after), state, ...(request.protected ? { protected: request.protected } : {}) };
    // While a question waits, nothing else says Claude is waiting for the user.
    return [this.upsert({ ...entry, approval }), ...this.setWorking(undefined)];
  }

  /** Marks an edit card's file as restored by Undo. */
  markUndone(id: string): ChatPatch[] {
    const entry = this.find(id);
    if (entry?.kind !== 'tool' || !entry.edit) return [];
    return [this.upsert({ ...entry, edit: { ...entry.edit, undone: true } })];
  }

  private appendOutput(toolUseId: string, text: string): ChatPatch[] {
    const id = this.toolEntries.get(toolUseId);
    const entry = id ? this.find(id) : undefined;
    if (!id || entry?.kind !== 'tool' || text === '') return [];
    const output = `${entry.output ?? ''}${text}`;
    entry.output = output.length > MAX_CARD_OUTPUT_CHARS ? output.slice(-MAX_CARD_OUTPUT_CHARS) : output;
    return [{ type: 'output', id, text }];
  }

  /** Ends a send that never reached the agent. */
  end(): ChatPatch[] {
    return this.finish();
  }

  /** The send is over: its one usage line (all its requests), the totals, not running. */
  private finish(): ChatPatch[] {
    const patches = this.closeTurn();
    if (this.sendRequests > 0) {
      const cost = this.sendCost;
      this.requests += this.sendRequests;
      this.totals = addUsage(this.totals, this.sendUsage);
      this.costUsd = cost === undefined || this.costUsd === undefined ? undefined : this.costUsd + cost;
      patches.push(
        this.add({
          kind: 'usage',
          id: this.id(),
          usage: { ...this.sendUsage },
          requests: this.sendRequests,
          model: this.model,
          ...(cost !== undefined ? { costUsd: cost } : {}),
          ...(this.sendCompaction
            ? { compaction: { ...this.sendCompaction.usage }, ...(this.sendCompaction.costUsd !== undefined ? { compactionCostUsd: this.sendCompaction.costUsd } : {}) }
            : {}),
        }),
      );
    }
    this.sendUsage = emptyTokenUsage();
    this.sendRequests = 0;
    this.sendCost = 0;
    this.sendCompaction = undefined;
    this.running = false;
    this.working = undefined;
    patches.push(this.statusPatch());
    return patches;
  }

  private setWorking(text: string | undefined): ChatPatch[] {
    if (!this.running || text === this.working) return [];
    this.working = text;
    return [this.statusPatch()];
  }

  private statusPatch(): ChatPatch {
    return { type: 'status', status: this.status() };
  }

  private appendText(text: string): ChatPatch[] {
    if (text === '') return [];
    const open = this.openTextId ? this.find(this.openTextId) : undefined;
    if (open && open.kind === 'assistant') {
      open.markdown += text;
      return [{ type: 'text', id: open.id, text }];
    }
    // One "Claude" header per answer: the answer's later texts (between its cards) go on under it.
    const continued = this.answerTextId !== undefined && this.find(this.answerTextId) !== undefined;
    const entry: ChatEntry = { kind: 'assistant', id: this.id(), markdown: text, streaming: true, ...(continued ? { continued: true } : {}) };
    if (!continued) this.answerTextId = entry.id;
    this.openTextId = entry.id;
    this.turnTextIds.push(entry.id);
    return [this.add(entry)];
  }

  /** Marks the response's text as complete (screen readers read it once it stops changing). */
  private closeTurn(): ChatPatch[] {
    const patches: ChatPatch[] = [];
    for (const id of this.turnTextIds) {
      const entry = this.find(id);
      if (entry?.kind === 'assistant' && entry.streaming) {
        entry.streaming = false;
        patches.push({ type: 'entry', entry: { ...entry } });
      }
    }
    this.turnTextIds = [];
    this.openTextId = undefined;
    return patches;
  }

  private voidTurnText(): ChatPatch[] {
    const voided = new Set(this.turnTextIds);
    this.entries = this.entries.filter((e) => !voided.has(e.id));
    this.turnTextIds = [];
    this.openTextId = undefined;
    return [...voided].map((id) => ({ type: 'remove', id }));
  }

  private add(entry: ChatEntry): ChatPatch {
    this.entries.push(entry);
    return { type: 'entry', entry: { ...entry } };
  }

  private upsert(entry: ChatEntry): ChatPatch {
    const index = this.entries.findIndex((e) => e.id === entry.id);
    if (index >= 0) this.entries[index] = entry;
    else this.entries.push(entry);
    return { type: 'entry', entry: { ...entry } };
  }

  private find(id: string): ChatEntry | undefined {
    return this.entries.find((e) => e.id === id);
  }

  private id(): string {
    return `e${this.nextId++}`;
  }

  private toolEntryId(toolUseId: string): string {
    let id = this.toolEntries.get(toolUseId);
    if (!id) {
      id = this.id();
      this.toolEntries.set(toolUseId, id);
    }
    return id;
  }
}

/** A conversation as the chat saves it (Chat History, kept across window reloads). */
export interface SavedConversation {
  entries: ChatEntry[];
  totals: TokenUsage;
  requests: number;
  costUsd: number | undefined;
  /** Saved while an answer ran: its model and its usage so far (restore ends it as stopped). */
  send?: { model: string; usage: TokenUsage; requests: number };
  /** The change summary's base and the rows kept or undone (shared/changeSummary.ts). */
  changes?: SummaryState;
}

function isUsage(value: unknown): value is TokenUsage {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return ['input_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens', 'output_tokens'].every((k) => typeof v[k] === 'number');
}

/** A saved conversation's rows are stored in chunks (ChatArchive): only the last ones change. */
export const savedConversationRows: RowSplitter<SavedConversation> = {
  split: ({ entries, ...rest }) => ({ rows: entries, rest }),
  join: (rest, rows) => (typeof rest === 'object' && rest !== null ? { ...rest, entries: rows } : undefined),
};

/** Reads a saved conversation back from storage; undefined when it is not one. */
export function parseSavedConversation(value: unknown): SavedConversation | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (!Array.isArray(v.entries) || !v.entries.every((e) => isEntry(e) && /^e\d+$/.test(e.id)) || !isUsage(v.totals) || typeof v.requests !== 'number') return undefined;
  const send = v.send as Record<string, unknown> | undefined;
  const changes = parseSummaryState(v.changes);
  const validSend = typeof send === 'object' && send !== null && typeof send.model === 'string' && isUsage(send.usage) && typeof send.requests === 'number';
  return {
    entries: v.entries as ChatEntry[],
    totals: v.totals,
    requests: v.requests,
    costUsd: typeof v.costUsd === 'number' ? v.costUsd : undefined,
    ...(validSend ? { send: { model: send.model as string, usage: send.usage as TokenUsage, requests: send.requests as number } } : {}),
    ...(changes !== undefined ? { changes } : {}),
  };
}

/** A row of an answer that was running when the window reloaded, as Stop would have left it. */
function interruptedEntry(entry: ChatEntry): ChatEntry {
  if (entry.kind === 'assistant' && entry.streaming) return { ...entry, streaming: false };
  if (entry.kind !== 'tool') return entry;
  const { approval, ...rest } = entry;
  const keep = approval && approval.state !== 'pending' ? { approval } : {};
  return entry.status === 'running' ? { ...rest, ...keep, status: 'error', summary: INTERRUPTED_CARD } : { ...rest, ...keep };
}

/** The tool's name on a card; memory (the default) is left out. */
function toolName(tool: string | undefined): { tool?: string } {
  return tool && tool !== 'memory' ? { tool } : {};
}

/**
 * Lines added and removed between two texts (a card's "+3 −1"): the longest common subsequence of
 * the lines between their common start and end; for very large changes, the sizes of that middle.
 */
export function lineCounts(before: string | undefined, after: string): { added: number; removed: number } {
  const a = before === undefined ? [] : before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const x = a.slice(start, a.length - end);
  const y = b.slice(start, b.length - end);
  if (x.length * y.length > 4_000_000) return { added: y.length, removed: x.length };
  let row = new Array<number>(y.length + 1).fill(0);
  for (const line of x) {
    const next = new Array<number>(y.length + 1).fill(0);
    for (let j = 0; j < y.length; j++) next[j + 1] = line === y[j] ? row[j] + 1 : Math.max(row[j + 1], next[j]);
    row = next;
  }
  const common = row[y.length];
  return { added: y.length - common, removed: x.length - common };
}

function editOf(path: string, before: string | undefined, after: string): ToolEdit {
  return { path, ...lineCounts(before, after) };
}

/** A bash command's end, from its result's detail. */
function exitOf(detail: ToolCallDetail | undefined): CommandExit | undefined {
  if (detail?.kind !== 'command') return undefined;
  return { ...(detail.exitCode !== undefined ? { code: detail.exitCode } : {}), ...(detail.ended ? { ended: detail.ended } : {}) };
}

/** The 1-based line where `after` first differs from `before` (undefined when they are equal). */
export function firstChangedLine(before: string, after: string): number | undefined {
  if (before === after) return undefined;
  const a = before.split('\n');
  const b = after.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return Math.min(i, Math.max(0, b.length - 1)) + 1;
}

function changeOf(detail: ToolCallDetail | undefined): ToolChange | undefined {
  return detail?.kind === 'memory' ? { ...detail.change } : undefined;
}

function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    cache_read_input_tokens: a.cache_read_input_tokens + b.cache_read_input_tokens,
    cache_creation_input_tokens: a.cache_creation_input_tokens + b.cache_creation_input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
  };
}
