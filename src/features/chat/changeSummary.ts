/**
 * The chat's change summary ("3 files changed · 2 memory files · 1 feature" above the composer),
 * the extension's side: it keeps the summary's state for the chat on screen (saved with the chat;
 * the webview only draws), reads what changed since the base checkpoint through the checkpoint
 * store (files: git in the snapshot repository, so what commands did is in it; memory: history),
 * and carries out Keep and Undo. Undo goes through the checkpoint: a file gets its bytes at the
 * base back (or goes, or comes back), a memory file its version then (recorded as the user's, so
 * the Features view follows a reverted checklist). No `vscode` here: the port (changeSummaryUi.ts)
 * brings the stores, the modal question and the log, so unit tests drive it with their own.
 * The model (scope, Keep, the view) is pure: shared/changeSummary.ts.
 */
import { AUTHORS, type HistoryEntry } from '../../core/memory/history/types';
import { changeRows } from './shared/changeRows';
import type { ChangeSummaryHooks, ChangeSummaryPort, SummaryCheckpoints, SummaryDiffSides, SummaryOutcome } from './changeSummaryPort';
import type { TitledFlip } from './chatTitles';
import {
  afterCheckpoint,
  decide,
  EMPTY_SUMMARY_STATE,
  FEATURES_FILE,
  featureDescriptions,
  featureFlips,
  openRows,
  stepsChanging,
  summaryView,
  undoneChangesNote,
  type ChangeSummaryView,
  type FeatureFlip,
  type ObservedChange,
  type SummaryRowKind,
  type SummaryState,
} from './shared/changeSummary';

export type { ChangeSummaryHooks, ChangeSummaryPort, SummaryCheckpoints, SummaryDiffSides, SummaryMemory, SummaryOutcome } from './changeSummaryPort';

