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
import type { CommandContext, CommandHandler } from './context';
import { ChangedMeanwhileError, isMemoryError, MemoryError } from './errors';
import { isFsError, type MemoryFileSystem } from './fileSystem';
import { parseInput } from './input';
import { SerialQueue } from './mutex';
import { resolveMemoryEngineOptions, type MemoryEngineOptions } from './options';
import { QuotaTracker } from './quota';
import { SafeStore } from './store';
import { StoreLockBusyError } from './storeLock';
import { MEMORY_ROOT, type MemoryCommandInput, type MemoryCommandName, type MemoryToolExecutor, type MemoryToolResult } from './types';
import { createFileNow, createFolderNow, deleteNow, renameNow, updateText, type TextUpdate } from './userWrites';
import { FS_ERROR_REASONS, messages } from './messages';
import { GuardChecker } from './writeGuards';

export class MemoryEngine implements MemoryToolExecutor {
  readonly options: Readonly<MemoryEngineOptions>;
  private readonly store: SafeStore;
  private readonly queue = new SerialQueue();
  private readonly quota: QuotaTracker;
  private readonly context: CommandContext;

  constructor(fs: MemoryFileSystem, options?: Partial<MemoryEngineOptions>) {
    this.options = resolveMemoryEngineOptions(options);
    this.store = new SafeStore(fs);
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

  execute(input: unknown, signal?: AbortSignal): Promise<MemoryToolResult> {
    if (signal?.aborted) return Promise.resolve(cancelled());
    return this.queue.run(async () => {
      // Aborted while waiting for its turn: still nothing has run.
      if (signal?.aborted) return cancelled();
      return this.run(input);
    });
  }

  // ---- the user's hand edits: same queue, lock and atomic writes; no agent guards, redaction or quota

  /** Read-modify-write of a text file (`update` gets undefined when it is missing); true when written. */
  update(rel: string, update: TextUpdate): Promise<boolean> {
    return this.userWrite(() => updateText(this.store, rel, update));
  }

  /** A new file (folders made as needed); false when something already exists there. */
  createFile(rel: string, content: Uint8Array): Promise<boolean> {
    return this.userWrite(() => createFileNow(this.store, rel, content));
  }

  createFolder(rel: string): Promise<void> {
    return this.userWrite(() => createFolderNow(this.store, rel));
  }

  /** A file, or a folder with everything in it. */
  delete(rel: string): Promise<void> {
    return this.userWrite(() => deleteNow(this.store, rel));
  }

  /** Never onto an existing entry. */
  rename(from: string, to: string): Promise<void> {
    return this.userWrite(() => renameNow(this.store, from, to));
  }

  private userWrite<T>(task: () => Promise<T>): Promise<T> {
    return this.queue.run(() =>
      this.locked(async () => {
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

  private async run(input: unknown): Promise<MemoryToolResult> {
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
        return await handler(this.context, parsed);
      }
      return await this.locked(async () => {
        await this.ensureRootNow();
        try {
          return await handler(this.context, parsed);
        } catch (e) {
          if (!(e instanceof ChangedMeanwhileError)) throw e;
          // Someone outside the lock wrote the file between our read and our write: start over once.
          this.quota.invalidate();
          return await handler(this.context, parsed);
        }
      });
    } catch (e) {
      if (isMemoryError(e)) return { is_error: true, content: e.modelText };
      this.quota.invalidate();
      try {
        this.options.onInternalError(e);
      } catch {
        // A failing logger must not turn into an unhandled rejection.
      }
      return { is_error: true, content: messages.internal(command ?? 'unknown') };
    }
  }

  /** Runs `task` holding the store lock; a lock that cannot be had is a MemoryError sentence. */
  private async locked<T>(task: () => Promise<T>): Promise<T> {
    let held;
    try {
      held = await this.options.storeLock.acquire();
    } catch (e) {
      if (e instanceof StoreLockBusyError) throw new MemoryError(messages.storeBusy(Math.round(e.waitedMs / 1000)));
      if (isFsError(e)) throw new MemoryError(messages.fsFailure(MEMORY_ROOT, FS_ERROR_REASONS[e.code] ?? FS_ERROR_REASONS.Unknown));
      throw e;
    }
    try {
      return await task();
    } finally {
      await held.release();
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
