/**
 * The engine's store lock: runs a task holding the cross-process lock (a lock that cannot be had
 * is a MemoryError sentence), holds it on for a moment for the next task (the lease), tells
 * history when the journal needs no re-reading, and fires the write signal afterwards.
 */
import { isMemoryError, MemoryError } from './errors';
import { isFsError } from './fileSystem';
import type { MemoryHistory } from './history/historyStore';
import { FS_ERROR_REASONS, messages } from './messages';
import { NO_STORE_LOCK, StoreLockBusyError, type HeldStoreLock, type StoreLock } from './storeLock';
import { MEMORY_ROOT, type MemoryToolResult } from './types';

/** How long the store lock is held on after a locked task, for a next one to use (see `run`). */
const LEASE_MS = 5;

export class LockedTasks {
  /** The store lock held on after the last locked task (see `run`). */
  private lease: { held: HeldStoreLock; timer: ReturnType<typeof setTimeout> } | undefined;

  constructor(
    private readonly storeLock: StoreLock,
    /** History, told while the lock is held (undefined when history is off). */
    private readonly history: MemoryHistory | undefined,
    private readonly onDidWrite: () => void,
    private readonly internalError: (e: unknown) => void,
  ) {}

  /**
   * Runs `task` holding the store lock; a lock that cannot be had is a MemoryError sentence. A
   * lock that can say whether it is still ours and uncontested (`keep`) is held on for LEASE_MS
   * after the task: a burst of commands (an `exec` stream, an agent's tool calls in one turn)
   * takes it once, not once per command, and lets go at once when another writer waits.
   * Afterwards onDidWrite fires unless the task was refused or `changedBy` says it changed
   * nothing (a notice that recorded no version).
   */
  async run<T>(task: () => Promise<T>, changedBy: (result: T) => boolean = (r) => !isRefusal(r)): Promise<T> {
    // One turn of the event loop first: with synchronous file system calls a command may never
    // wait on anything, and back-to-back commands would starve the timers (a waiting engine's
    // next try, the lock's heartbeat, the lease's end) of this very process.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const held = await this.holdStoreLock();
    // A refused command (a MemoryError or an is_error result) changed nothing; anything else may have.
    let changed = true;
    try {
      const result = await task();
      changed = changedBy(result);
      return result;
    } catch (e) {
      changed = !isMemoryError(e);
      throw e;
    } finally {
      await this.leaseOut(held);
      if (changed) this.didWrite();
    }
  }

  /** The lease this engine still holds, or a newly acquired lock. */
  private async holdStoreLock(): Promise<HeldStoreLock> {
    const lease = this.lease;
    this.lease = undefined;
    if (lease !== undefined) {
      clearTimeout(lease.timer);
      if (lease.held.keep?.() === true) return lease.held;
      await this.releaseStoreLock(lease.held);
    }
    let held: HeldStoreLock;
    try {
      held = await this.storeLock.acquire();
    } catch (e) {
      if (e instanceof StoreLockBusyError) throw new MemoryError(messages.storeBusy(Math.round(e.waitedMs / 1000)));
      if (isFsError(e)) throw new MemoryError(messages.fsFailure(MEMORY_ROOT, FS_ERROR_REASONS[e.code] ?? FS_ERROR_REASONS.Unknown));
      throw e;
    }
    // Behind a cross-process lock no one else appends to history meanwhile: it reads the journal once.
    this.lockedHistory()?.holdLock(true);
    return held;
  }

  private async leaseOut(held: HeldStoreLock): Promise<void> {
    if (held.keep === undefined) return this.releaseStoreLock(held);
    const timer = setTimeout(() => {
      if (this.lease?.held !== held) return;
      this.lease = undefined;
      void this.releaseStoreLock(held);
    }, LEASE_MS);
    this.lease = { held, timer };
  }

  private async releaseStoreLock(held: HeldStoreLock): Promise<void> {
    this.lockedHistory()?.holdLock(false);
    try {
      await held.release();
    } catch (e) {
      this.internalError(e);
    }
  }

  private lockedHistory(): MemoryHistory | undefined {
    return this.storeLock !== NO_STORE_LOCK ? this.history : undefined;
  }

  private didWrite(): void {
    try {
      this.onDidWrite();
    } catch (e) {
      this.internalError(e);
    }
  }
}

function isRefusal(result: unknown): boolean {
  return typeof result === 'object' && result !== null && (result as Partial<MemoryToolResult>).is_error === true;
}
