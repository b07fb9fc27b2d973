/**
 * The memory engine: runs memory_20250818 tool calls against a MemoryFileSystem. All calls are
 * serialized by the engine's queue; every call that changes the store also holds the store's
 * cross-process lock (options.storeLock) while it runs, and an edit is abandoned and run once
 * more when its file changed behind the lock. The user's own writes (update, createFile, ...)
 * take the same queue and lock. Every expected failure is a MemoryError and becomes `{is_error: true, content}`
 * here and only here; unexpected errors go to `onInternalError` and reach the model as one
 * generic sentence (never a stack or host path).
 */
import { COMMAND_HANDLERS } from './commands';
import { changeTarget, recordChange, redactedCopy } from './commandHistory';
import type { CommandContext, CommandHandler } from './context';
import { LockedTasks } from './engineLock';
import { ChangedMeanwhileError, isMemoryError, MemoryError } from './errors';
import type { MemoryFileSystem } from './fileSystem';
import { parseInput } from './input';
import { SerialQueue } from './mutex';
import { resolveMemoryEngineOptions, type MemoryEngineOptions } from './options';
import { QuotaTracker } from './quota';
import { SafeStore } from './store';
import type { MemoryCommandInput, MemoryCommandName, MemoryToolExecutor, MemoryToolResult } from './types';
import { createFileNow, createFolderNow, deleteNow, renameNow, updateText, type TextUpdate } from './userWrites';
import { messages } from './messages';
import { GuardChecker } from './writeGuards';
import { parseMemoryPath } from './paths';
import { fileUses, type ExpiredFile, type FileUse } from './history/expiry';
import { undoPlanOf, type UndoPlan } from './history/entries';
import { MemoryHistory } from './history/historyStore';
import { expireNow, historyMessages, restoreNow, undoNow } from './history/historyWrites';
import { StoreMarks } from './history/marks';
import { HistoryRecorder, type Captured } from './history/recorder';
import { AUTHORS, type Author, type HistoryEntry } from './history/types';
import { userEntryRel } from './userWrites';

export class MemoryEngine implements MemoryToolExecutor {
  readonly options: Readonly<MemoryEngineOptions>;
  private readonly store: SafeStore;
  private readonly queue = new SerialQueue();
  private readonly quota: QuotaTracker;
  private readonly context: CommandContext;
  private readonly marks: StoreMarks;
  /** Undefined when history is off (options.history === false). */
  private readonly recorder: HistoryRecorder | undefined;
  private readonly lock: LockedTasks;

  constructor(fs: MemoryFileSystem, options?: Partial<MemoryEngineOptions>) {
    this.options = resolveMemoryEngineOptions(options);
    this.store = new SafeStore(fs);
    this.marks = new StoreMarks(this.store);
    if (this.options.history !== false) {
      const copy = this.options.redactSecrets ? redactedCopy : undefined;
      const history = new MemoryHistory(this.store, this.options.history, this.options.now, copy);
      this.recorder = new HistoryRecorder(this.store, history, this.marks, (e) => this.internalError(e));
    }
    this.lock = new LockedTasks(
      this.options.storeLock,
      this.recorder?.history,
      () => this.options.onDidWrite(),
      (e) => this.internalError(e),
    );
    this.quota = new QuotaTracker(() => this.store.sizeOf(''), this.options.quotaBytes, this.options.quotaRecheckMs, this.options.now);
    this.context = {
      store: this.store,
      options: this.options,
      quota: this.quota,
      guards: new GuardChecker(this.options.writeGuards, this.store),
    };
  }

  /** Creates the store root if it is missing (also done before every call). */
  ensureRoot(): Promise<void> {
    return this.queue.run(() => this.ensureRootNow());
  }

  /** Number of full store measurements the quota needed so far (for tests and benchmarks). */
  get quotaMeasurements(): number {
    return this.quota.measurements;
  }

  /** `author`: who this call is by, recorded in history (default: options.author). */
  execute(input: unknown, signal?: AbortSignal, author?: Author): Promise<MemoryToolResult> {
    if (signal?.aborted) return Promise.resolve(cancelled());
    return this.queue.run(async () => {
      // Aborted while waiting for its turn: still nothing has run.
      if (signal?.aborted) return cancelled();
      // One command at a time: what it looks up twice (the root, its path, the file it edits
      // and records) is looked up once.
      return this.store.scoped(() => this.run(input, author ?? this.options.author));
    });
  }

