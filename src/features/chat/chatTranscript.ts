/**
 * The conversation as the chat view shows it, kept in the extension so it survives the webview
 * being disposed when the view is hidden. Pure (no `vscode`): it folds agent events into entries
 * and returns the patches the webview needs to stay in step. Its parts: transcriptRows.ts (the
 * rows and the status line), transcriptAnswer.ts (a running answer's events), transcriptCards.ts
 * (what a tool card shows), transcriptWords.ts (fixed lines), savedConversation.ts (Chat History's form).
 */
import type { AgentErrorKind } from '../../core/agent/events';
import { estimateCost } from '../../core/agent/pricing';
import { emptyTokenUsage, type ChatEntry, type FollowUps, type NoticeAction, type RewindUndo } from './shared/protocol';
import { interruptedEntry, type SavedConversation } from './savedConversation';
import { TranscriptAnswer } from './transcriptAnswer';
import type { ChatPatch } from './transcriptRows';
import { actionsFor, INTERRUPTED_TEXT, WAITING_TEXT } from './transcriptWords';

export { UNFOLDED_OUTPUTS, type ChatPatch } from './transcriptRows';
export { actionsFor, INTERRUPTED_CARD, INTERRUPTED_TEXT, retryText, STOPPED_TEXT, WAITING_TEXT } from './transcriptWords';
export { parseSavedConversation, savedConversationRows, type SavedConversation } from './savedConversation';
export { firstChangedLine, lineCounts } from './transcriptCards';

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
  /** A Retry of the failed message (retried() tidies up once it is answered). */
  retry?: true;
}

