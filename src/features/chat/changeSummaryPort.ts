/**
 * What the change summary (changeSummary.ts) works through: a folder's checkpoints and memory,
 * the modal question and the log (changeSummaryUi.ts brings them from VS Code; unit tests bring
 * their own), and what it answers.
 */
import type { FileDelta, MemoryStep, RewindResult } from '../../core/checkpoints';
import type { HistoryEntry } from '../../core/memory/history/types';
import type { ChangeSummaryView, ObservedChange, SummaryRowKind } from './shared/changeSummary';

/** What the summary needs of a folder's checkpoint store (CheckpointStore has it). */
export interface SummaryCheckpoints {
  get(id: number): Promise<{ id: number; memoryVersion?: number }>;
  filesSince(id: number): Promise<FileDelta[]>;
  pathsChangedBetween(from: number, to: number | undefined): Promise<Set<string>>;
  memorySince(id: number): Promise<MemoryStep[]>;
  rewindFiles(id: number, paths: readonly string[]): Promise<RewindResult>;
  rewindMemory(id: number, rels: readonly string[]): Promise<MemoryStep[]>;
  /** Ignored files changed since checkpoint `id` (CheckpointStore.ignoredChangedSince). */
  ignoredChangedSince?(id: number): Promise<{ paths: string[]; total: number }>;
}

/** What the summary reads of a folder's memory store. */
export interface SummaryMemory {
  history(): Promise<readonly HistoryEntry[]>;
  /** A version's text; undefined when history no longer has it. */
  versionText(version: number): Promise<string | undefined>;
  /** The file's text now; undefined when it does not exist. */
  currentText(rel: string): Promise<string | undefined>;
}

export interface ChangeSummaryPort {
  /** The checkpoint store of the folder (a Uri string); undefined where there is none. */
  checkpoints(folder: string): Promise<SummaryCheckpoints> | undefined;
  memory(folder: string): SummaryMemory | undefined;
  /** A modal yes/no; true only for `confirmLabel`. */
  confirm(message: string, detail: string, confirmLabel: string): Thenable<boolean>;
  /**
   * Marks memory versions of the folder's store reviewed in Memory Changes (Keep or Undo of a
   * memory file here is its review there: one review state per file).
   */
  markReviewed?(folder: string, versions: readonly number[]): Promise<void>;
  log: { info(message: string): void; warn(message: string): void };
}

export interface ChangeSummaryHooks {
  /** The view changed (undefined: nothing to show). */
  onView(view: ChangeSummaryView | undefined): void;
  /**
   * The state changed in a way the chat must save (a decision, a new base). `now`: saved at
   * once, resolving when it is (a Keep or Undo shows on the page only after that, so a reload
   * never forgets one shown); else with the chat's next regular save.
   */
  onState(now: boolean): Promise<void>;
  /** The checkpoints of the chat's user messages, oldest first (to find later steps). */
  messageCheckpoints(): number[];
  /**
   * Files the summary undid (folder-relative paths), since user message `from` (the base's): their
   * edit cards show as undone, as after their own Undo.
   */
  filesUndone?(paths: string[], from: string): void;
  /** Memory files the summary undid (store-relative), since user message `from`: their memory cards show as undone. */
  memoryUndone?(rels: string[], from: string): void;
}

/** `cancelled`: the user said no (nothing to report). */
export type SummaryOutcome = { ok: true; message: string } | { ok: false; reason: string; cancelled?: true };

/** Where a row's "before" side is: the base checkpoint's bytes, or the memory version then. */
export interface SummaryDiffSides {
  folder: string;
  kind: SummaryRowKind;
  path: string;
  checkpoint: number;
  /** For a memory row: the version at the base (undefined: the file did not exist). */
  version?: number;
  change: ObservedChange['change'];
}
