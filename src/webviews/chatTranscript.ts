/**
 * The conversation as the chat view shows it, kept in the extension so it survives the webview
 * being disposed when the view is hidden. Pure (no `vscode`): it folds agent events into entries
 * and returns the patches the webview needs to stay in step.
 */
import type { AgentErrorKind, AgentEvent } from '../core/agent/events';
import {
  emptyTokenUsage,
  type ChatEntry,
  type ChatSnapshot,
  type ChatStatus,
  type DisabledAction,
  type ErrorAction,
  type ExtensionToWebview,
  type TokenUsage,
} from './protocol';

export type ChatPatch = Exclude<ExtensionToWebview, { type: 'focusInput' }>;

/** What the user can do about each kind of failure. */
export function actionsFor(kind: AgentErrorKind): ErrorAction[] {
  switch (kind) {
    case 'missing_key':
    case 'auth':
      return ['setApiKey'];
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
  private running = false;
  private disabledReason: string | undefined;
  private disabledAction: DisabledAction | undefined;
  private nextId = 1;
  /** Ids of assistant entries streamed in the current model response (voided by a `retry`). */
  private turnTextIds: string[] = [];
  /** The assistant entry text deltas currently append to. */
  private openTextId: string | undefined;
  /** tool_use id → entry id, for the current send (a scripted server may reuse tool ids). */
  private toolEntries = new Map<string, string>();

  snapshot(): ChatSnapshot {
    return { entries: this.entries.map((e) => ({ ...e })), status: this.status() };
  }

  status(): ChatStatus {
    return {
      running: this.running,
      disabledReason: this.disabledReason,
      disabledAction: this.disabledAction,
      totals: { ...this.totals },
      requests: this.requests,
    };
  }

  /** Clears the conversation ("New chat"). */
  clear(): ChatPatch[] {
    this.entries = [];
    this.totals = emptyTokenUsage();
    this.requests = 0;
    this.turnTextIds = [];
    this.openTextId = undefined;
    this.toolEntries.clear();
    return [{ type: 'snapshot', snapshot: this.snapshot() }];
  }

  setDisabledReason(reason: string | undefined, action?: DisabledAction): ChatPatch[] {
    if (reason === this.disabledReason && action === this.disabledAction) return [];
    this.disabledReason = reason;
    this.disabledAction = reason === undefined ? undefined : action;
    return [{ type: 'status', status: this.status() }];
  }

  /** A send starts: the user's row (or a "sent again" line for a retry), and the running state. */
  begin(prompt: string, showPrompt = true): ChatPatch[] {
    this.running = true;
    this.turnTextIds = [];
    this.openTextId = undefined;
    this.toolEntries.clear();
    const row: ChatEntry = showPrompt ? { kind: 'user', id: this.id(), text: prompt } : { kind: 'notice', id: this.id(), text: 'Sending your message again…' };
    return [this.add(row), { type: 'status', status: this.status() }];
  }

  /** An error found before the agent ran (no key, no folder): shown like an agent error. */
  fail(kind: AgentErrorKind, message: string): ChatPatch[] {
    return [this.add({ kind: 'error', id: this.id(), message, actions: actionsFor(kind) })];
  }

  /** A quiet line in the conversation. */
  notice(text: string): ChatPatch[] {
    return [this.add({ kind: 'notice', id: this.id(), text })];
  }

  apply(event: AgentEvent): ChatPatch[] {
    switch (event.type) {
      case 'text':
        return this.appendText(event.text);
      case 'tool_start':
        this.openTextId = undefined;
        return [this.upsert({ kind: 'tool', id: this.toolEntryId(event.id), command: event.command, path: event.path, status: 'running' })];
      case 'tool_end':
        this.openTextId = undefined;
        return [
          this.upsert({
            kind: 'tool',
            id: this.toolEntryId(event.id),
            command: event.command,
            path: event.touched?.newPath ?? event.path,
            status: event.is_error ? 'error' : 'ok',
            summary: event.summary,
          }),
        ];
      case 'usage':
        this.requests += 1;
        this.totals = addUsage(this.totals, event.usage);
        this.openTextId = undefined;
        return [
          this.add({ kind: 'usage', id: this.id(), usage: { ...event.usage } }),
          { type: 'status', status: this.status() },
        ];
      case 'context_edit':
        return [
          this.add({
            kind: 'notice',
            id: this.id(),
            text: `Context editing cleared ${event.cleared_tool_uses} old tool result(s) (${event.cleared_input_tokens} input tokens).`,
          }),
        ];
      case 'retry':
        return [...this.voidTurnText(), this.add({ kind: 'notice', id: this.id(), text: `Connection dropped; retrying (attempt ${event.attempt}).` })];
      case 'turn_end':
        return this.closeTurn();
      case 'error':
        if (event.kind === 'cancelled') return [...this.closeTurn(), this.add({ kind: 'notice', id: this.id(), text: event.message })];
        return [...this.closeTurn(), this.add({ kind: 'error', id: this.id(), message: event.message, actions: actionsFor(event.kind) })];
      case 'done':
        this.running = false;
        return [...this.closeTurn(), { type: 'status', status: this.status() }];
      case 'tool_output':
        // Shown by the workspace-tool cards (not yet rendered here).
        return [];
    }
  }

  /** Ends a send that never reached the agent. */
  end(): ChatPatch[] {
    this.running = false;
    return [...this.closeTurn(), { type: 'status', status: this.status() }];
  }

  private appendText(text: string): ChatPatch[] {
    if (text === '') return [];
    const open = this.openTextId ? this.find(this.openTextId) : undefined;
    if (open && open.kind === 'assistant') {
      open.markdown += text;
      return [{ type: 'text', id: open.id, text }];
    }
    const entry: ChatEntry = { kind: 'assistant', id: this.id(), markdown: text, streaming: true };
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

function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    cache_read_input_tokens: a.cache_read_input_tokens + b.cache_read_input_tokens,
    cache_creation_input_tokens: a.cache_creation_input_tokens + b.cache_creation_input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
  };
}
