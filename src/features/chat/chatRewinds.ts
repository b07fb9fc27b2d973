/**
 * What the user takes back from a conversation: the checkpoint recorded before each message and
 * "Rewind to here", the Undo of an edit from its card, and the note that tells Claude about
 * either with the next message. Moved out of ChatController.
 */
import { undoneEditsNote, type UndoneEdit } from '../../core/workspace/messages';
import { branchLine, rewindNote, type CheckpointStore, type RewindPlan, type RewindResult } from '../../core/checkpoints';
import type { UndoResult } from './chatEdits';
import type { ChangeSummary } from './changeSummary';
import type { ChatPatch, ChatTranscript } from './chatTranscript';
import type { ChatEnvironment, ChatFolder, ChatStore, EditLedger } from './chatPort';
import type { ChatEntry, RewindUndo } from './shared/protocol';

/**
 * What "Rewind to here" would do or did; `ok: false` says why it cannot. `message`: what the
 * message is called (a built-in prompt's chip); `result`: what a rewind of the files did.
 */
export type RewindOutcome =
  | { ok: true; plan: RewindPlan; message: string; result?: RewindResult; notCovered?: { paths: string[]; total: number } }
  | { ok: false; reason: string };

/** What a rewind takes back: the files and memory (optionally with the branch), the conversation, or both. */
export interface RewindChoice {
  files: boolean;
  conversation: boolean;
  /** Move the branch too; `from`: the commit HEAD was on in the preview (the branch must still be there). */
  moveBranch?: { from: string };
}

export interface ChatRewindsHooks {
  readonly transcript: ChatTranscript;
  readonly edits: EditLedger;
  emit(patches: ChatPatch[]): void;
  /** True while an answer streams (its AbortController is set). */
  answering(): boolean;
  /** Resolves once no send is running or queued (an answer that just ended may still be saving). */
  idle(): Promise<void>;
  currentStore(): ChatStore | undefined;
  /** The id of the conversation on screen (a checkpoint names it). */
  chatId(): string | undefined;
  saveNow(): Promise<void>;
  /** The change summary: what an undo, a checkpoint or a rewind changes in it, and its own note of rows undone there. */
  readonly changes: Pick<ChangeSummary, 'refresh' | 'rewound' | 'checkpointTaken' | 'takeNote' | 'saved' | 'restore'>;
}

export class ChatRewinds {
  /** Workspace edits the user undid from their cards since the last message: told to Claude with the next one. */
  private undoneEdits: UndoneEdit[] = [];
  /**
   * A rewind since Claude's last turn, told to Claude with the next message: the message it went
   * back to, and what its Undo puts back as it was (the edits undone on cards, the change summary).
   */
  private rewoundNote: { entryId: string; note: string; undoneEdits: UndoneEdit[]; summary: ReturnType<ChangeSummary['saved']> } | undefined;
  /** The folder each user message's checkpoint is of (a rewind after a folder switch uses its own). */
  private readonly checkpointFolders = new Map<string, ChatFolder>();

  constructor(
    private readonly env: Pick<ChatEnvironment, 'checkpoints' | 'log'>,
    private readonly hooks: ChatRewindsHooks,
  ) {}

  /** Restores the file of the edit on card `entryId` while it still holds Claude's version. */
  async undoEdit(entryId: string): Promise<UndoResult> {
    const edit = this.hooks.edits.get(entryId);
    const result = await this.hooks.edits.undo(entryId);
    if (result.ok) {
      this.hooks.emit(this.hooks.transcript.markUndone(entryId));
      void this.hooks.changes.refresh();
      // Claude is told with the next message; a later undo of the same file says the latest state.
      if (edit) {
        this.undoneEdits = this.undoneEdits.filter((u) => u.path !== edit.path);
        this.undoneEdits.push({ path: edit.path, created: edit.before === undefined });
      }
      this.env.log.info('undid an edit from its chat card; Claude is told with the next message');
    }
    return result;
  }

  /**
   * What Claude is told with the next message (undefined: nothing), then forgotten: the rewind, the
   * edits undone on their cards and the rows undone in the change summary since its last turn.
   */
  takeNote(): string | undefined {
    const notes = [this.takeRewoundNote(), this.takeUndoneEditsNote(), this.hooks.changes.takeNote()].filter((n): n is string => n !== undefined);
    return notes.length === 0 ? undefined : notes.join('\n\n');
  }

