/**
 * The transcript's rows and status line: the entries, their ids, what a view is sent (snapshots,
 * folded outputs) and the status fields the chat sets. The base of ChatTranscript (chatTranscript.ts).
 */
import {
  emptyTokenUsage,
  type ChatAttachment,
  type ChatEntry,
  type ChatSnapshot,
  type ChatStarter,
  type ChatStatus,
  type DisabledAction,
  type ExtensionToWebview,
  type KeyState,
  type QueuedMessage,
  type TokenUsage,
} from './shared/protocol';

/** Cards whose output a view gets with the conversation; older ones are folded (viewSnapshot). */
export const UNFOLDED_OUTPUTS = 12;

export type ChatPatch = Exclude<ExtensionToWebview, { type: 'focusInput' }>;

export class TranscriptRows {
  protected entries: ChatEntry[] = [];
  protected totals: TokenUsage = emptyTokenUsage();
  protected requests = 0;
  /** Sum of the answers' estimated costs; undefined once an answer's model had no known price. */
  protected costUsd: number | undefined = 0;
  protected running = false;
  protected working: string | undefined;
  protected key: KeyState | undefined;
  protected keyRejected = false;
  protected starter: ChatStarter | undefined;
  protected pendingKey = false;
  protected hasPrevious = false;
  protected attachments: ChatAttachment[] = [];
  /** Messages waiting for the running send to end (shown under the conversation). */
  protected queued: QueuedMessage[] = [];
  protected disabledReason: string | undefined;
  protected disabledAction: DisabledAction | undefined;
  protected nextId = 1;
  /** tool_use id → entry id, for the current send (a scripted server may reuse tool ids). */
  protected toolEntries = new Map<string, string>();

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
    this.attachments = attachments.map((a) => ({ id: a.id, label: a.label, detail: a.detail, ...(a.current ? { current: true } : {}), ...(a.off ? { off: true as const } : {}) }));
    return [this.statusPatch()];
  }

  setDisabledReason(reason: string | undefined, action?: DisabledAction): ChatPatch[] {
    if (reason === this.disabledReason && action === this.disabledAction) return [];
    this.disabledReason = reason;
    this.disabledAction = reason === undefined ? undefined : action;
    return [{ type: 'status', status: this.status() }];
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

  protected setWorking(text: string | undefined): ChatPatch[] {
    if (!this.running || text === this.working) return [];
    this.working = text;
    return [this.statusPatch()];
  }

  protected statusPatch(): ChatPatch {
    return { type: 'status', status: this.status() };
  }

  protected add(entry: ChatEntry): ChatPatch {
    this.entries.push(entry);
    return { type: 'entry', entry: { ...entry } };
  }

  protected upsert(entry: ChatEntry): ChatPatch {
    const index = this.entries.findIndex((e) => e.id === entry.id);
    if (index >= 0) this.entries[index] = entry;
    else this.entries.push(entry);
    return { type: 'entry', entry: { ...entry } };
  }

  protected find(id: string): ChatEntry | undefined {
    return this.entries.find((e) => e.id === id);
  }

  protected id(): string {
    return `e${this.nextId++}`;
  }

  protected toolEntryId(toolUseId: string): string {
    let id = this.toolEntries.get(toolUseId);
    if (!id) {
      id = this.id();
      this.toolEntries.set(toolUseId, id);
    }
    return id;
  }
}