  // ---- the user's hand edits: same queue, lock and atomic writes; no agent guards, redaction or quota.
  // Each records its version in history, by the user unless another author is named.

  /** Read-modify-write of a text file (`update` gets undefined when it is missing); true when written. */
  update(rel: string, update: TextUpdate, author: Author = AUTHORS.user): Promise<boolean> {
    return this.userWrite(async () => {
      const before = await this.capture(userEntryRel(rel));
      const written = await updateText(this.store, rel, update);
      if (written) await this.recorder?.written(before.length > 0 ? 'edit' : 'create', userEntryRel(rel), before, author);
      return written;
    });
  }

  /** A new file (folders made as needed); false when something already exists there. */
  createFile(rel: string, content: Uint8Array, author: Author = AUTHORS.user): Promise<boolean> {
    return this.userWrite(async () => {
      const created = await createFileNow(this.store, rel, content);
      if (created) await this.recorder?.written('create', userEntryRel(rel), [], author);
      return created;
    });
  }

  createFolder(rel: string): Promise<void> {
    return this.userWrite(() => createFolderNow(this.store, rel));
  }

  /** A file, or a folder with everything in it. */
  delete(rel: string, author: Author = AUTHORS.user): Promise<void> {
    return this.userWrite(async () => {
      const before = await this.capture(userEntryRel(rel));
      await deleteNow(this.store, rel);
      await this.recorder?.deleted(userEntryRel(rel), before, author);
    });
  }

  /** Never onto an existing entry. */
  rename(from: string, to: string, author: Author = AUTHORS.user): Promise<void> {
    return this.userWrite(async () => {
      const before = await this.capture(userEntryRel(from));
      await renameNow(this.store, from, to);
      await this.recorder?.renamed(userEntryRel(from), userEntryRel(to), before, author);
    });
  }

  // ---- history: versions, restore, undo; what the store remembers of use and pins

  /** Every version, oldest first ([] when history is off). */
  async history(): Promise<readonly HistoryEntry[]> {
    return (await this.recorder?.history.list()) ?? [];
  }

  /** The versions of the file now at `rel`, oldest first, renames followed back. */
  async fileHistory(rel: string): Promise<HistoryEntry[]> {
    return (await this.recorder?.history.fileHistory(rel)) ?? [];
  }

  /** A version's stored content (undefined when pruned or history is off). */
  async versionContent(version: number): Promise<Uint8Array | undefined> {
    return this.recorder?.history.content(version);
  }

  /** The file at `rel` gets `version`'s content back (recorded as `restore`); its new version, or undefined when it already held it. */
  restore(rel: string, version: number, author: Author = AUTHORS.user): Promise<number | undefined> {
    return this.historyWrite((recorder) => restoreNow(this.store, recorder, rel, version, author));
  }

  /** What undoing `version` would do, and how many later changes to that file it also drops. */
  async undoPlan(version: number): Promise<{ plan: UndoPlan; later: number } | undefined> {
    return undoPlanOf(await this.history(), version);
  }

  /** Undoes one change (see undoPlan); the version that records the undo. */
  undo(version: number, author: Author = AUTHORS.user): Promise<number | undefined> {
    return this.historyWrite((recorder) => undoNow(this.store, recorder, version, author));
  }

  /**
   * A change made outside the engine (the editor, git) that a watcher saw: recorded as the
   * user's version when history does not have that content yet.
   */
  noticeChange(rel: string): Promise<number | undefined> {
    const recorder = this.recorder;
    if (recorder === undefined) return Promise.reject(new MemoryError(historyMessages.off));
    // Never creates the store: a late event about a store that is gone (or was moved by the
    // memoryFolder setting) must not make an empty folder appear.
    return this.queue.run(async () => {
      if ((await this.store.inspect('')).kind !== 'directory') return undefined;
      // Most notices are of this window's own writes, already recorded: no version, no change signal.
      return this.lock.run(() => recorder.noticed(userEntryRel(rel)), (version) => version !== undefined);
    });
  }

  /** Every memory file with its last use (modification, version or agent read) and pin. */
  fileUses(): Promise<FileUse[]> {
    return this.queue.run(() => fileUses(this.store, this.recorder?.history, this.marks));
  }

  async pins(): Promise<string[]> {
    return this.marks.pins();
  }

  setPinned(rel: string, pinned: boolean): Promise<void> {
    return this.userWrite(() => this.marks.setPinned(userEntryRel(rel), pinned));
  }