  /** The edits undone since Claude's last turn, for the next message's note (empty after). */
  private takeUndoneEditsNote(): string | undefined {
    const note = undoneEditsNote(this.undoneEdits);
    this.undoneEdits = [];
    return note;
  }

  private takeRewoundNote(): string | undefined {
    const note = this.rewoundNote?.note;
    this.rewoundNote = undefined;
    // The message that carries the note goes on from the rewound state: its Undo is no longer offered.
    this.hooks.emit(this.hooks.transcript.dropRewindUndo());
    return note;
  }

  /** A new conversation's Claude never saw those edits. */
  forgetUndoneEdits(): void {
    this.undoneEdits = [];
  }

  /**
   * Records a checkpoint for the message just shown; a failure is logged, never in the way of the
   * answer. `label`: a built-in prompt's chip text: what the checkpoint and the change summary
   * name it by (never the routine's hidden text).
   */
  async recordCheckpoint(folder: ChatFolder, text: string, label?: string): Promise<void> {
    const store = this.env.checkpoints?.(folder);
    if (store === undefined) return;
    const name = label ?? text;
    try {
      const checkpoint = await (await store).create({ kind: 'chat', prompt: name, session: this.hooks.chatId() });
      const patches = this.hooks.transcript.setCheckpoint(checkpoint.id);
      for (const p of patches) if (p.type === 'entry') this.checkpointFolders.set(p.entry.id, folder);
      this.hooks.emit(patches);
      const entry = patches.find((p) => p.type === 'entry');
      if (entry?.type === 'entry') await this.hooks.changes.checkpointTaken(folder.uri.toString(), checkpoint.id, entry.entry.id, name);
    } catch (error) {
      this.env.log.warn(`no checkpoint for this message: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The user message `entryId`, when it is one. */
  private userEntry(entryId: string): Extract<ChatEntry, { kind: 'user' }> | undefined {
    const entry = this.hooks.transcript.snapshot().entries.find((e) => e.id === entryId);
    return entry?.kind === 'user' ? entry : undefined;
  }

  /** The checkpoint store of the folder message `entryId`'s checkpoint is of. */
  private async storeOf(entryId: string): Promise<{ ok: true; store: CheckpointStore } | { ok: false; reason: string }> {
    const folder = this.checkpointFolders.get(entryId) ?? this.hooks.currentStore()?.folder;
    const store = folder === undefined ? undefined : this.env.checkpoints?.(folder);
    if (store === undefined) return { ok: false, reason: 'Checkpoints are only kept for folders on this computer\'s disk.' };
    try {
      return { ok: true, store: await store };
    } catch (error) {
      return { ok: false, reason: `The checkpoints cannot be read: ${errorText(error)}` };
    }
  }

  /** The checkpoint store and id behind user message `entryId`'s "Rewind to here". */
  private async checkpointOf(entryId: string): Promise<{ ok: true; store: CheckpointStore; id: number; text: string; label?: string } | { ok: false; reason: string }> {
    const entry = this.userEntry(entryId);
    if (entry?.checkpoint === undefined) return { ok: false, reason: 'This message has no checkpoint to rewind to.' };
    if (entry.rewound || entry.rewoundHere !== undefined) return { ok: false, reason: 'This message was rewound already.' };
    if (this.hooks.answering()) return { ok: false, reason: 'Stop the running answer first: Claude may still be changing files.' };
    // An answer that just ended may still be being saved: the rewind comes after it.
    await this.hooks.idle();
    const store = await this.storeOf(entryId);
    if (!store.ok) return store;
    return { ok: true, store: store.store, id: entry.checkpoint, text: entry.text, ...(entry.label !== undefined ? { label: entry.label } : {}) };
  }

  /**
   * What "Rewind to here" on user message `entryId` would change (nothing changes yet): files,
   * memory and the commits made since. `message` is what the preview names it by: a built-in
   * prompt's chip, never the routine's hidden text.
   */
  async previewRewind(entryId: string): Promise<RewindOutcome> {
    const found = await this.checkpointOf(entryId);
    if (!found.ok) return found;
    try {
      const plan = await found.store.preview(found.id);
      // Ignored files written since: the rewind cannot bring them back, and the preview says so.
      const notCovered = await Promise.resolve()
        .then(() => found.store.ignoredChangedSince(found.id))
        .catch(() => ({ paths: [], total: 0 }));
      return { ok: true, plan, message: found.label ?? found.text, ...(notCovered.total > 0 ? { notCovered } : {}) };
    } catch (error) {
      return { ok: false, reason: errorText(error) };
    }
  }

  /**
   * Rewinds to the checkpoint before user message `entryId`: the files and memory (`files`;
   * with the branch when `moveBranch` names the commit HEAD was on in the preview), the
   * conversation (`conversation`: the message and everything after it stay, folded and marked
   * rewound; the message's text goes back to the composer, but never a built-in routine, and
   * never merged into a draft without asking), or both. Claude is told with the next message;
   * until then the message offers Undo Rewind.
   */
  async rewind(entryId: string, choice: RewindChoice = { files: true, conversation: true }): Promise<RewindOutcome> {
    if (!choice.files && !choice.conversation) return { ok: false, reason: 'Nothing to rewind.' };
    const found = await this.checkpointOf(entryId);
    if (!found.ok) return found;
    let result: RewindResult | undefined;
    if (choice.files) {
      try {
        result = await found.store.rewind(found.id, choice.moveBranch ? { moveBranch: choice.moveBranch } : {});
      } catch (error) {
        return { ok: false, reason: errorText(error) };
      }
    }
    const plan: RewindPlan = result ?? { checkpointId: found.id, files: [], notRestored: [], leftIgnored: [], memory: [] };
    const before = { undoneEdits: [...this.undoneEdits], summary: this.hooks.changes.saved() };
    const undo: RewindUndo = { ...(result ? { backup: result.backup.id } : {}), ...(result?.branchMoved ? { branch: true as const } : {}), ...(choice.conversation ? { conversation: true as const } : {}) };
    this.hooks.emit(this.hooks.transcript.markRewound(entryId, rewoundLine(result, choice.conversation), { fold: choice.conversation, undo }));
    if (result) void this.hooks.changes.rewound(found.id);
    this.rewoundNote = { entryId, note: rewindNote(found.text, plan, { files: choice.files, conversation: choice.conversation, branchMoved: result?.branchMoved === true }), ...before };
    // Edits undone from cards before the rewind are part of what the rewind note says.
    if (choice.files) this.undoneEdits = [];
    if (choice.conversation) this.hooks.emit([draftAfterRewind(found.text, found.label)]);
    this.env.log.info(
      `rewound to checkpoint ${found.id} (${choice.files ? 'files' : ''}${choice.files && choice.conversation ? ' and ' : ''}${choice.conversation ? 'conversation' : ''}): ` +
        `${plan.files.length} file(s), ${plan.memory.length} memory file(s)${result ? `; backup checkpoint ${result.backup.id}` : ''}${result?.branchMoved ? `; ${result.git?.branch ?? 'HEAD'} moved to ${result.git?.to.slice(0, 12)}` : ''}${result?.branchError ? `; branch not moved: ${result.branchError}` : ''}`,
    );
    await this.hooks.saveNow();
    return { ok: true, plan, message: found.label ?? found.text, ...(result ? { result } : {}) };
  }

  /** What Undo Rewind on message `entryId` would bring back (nothing changes yet); undefined plan: only the conversation. */
  async previewUndoRewind(entryId: string): Promise<{ ok: true; plan?: RewindPlan; undo: RewindUndo; message: string } | { ok: false; reason: string }> {
    const entry = this.userEntry(entryId);
    const undo = entry?.rewindUndo;
    if (entry === undefined || undo === undefined) return { ok: false, reason: 'This rewind cannot be undone any more (a message was sent after it).' };
    if (this.hooks.answering()) return { ok: false, reason: 'Stop the running answer first: Claude may still be changing files.' };
    const message = entry.label ?? entry.text;
    if (undo.backup === undefined) return { ok: true, undo, message };
    const store = await this.storeOf(entryId);
    if (!store.ok) return store;
    try {
      return { ok: true, plan: await store.store.preview(undo.backup), undo, message };
    } catch (error) {
      return { ok: false, reason: errorText(error) };
    }
  }

  /**
   * Undo Rewind on message `entryId`: the files and memory go back to how they were just before
   * the rewind (its backup checkpoint, itself a rewind that can be rewound), the branch forward
   * again when the rewind moved it, and the folded rows show again. Claude was not told of the
   * rewind yet (Undo goes once a message is sent), so it is told nothing.
   */
  async undoRewind(entryId: string): Promise<RewindOutcome> {
    const entry = this.userEntry(entryId);
    const undo = entry?.rewindUndo;
    if (entry === undefined || undo === undefined) return { ok: false, reason: 'This rewind cannot be undone any more (a message was sent after it).' };
    if (this.hooks.answering()) return { ok: false, reason: 'Stop the running answer first: Claude may still be changing files.' };
    await this.hooks.idle();
    let result: RewindResult | undefined;
    if (undo.backup !== undefined) {
      const store = await this.storeOf(entryId);
      if (!store.ok) return store;
      try {
        result = await store.store.rewind(undo.backup, undo.branch ? { moveBranch: true } : {});
      } catch (error) {
        return { ok: false, reason: errorText(error) };
      }
    }
    this.hooks.emit(this.hooks.transcript.unmarkRewound(entryId));
    const undone = this.rewoundNote?.entryId === entryId ? this.rewoundNote : undefined;
    this.rewoundNote = undefined;
    // What the rewind had set aside comes back with the files: the edits undone on cards (still to
    // be told) and the change summary as it was (read again from the folder).
    if (undone !== undefined) {
      this.undoneEdits = undone.undoneEdits;
      void this.hooks.changes.restore(undone.summary);
    } else if (result !== undefined) void this.hooks.changes.refresh();
    // The message the rewind put back in the composer goes again, if it is still there untouched.
    if (undo.conversation && entry.label === undefined) this.hooks.emit([{ type: 'draft', text: '', reason: 'Rewind undone: the conversation is back as it was.', withdraw: entry.text }]);
    this.env.log.info(`undid the rewind to before message ${entryId}${result ? `: ${result.files.length} file(s), ${result.memory.length} memory file(s) back${result.branchMoved ? ', the branch moved forward again' : ''}` : ' (the conversation only)'}`);
    await this.hooks.saveNow();
    const plan: RewindPlan = result ?? { checkpointId: 0, files: [], notRestored: [], leftIgnored: [], memory: [] };
    return { ok: true, plan, message: entry.label ?? entry.text, ...(result ? { result } : {}) };
  }
}

/** What goes back into the composer after the conversation was rewound to a message. */
function draftAfterRewind(text: string, label: string | undefined): Extract<ChatPatch, { type: 'draft' }> {
  // A built-in prompt's text is the routine, hidden behind its chip: it is never put back.
  if (label !== undefined) return { type: 'draft', text: '', reason: `Rewound to before "${label}". Its routine is not put back here: run it again when you want to.` };
  return { type: 'draft', text, reason: 'Rewound: your message is back here to edit and send again.', ask: true };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The line a rewound message shows: what the rewind changed, and what it could not. */
function rewoundLine(plan: RewindResult | undefined, conversation: boolean): string {
  if (plan === undefined) return 'Conversation rewound to before this message; files and memory stay as they are.';
  const changed: string[] = [];
  if (plan.files.length > 0) changed.push(`${plan.files.length} ${plan.files.length === 1 ? 'file' : 'files'}`);
  const memory = plan.memory.filter((m) => m.action !== 'unavailable').length;
  if (memory > 0) changed.push(`${memory} memory ${memory === 1 ? 'file' : 'files'}`);
  const what = changed.length === 0 ? 'no file or memory changes to take back' : `${changed.join(' and ')} changed back`;
  const parts = [`${conversation ? 'Rewound' : 'Files rewound'} to before this message: ${what}.`];
  if (plan.git !== undefined && plan.git.total > 0) parts.push(`${branchLine(plan.git, plan.branchMoved === true, 'did')}.`);
  if (plan.branchError !== undefined) parts.push(`The branch was not moved: ${plan.branchError}`);
  if (plan.notRestored.length > 0) parts.push(`Not restored (over the size limit): ${plan.notRestored.map((f) => f.path).join(', ')}.`);
  const lost = plan.memory.filter((m) => m.action === 'unavailable');
  if (lost.length > 0) parts.push(`Not restored (no longer in memory history): ${lost.map((m) => m.rel).join(', ')}.`);
  return parts.join(' ');
}