export class ChangeSummary {
  private state: SummaryState = EMPTY_SUMMARY_STATE;
  private observed: ObservedChange[] = [];
  /** Ignored files changed since the base: said under the summary (checkpoints do not cover them). */
  private notCovered: { paths: string[]; total: number } = { paths: [], total: 0 };
  private flips: FeatureFlip[] = [];
  private memoryThen = new Map<string, number | undefined>();
  /** Each memory row's versions since the base by anyone but the user (what its Keep or Undo reviews in Memory Changes). */
  private memoryVersions = new Map<string, number[]>();
  private running = false;
  private busy = false;
  private current: ChangeSummaryView | undefined;
  /** Bumped by every reset: a refresh begun before it is dropped. */
  private generation = 0;
  private refreshing: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly port: ChangeSummaryPort,
    private readonly hooks: ChangeSummaryHooks,
  ) {}

  /** What the webview shows now. */
  get view(): ChangeSummaryView | undefined {
    return this.current;
  }

  /** What is saved with the chat. */
  saved(): SummaryState {
    const { base, decisions, untold } = this.state;
    return { ...(base ? { base: { ...base } } : {}), decisions: decisions.map((d) => ({ ...d })), ...(untold && untold.length > 0 ? { untold: untold.map((u) => ({ ...u })) } : {}) };
  }

  /** A saved chat came back: its summary is read again from the folder. */
  restore(state: SummaryState | undefined): Promise<void> {
    this.reset();
    this.state = state ?? EMPTY_SUMMARY_STATE;
    return this.refresh();
  }

  /** Another conversation: nothing to show. */
  reset(): void {
    this.generation++;
    this.state = EMPTY_SUMMARY_STATE;
    this.observed = [];
    this.notCovered = { paths: [], total: 0 };
    this.flips = [];
    this.memoryThen.clear();
    this.memoryVersions.clear();
    this.running = false;
    this.publish();
  }

  setRunning(running: boolean): void {
    if (this.running === running) return;
    this.running = running;
    this.publish();
  }

  /**
   * The checkpoint before user message `entryId` was taken: the base moves to it when nothing is
   * left to review, else the changes add up from the old base.
   */
  async checkpointTaken(folder: string, checkpoint: number, entryId: string, message: string): Promise<void> {
    if (this.state.base !== undefined && this.state.base.folder === folder) await this.refresh();
    const open = openRows(this.observed, this.state.decisions).length;
    const before = this.state.base?.checkpoint;
    this.state = afterCheckpoint(this.state, { checkpoint, folder, entryId, message }, open);
    if (this.state.base?.checkpoint !== before) {
      this.observed = [];
      this.notCovered = { paths: [], total: 0 };
      this.flips = [];
      this.publish();
      await this.hooks.onState(false);
    }
  }

  /** Files and memory were rewound to checkpoint `checkpoint`: a rewind to the base or before it ends the summary. */
  rewound(checkpoint: number): Promise<void> {
    if (this.state.base !== undefined && checkpoint <= this.state.base.checkpoint) {
      this.state = EMPTY_SUMMARY_STATE;
      void this.hooks.onState(false);
    }
    return this.refresh();
  }

  /** Reads the changes again (one read at a time; calls meanwhile make one more read after it). */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    const run = async (): Promise<void> => {
      do {
        this.again = false;
        await this.read();
      } while (this.again);
    };
    this.refreshing = run().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /** Keep: the row leaves the summary while its content stays as it is now. */
  async keep(kind: SummaryRowKind, path: string): Promise<SummaryOutcome> {
    const row = this.openRow(kind, path);
    if (!row) return { ok: false, reason: `${displayPath(kind, path)} is not in the change summary (any more).` };
    this.state = decide(this.state, [row], 'kept');
    await this.hooks.onState(true);
    await this.reviewed([row]);
    this.publish();
    return { ok: true, message: `Kept ${displayPath(kind, path)}` };
  }

  async keepAll(): Promise<SummaryOutcome> {
    const rows = openRows(this.observed, this.state.decisions);
    if (rows.length === 0) return { ok: false, reason: 'There are no changes to keep.' };
    this.state = decide(this.state, rows, 'kept');
    await this.hooks.onState(true);
    await this.reviewed(rows);
    this.publish();
    return { ok: true, message: `Kept ${rows.length} ${rows.length === 1 ? 'change' : 'changes'}` };
  }

  /**
   * Undo of one row: back to how it was at the base checkpoint. When later answers changed it
   * too (it changed in more than one step since the base), the user is asked first.
   */
  async undo(kind: SummaryRowKind, path: string): Promise<SummaryOutcome> {
    const refused = this.refusal();
    if (refused) return { ok: false, reason: refused };
    await this.refresh();
    const row = this.openRow(kind, path);
    const base = this.state.base;
    if (!row || !base) return { ok: false, reason: `${displayPath(kind, path)} is not in the change summary (any more).` };
    if (row.cannotUndo !== undefined) return { ok: false, reason: row.cannotUndo };
    const store = await this.storeOf(base.folder);
    if (!store.ok) return store;
    let steps: number;
    try {
      steps = await this.countSteps(store.store, row);
    } catch (error) {
      return { ok: false, reason: errorText(error) };
    }
    if (steps > 1) {
      let confirmed = false;
      try {
        confirmed = await this.port.confirm(
          `Undo ${displayPath(kind, path)}? Later answers changed it too.`,
          `It changed in ${steps} answers since "${base.message.slice(0, 60)}". Undo brings it back to how it was before that message, so the later changes to it go as well, and what depends on them may break. Claude is told with your next message.`,
          'Undo',
        );
      } catch {
        confirmed = false;
      }
      this.port.log.info(`change summary: undo of ${displayPath(kind, path)} with later steps ${confirmed ? 'confirmed' : 'not confirmed'}`);
      if (!confirmed) return { ok: false, reason: 'Not undone.', cancelled: true };
    }
    return this.undoRows(store.store, base.checkpoint, [row]);
  }

  /** Undo All: every open row back to the base (files and memory), without asking: it is what the user chose. */
  async undoAll(): Promise<SummaryOutcome> {
    const refused = this.refusal();
    if (refused) return { ok: false, reason: refused };
    await this.refresh();
    const base = this.state.base;
    const rows = openRows(this.observed, this.state.decisions).filter((r) => r.cannotUndo === undefined);
    if (!base || rows.length === 0) return { ok: false, reason: 'There are no changes to undo.' };
    const store = await this.storeOf(base.folder);
    if (!store.ok) return store;
    return this.undoRows(store.store, base.checkpoint, rows);
  }

  /** The note for Claude's next request about rows undone here (undefined: none); cleared. */
  takeNote(): string | undefined {
    const note = undoneChangesNote(this.state.untold ?? []);
    if (note !== undefined) {
      this.state = { ...this.state, untold: [] };
      void this.hooks.onState(false);
    }
    return note;
  }

  /**
   * The features whose `passes` flipped in features.json since checkpoint `checkpoint` of
   * `folder` (not only since the base: a chat's title goes by its first message), with their
   * descriptions now. Empty when the checklist or its version then cannot be read.
   */
  async featureFlipsSince(folder: string, checkpoint: number): Promise<TitledFlip[]> {
    const pending = this.port.checkpoints(folder);
    const memory = this.port.memory(folder);
    if (pending === undefined || memory === undefined) return [];
    try {
      const position = (await (await pending).get(checkpoint)).memoryVersion;
      if (position === undefined) return [];
      const then = stateAt(await memory.history(), FEATURES_FILE, position);
      const before = then === undefined ? undefined : await memory.versionText(then.version);
      const after = await memory.currentText(FEATURES_FILE);
      const descriptions = featureDescriptions(after);
      return featureFlips(before, after).map((f) => ({ ...f, ...(descriptions.has(f.id) ? { description: descriptions.get(f.id) } : {}) }));
    } catch (error) {
      this.port.log.warn(`change summary: could not read the checklist's flips: ${errorText(error)}`);
      return [];
    }
  }

  /** Where Open Diff finds the row's before side; undefined when the row is not in the summary. */
  diffSides(kind: SummaryRowKind, path: string): SummaryDiffSides | undefined {
    const row = this.openRow(kind, path) ?? this.observed.find((o) => o.kind === kind && o.path === path);
    const base = this.state.base;
    if (!row || !base) return undefined;
    return { folder: base.folder, kind, path, checkpoint: base.checkpoint, change: row.change, ...(kind === 'memory' ? { version: this.memoryThen.get(path) } : {}) };
  }

  // ---- internals

  /** Keep or Undo of memory rows reviews their versions in Memory Changes; a failure there is logged, never in the way. */
  private async reviewed(rows: readonly ObservedChange[]): Promise<void> {
    const base = this.state.base;
    const versions = rows.filter((r) => r.kind === 'memory').flatMap((r) => this.memoryVersions.get(r.path) ?? []);
    if (base === undefined || versions.length === 0 || this.port.markReviewed === undefined) return;
    try {
      await this.port.markReviewed(base.folder, versions);
    } catch (error) {
      this.port.log.warn(`change summary: could not mark the memory changes reviewed: ${errorText(error)}`);
    }
  }

  private refusal(): string | undefined {
    if (this.running) return 'Stop the running answer first: Claude may still be changing files.';
    if (this.busy) return 'An undo is still under way.';
    return undefined;
  }

  private openRow(kind: SummaryRowKind, path: string): ObservedChange | undefined {
    return openRows(this.observed, this.state.decisions).find((o) => o.kind === kind && o.path === path);
  }

  private async storeOf(folder: string): Promise<{ ok: true; store: SummaryCheckpoints } | { ok: false; reason: string }> {
    const pending = this.port.checkpoints(folder);
    if (pending === undefined) return { ok: false, reason: 'Checkpoints are only kept for folders on this computer\'s disk.' };
    try {
      return { ok: true, store: await pending };
    } catch (error) {
      return { ok: false, reason: `The checkpoints cannot be read: ${errorText(error)}` };
    }
  }

  /** In how many steps (base → each later message's checkpoint → now) the row's file changed. */
  private async countSteps(store: SummaryCheckpoints, row: ObservedChange): Promise<number> {
    const base = this.state.base!;
    const later = this.hooks.messageCheckpoints().filter((id) => id > base.checkpoint);
    const points = [base.checkpoint, ...later];
    if (row.kind === 'file') {
      const steps: Set<string>[] = [];
      for (let i = 0; i < points.length; i++) steps.push(await store.pathsChangedBetween(points[i], points[i + 1]));
      return stepsChanging(row.path, steps);
    }
    // Memory: the versions of the file after the base, by the message they came after.
    const bounds: number[] = [];
    for (const id of points) bounds.push((await store.get(id)).memoryVersion ?? 0);
    const history = (await this.port.memory(base.folder)?.history()) ?? [];
    const steps = bounds.map((from, i) => {
      const to = bounds[i + 1] ?? Number.POSITIVE_INFINITY;
      const touched = history.filter((e) => e.version > from && e.version <= to).flatMap((e) => (e.oldPath === undefined ? [e.path] : [e.path, e.oldPath]));
      return new Set(touched);
    });
    return stepsChanging(row.path, steps);
  }

  private async undoRows(store: SummaryCheckpoints, checkpoint: number, rows: ObservedChange[]): Promise<SummaryOutcome> {
    this.busy = true;
    this.publish();
    try {
      const files = rows.filter((r) => r.kind === 'file').map((r) => r.path);
      const memory = rows.filter((r) => r.kind === 'memory').map((r) => r.path);
      const notDone: string[] = [];
      if (files.length > 0) {
        const result = await store.rewindFiles(checkpoint, files);
        for (const f of result.notRestored) notDone.push(`${f.path} (over the checkpoint size limit)`);
        for (const p of result.leftIgnored) notDone.push(`${p} (ignored by .gitignore now)`);
        this.port.log.info(`change summary: undid ${result.files.length} file(s) to checkpoint ${checkpoint}; the state before is checkpoint ${result.backup.id}`);
      }
      if (memory.length > 0) {
        const done = await store.rewindMemory(checkpoint, memory);
        for (const step of done) if (step.action === 'unavailable') notDone.push(`/memories/${step.rel} (no longer in memory history)`);
        this.port.log.info(`change summary: undid ${done.length} memory file(s) to checkpoint ${checkpoint}`);
      }
      const undoneRows = rows.filter((r) => !notDone.some((n) => n.startsWith(r.kind === 'memory' ? `/memories/${r.path} ` : `${r.path} `)));
      // Claude is told with the next message; a second undo of the same row says the latest.
      const told = (this.state.untold ?? []).filter((u) => !undoneRows.some((r) => u.kind === r.kind && u.path === r.path));
      told.push(...undoneRows.map((r) => ({ kind: r.kind, path: r.path, change: r.change })));
      const from = this.state.base?.entryId;
      this.state = { ...decide(this.state, undoneRows, 'undone'), untold: told };
      const undoneFiles = undoneRows.filter((r) => r.kind === 'file').map((r) => r.path);
      const undoneMemory = undoneRows.filter((r) => r.kind === 'memory').map((r) => r.path);
      // The cards before the save, so the chat saved with the decision shows them undone too.
      if (from !== undefined && undoneFiles.length > 0) this.hooks.filesUndone?.(undoneFiles, from);
      if (from !== undefined && undoneMemory.length > 0) this.hooks.memoryUndone?.(undoneMemory, from);
      await this.hooks.onState(true);
      await this.reviewed(undoneRows);
      const what = rows.length === 1 ? displayPath(rows[0].kind, rows[0].path) : `${undoneRows.length} changes`;
      if (notDone.length > 0) return { ok: false, reason: `Not undone: ${notDone.join(', ')}.` };
      return { ok: true, message: `Undid ${what}; Claude is told with your next message` };
    } catch (error) {
      this.port.log.warn(`change summary: undo failed: ${errorText(error)}`);
      return { ok: false, reason: 'The undo failed; the "Claude Memory" output says why.' };
    } finally {
      this.busy = false;
      await this.refresh();
    }
  }

  /** Reads files and memory changed since the base and publishes the view. */
  private async read(): Promise<void> {
    const generation = this.generation;
    const base = this.state.base;
    if (base === undefined) {
      this.observed = [];
      this.notCovered = { paths: [], total: 0 };
      this.flips = [];
      this.publish();
      return;
    }
    const pending = this.port.checkpoints(base.folder);
    if (pending === undefined) return;
    try {
      const store = await pending;
      const files = await store.filesSince(base.checkpoint);
      const observed: ObservedChange[] = files.map((f) => ({
        kind: 'file',
        path: f.path,
        change: f.change,
        added: f.added,
        removed: f.removed,
        stamp: f.stamp,
        ...(f.binary ? { binary: true } : {}),
      }));
      const memory = await this.readMemory(store, base.checkpoint, base.folder);
      const notCovered = (await store.ignoredChangedSince?.(base.checkpoint)) ?? { paths: [], total: 0 };
      if (generation !== this.generation || this.state.base?.checkpoint !== base.checkpoint) return;
      this.observed = [...observed, ...memory.rows];
      this.flips = memory.flips;
      this.notCovered = notCovered;
    } catch (error) {
      // A checkpoint dropped (the store keeps the newest 200) or git gone: nothing to show.
      this.port.log.warn(`change summary: could not read the changes: ${errorText(error)}`);
      if (generation !== this.generation) return;
      this.observed = [];
      this.notCovered = { paths: [], total: 0 };
      this.flips = [];
    }
    this.publish();
  }

  private async readMemory(store: SummaryCheckpoints, checkpoint: number, folder: string): Promise<{ rows: ObservedChange[]; flips: FeatureFlip[] }> {
    const steps = await store.memorySince(checkpoint);
    const memory = this.port.memory(folder);
    if (steps.length === 0 || memory === undefined) return { rows: [], flips: [] };
    const position = (await store.get(checkpoint)).memoryVersion ?? 0;
    const history = await memory.history();
    const rows: ObservedChange[] = [];
    let flips: FeatureFlip[] = [];
    this.memoryThen.clear();
    this.memoryVersions.clear();
    for (const step of steps) {
      // Only Claude's (and other agents') changes: a file only the user changed since (a Restore
      // from Recently Deleted or of a version, a hand edit) or an expiry is not in the summary.
      const versions = history.filter((e) => e.version > position && (e.path === step.rel || e.oldPath === step.rel) && !NOT_CLAUDES.has(e.author.name)).map((e) => e.version);
      if (versions.length === 0) continue;
      this.memoryVersions.set(step.rel, versions);
      const then = stateAt(history, step.rel, position);
      const now = stateAt(history, step.rel, Number.POSITIVE_INFINITY);
      this.memoryThen.set(step.rel, then?.version);
      const before = then === undefined ? undefined : await memory.versionText(then.version);
      const after = await memory.currentText(step.rel);
      const change = then === undefined ? 'created' : after === undefined ? 'deleted' : 'modified';
      // The memory cards' line diff (the `diff` library), so both count alike.
      const { added, removed } = changeRows(before ?? '', after ?? '');
      const counts = { added, removed };
      rows.push({
        kind: 'memory',
        path: step.rel,
        change,
        ...counts,
        stamp: now === undefined ? '' : now.sha256,
        ...(step.action === 'unavailable' ? { cannotUndo: `/memories/${step.rel}: its content then is no longer in memory history.` } : {}),
      });
      if (step.rel === FEATURES_FILE) flips = featureFlips(before, after);
    }
    // By path, like the files (the plan lists removals first).
    rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { rows, flips };
  }

  private publish(): void {
    const view = summaryView(this.state, this.observed, this.flips, this.running, this.notCovered);
    this.current = view && this.busy ? { ...view, busy: true } : view;
    this.hooks.onView(this.current);
  }
}

/** Authors whose versions are not Claude's changes for the summary. */
const NOT_CLAUDES = new Set<string>([AUTHORS.user.name, AUTHORS.expiry.name]);

/** A file as history knows it after every version up to `position` (undefined: absent). */
function stateAt(history: readonly HistoryEntry[], rel: string, position: number): HistoryEntry | undefined {
  let state: HistoryEntry | undefined;
  for (const e of history) {
    if (e.version > position) break;
    if (e.path === rel) state = e.op === 'delete' ? undefined : e;
    else if (e.op === 'rename' && e.oldPath === rel) state = undefined;
  }
  return state;
}

function displayPath(kind: SummaryRowKind, path: string): string {
  return kind === 'memory' ? `/memories/${path}` : path;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