  /**
   * One expiry sweep: files unused for more than `days` (never pinned ones or `keep`) are deleted
   * as versions by `expiry`; with `dryRun` only listed. Refused when history is off, so expiry is
   * never an unrecoverable delete.
   */
  async expire(options: { days: number; keep?: readonly string[]; dryRun?: boolean; author?: Author }): Promise<ExpiredFile[]> {
    const recorder = this.recorder;
    if (recorder === undefined) throw new MemoryError(historyMessages.off);
    return expireNow(
      this.store,
      recorder,
      { days: options.days, keep: options.keep ?? [], dryRun: options.dryRun ?? false, now: this.options.now(), author: options.author ?? AUTHORS.expiry },
      (task) => this.userWrite(task),
    );
  }

  private historyWrite<T>(task: (recorder: HistoryRecorder) => Promise<T>): Promise<T> {
    const recorder = this.recorder;
    if (recorder === undefined) return Promise.reject(new MemoryError(historyMessages.off));
    return this.userWrite(() => task(recorder));
  }

  private async capture(rel: string): Promise<Captured[]> {
    return this.recorder === undefined ? [] : this.recorder.capture(rel);
  }

  private userWrite<T>(task: () => Promise<T>): Promise<T> {
    return this.queue.run(() =>
      this.lock.run(async () => {
        try {
          await this.ensureRootNow();
          return await task();
        } finally {
          // Hand edits are not counted: the next agent write measures again.
          this.quota.invalidate();
        }
      }),
    );
  }

  private async run(input: unknown, author: Author): Promise<MemoryToolResult> {
    let command: MemoryCommandName | undefined;
    try {
      const parsed = parseInput(input);
      command = parsed.command;
      const handler = COMMAND_HANDLERS[parsed.command] as CommandHandler<MemoryCommandName> as (
        ctx: CommandContext,
        input: MemoryCommandInput,
      ) => Promise<MemoryToolResult>;
      // A view only reads, and writes replace files atomically, so it needs no lock (nor may it
      // need one: an untrusted or read-only store can still be viewed).
      if (parsed.command === 'view') {
        await this.ensureRootNow();
        const result = await handler(this.context, parsed);
        if (!result.is_error) await this.noteRead(parsed.path);
        return result;
      }
      const target = changeTarget(parsed);
      const attempt = async (): Promise<MemoryToolResult> => {
        const before = target === undefined ? [] : await this.capture(target.rel);
        const result = await handler(this.context, parsed);
        if (result.is_error || target === undefined || this.recorder === undefined) return result;
        const version = await recordChange(this.recorder, target, before, author);
        return version !== undefined && result.touched ? { ...result, touched: { ...result.touched, version } } : result;
      };
      return await this.lock.run(async () => {
        await this.ensureRootNow();
        try {
          return await attempt();
        } catch (e) {
          if (!(e instanceof ChangedMeanwhileError)) throw e;
          // Someone outside the lock wrote the file between our read and our write: start over once.
          this.quota.invalidate();
          this.store.forget();
          return await attempt();
        }
      });
    } catch (e) {
      if (isMemoryError(e)) return { is_error: true, content: e.modelText };
      this.quota.invalidate();
      this.internalError(e);
      return { is_error: true, content: messages.internal(command ?? 'unknown') };
    }
  }

  /**
   * Writes down that an agent read a file (for expiry), at most once an hour per file. Best
   * effort: a store that cannot be written (untrusted, read-only) is still viewed.
   */
  private async noteRead(rawPath: string): Promise<void> {
    try {
      const { rel, isRoot } = parseMemoryPath(rawPath);
      const now = this.options.now();
      if (isRoot || !this.marks.needsNote(rel, now)) return;
      if ((await this.store.inspect(rel)).kind !== 'file') return;
      await this.lock.run(() => this.marks.noteRead(rel, now));
    } catch {
      // Not being able to note a read must never fail the read.
    }
  }

  private internalError(e: unknown): void {
    try {
      this.options.onInternalError(e);
    } catch {
      // A failing logger must not turn into an unhandled rejection.
    }
  }

  private async ensureRootNow(): Promise<void> {
    const root = await this.store.inspect('');
    if (root.kind === 'missing') await this.store.ensureDirectory('');
  }
}

function cancelled(): MemoryToolResult {
  return { is_error: true, content: messages.cancelled };
}