export class ChatTranscript extends TranscriptAnswer {
  /** The running Retry: its "Sending your message again…" line and the error it answers. */
  private retrying: { resendId?: string; errorId?: string } | undefined;

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
    const error = view.retry ? [...this.entries].reverse().find((e) => e.kind === 'error' && e.actions.length > 0) : undefined;
    this.retrying = view.retry ? { ...(row.kind === 'notice' ? { resendId: row.id } : {}), ...(error ? { errorId: error.id } : {}) } : undefined;
    return [this.add(row), this.statusPatch()];
  }

  /**
   * A Retry was answered: its "Sending your message again…" line goes, and the error it answered
   * keeps its message but no longer offers Retry or Set API Key (both done with).
   */
  retried(): ChatPatch[] {
    const retrying = this.retrying;
    this.retrying = undefined;
    const patches: ChatPatch[] = [];
    const error = retrying?.errorId === undefined ? undefined : this.find(retrying.errorId);
    if (error?.kind === 'error') patches.push(this.upsert({ ...error, actions: [] }));
    const index = retrying?.resendId === undefined ? -1 : this.entries.findIndex((e) => e.id === retrying.resendId);
    if (index >= 0) {
      this.entries.splice(index, 1);
      patches.push({ type: 'remove', id: retrying!.resendId! });
    }
    return patches;
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

  /**
   * The rewind to before user message `id`: it says what changed (`summary`) and how to undo it;
   * when the conversation was rewound (`fold`), it and every row after it are marked rewound (and
   * folded). Rows a later rewind folded already keep their own marks.
   */
  markRewound(id: string, summary: string, options: { fold: boolean; undo?: RewindUndo } = { fold: true }): ChatPatch[] {
    const index = this.entries.findIndex((e) => e.id === id);
    const row = this.entries[index];
    if (row?.kind !== 'user') return [];
    const head: ChatEntry = { ...row, rewoundHere: summary, ...(options.fold ? { rewound: true as const } : {}), ...(options.undo ? { rewindUndo: { ...options.undo } } : {}) };
    const patches = [this.upsert(head)];
    if (options.fold) for (const e of this.entries.slice(index + 1)) if (!e.rewound) patches.push(this.upsert({ ...e, rewound: true as const }));
    return patches;
  }

  /**
   * The Undo of the rewind to before user message `id`: its marks go, and the rows it folded
   * (up to the next message another rewind went back to) show again.
   */
  unmarkRewound(id: string): ChatPatch[] {
    const index = this.entries.findIndex((e) => e.id === id);
    const row = this.entries[index];
    if (row?.kind !== 'user' || row.rewoundHere === undefined) return [];
    const folded = row.rewound === true;
    const { rewound: _rewound, rewoundHere: _here, rewindUndo: _undo, ...head } = row;
    const patches = [this.upsert(head)];
    if (!folded) return patches;
    for (const e of this.entries.slice(index + 1)) {
      if (e.kind === 'user' && e.rewoundHere !== undefined) break;
      if (!e.rewound) continue;
      const { rewound: _r, ...rest } = e;
      patches.push(this.upsert(rest as ChatEntry));
    }
    return patches;
  }

  /** A message was sent after a rewind: its Undo is no longer offered (Claude goes on from the rewound state). */
  dropRewindUndo(): ChatPatch[] {
    return this.entries.flatMap((e) => {
      if (e.kind !== 'user' || e.rewindUndo === undefined) return [];
      const { rewindUndo: _undo, ...rest } = e;
      return [this.upsert(rest)];
    });
  }

  /** Marks an edit card's file as restored by Undo. */
  markUndone(id: string): ChatPatch[] {
    const entry = this.find(id);
    if (entry?.kind !== 'tool' || !entry.edit) return [];
    return [this.upsert({ ...entry, edit: { ...entry.edit, undone: true } })];
  }

  /**
   * Marks the edit cards of the files the change summary undid: every card since user message
   * `from` (the summary's base) whose file is one of `paths`, as its own Undo would.
   */
  markFilesUndone(paths: readonly string[], from: string): ChatPatch[] {
    const start = this.entries.findIndex((e) => e.id === from);
    if (start < 0 || paths.length === 0) return [];
    const undone = new Set(paths);
    return this.entries
      .slice(start)
      .filter((e) => e.kind === 'tool' && e.edit !== undefined && !e.edit.undone && undone.has(e.edit.path))
      .flatMap((e) => this.markUndone(e.id));
  }

  /**
   * Marks the memory write cards of the memory files the change summary undid: every write card
   * since user message `from` whose `/memories` path is one of `rels` (store-relative).
   */
  markMemoryUndone(rels: readonly string[], from: string): ChatPatch[] {
    const start = this.entries.findIndex((e) => e.id === from);
    if (start < 0 || rels.length === 0) return [];
    const undone = new Set(rels.map((r) => `/memories/${r}`));
    return this.entries
      .slice(start)
      .filter((e) => e.kind === 'tool' && e.tool === undefined && e.version !== undefined && e.undone === undefined && e.path !== undefined && undone.has(e.path))
      .map((e) => this.upsert({ ...e, undone: true } as ChatEntry));
  }

  /**
   * Buttons that lead on from the last message (Initialize's draft). `onAnswer`: on the last text
   * of the last answer when there is one; else (or when it has none) on a line of their own that
   * says `note`.
   */
  followUps(followUps: FollowUps, note: string, onAnswer: boolean): ChatPatch[] {
    const copy = { folder: followUps.folder, actions: [...followUps.actions] };
    if (onAnswer) {
      for (let i = this.entries.length - 1; i >= 0; i--) {
        const e = this.entries[i];
        if (e.kind === 'user') break;
        if (e.kind === 'assistant') return [this.upsert({ ...e, followUps: copy })];
      }
    }
    return [this.add({ kind: 'notice', id: this.id(), text: note, followUps: copy })];
  }

  /** An error found before the agent ran (no key, no folder): shown like an agent error. */
  fail(kind: AgentErrorKind, message: string): ChatPatch[] {
    return [this.add({ kind: 'error', id: this.id(), message, actions: actionsFor(kind) })];
  }

  /** A quiet line in the conversation, with an optional button. */
  notice(text: string, action?: NoticeAction): ChatPatch[] {
    return [this.add({ kind: 'notice', id: this.id(), text, ...(action ? { action } : {}) })];
  }

  /** Ends a send that never reached the agent. */
  end(): ChatPatch[] {
    return this.finish();
  }
}
