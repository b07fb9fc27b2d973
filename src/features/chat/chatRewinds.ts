/**
 * What the user takes back from a conversation: the checkpoint recorded before each message and
 * "Rewind to here", the Undo of an edit from its card, and the note that tells Claude about
 * either with the next message. Moved out of ChatController.
 */
import { undoneEditsNote, type UndoneEdit } from '../../core/workspace/messages';
import { rewindNote, type CheckpointStore, type RewindPlan } from '../../core/checkpoints';
import type { UndoResult } from './chatEdits';
import type { ChangeSummary } from './changeSummary';
import type { ChatPatch, ChatTranscript } from './chatTranscript';
import type { ChatEnvironment, ChatFolder, ChatStore, EditLedger } from './chatPort';

/** What "Rewind to here" would do or did; `ok: false` says why it cannot. */
export type RewindOutcome = { ok: true; plan: RewindPlan; message: string } | { ok: false; reason: string };

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
  readonly changes: Pick<ChangeSummary, 'refresh' | 'rewound' | 'checkpointTaken' | 'takeNote'>;
}

export class ChatRewinds {
  /** Workspace edits the user undid from their cards since the last message: told to Claude with the next one. */
  private undoneEdits: UndoneEdit[] = [];
  /** A rewind since Claude's last turn: told to Claude with the next message. */
  private rewoundNote: string | undefined;
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
    const note = this.rewoundNote;
    this.rewoundNote = undefined;
    return note;
  }

  /** A new conversation's Claude never saw those edits. */
  forgetUndoneEdits(): void {
    this.undoneEdits = [];
  }

  /** Records a checkpoint for the message just shown; a failure is logged, never in the way of the answer. */
  async recordCheckpoint(folder: ChatFolder, text: string): Promise<void> {
    const store = this.env.checkpoints?.(folder);
    if (store === undefined) return;
    try {
      const checkpoint = await (await store).create({ kind: 'chat', prompt: text, session: this.hooks.chatId() });
      const patches = this.hooks.transcript.setCheckpoint(checkpoint.id);
      for (const p of patches) if (p.type === 'entry') this.checkpointFolders.set(p.entry.id, folder);
      this.hooks.emit(patches);
      const entry = patches.find((p) => p.type === 'entry');
      if (entry?.type === 'entry') await this.hooks.changes.checkpointTaken(folder.uri.toString(), checkpoint.id, entry.entry.id, text);
    } catch (error) {
      this.env.log.warn(`no checkpoint for this message: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The checkpoint store and id behind user message `entryId`'s "Rewind to here". */
  private async checkpointOf(entryId: string): Promise<{ ok: true; store: CheckpointStore; id: number; text: string } | { ok: false; reason: string }> {
    const entry = this.hooks.transcript.snapshot().entries.find((e) => e.id === entryId);
    if (entry?.kind !== 'user' || entry.checkpoint === undefined) return { ok: false, reason: 'This message has no checkpoint to rewind to.' };
    if (entry.rewound) return { ok: false, reason: 'This message was rewound already.' };
    if (this.hooks.answering()) return { ok: false, reason: 'Stop the running answer first: Claude may still be changing files.' };
    // An answer that just ended may still be being saved: the rewind comes after it.
    await this.hooks.idle();
    const folder = this.checkpointFolders.get(entryId) ?? this.hooks.currentStore()?.folder;
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
    this.hooks.emit(this.hooks.transcript.markRewound(entryId, rewoundLine(result)));
    void this.hooks.changes.rewound(found.id);
    this.rewoundNote = rewindNote(found.text, result);
    // Edits undone from cards before the rewind are part of what the rewind note says.
    this.undoneEdits = [];
    this.hooks.emit([{ type: 'draft', text: found.text, reason: 'Rewound: your message is back here to edit and send again.' }]);
    this.env.log.info(`rewound to checkpoint ${found.id}: ${result.files.length} file(s), ${result.memory.length} memory file(s); backup checkpoint ${result.backup.id}`);
    await this.hooks.saveNow();
    return { ok: true, plan: result, message: found.text };
  }
}

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
