/**
 * Cross-process exclusion for one store. The engine's SerialQueue orders the calls of one engine;
 * a StoreLock keeps two engines on the same store apart (the extension and the CLI, two CLI
 * processes, an MCP server). The engine holds it around every operation that changes the store,
 * after its queue, so the lock is asked for once per operation and never by two calls of the same
 * engine at once. Implementations live in src/platform (core has no `fs`).
 */

/** A held lock; `release` is idempotent. */
export interface HeldStoreLock {
  release(): Promise<void>;
  /**
   * Optional: true while the lock is still this holder's (not broken as stale meanwhile) and no
   * other writer waits for it, so the holder may go on to its next command without letting go.
   * Without it, the engine releases the lock after every command.
   */
  keep?(): boolean;
}

export interface StoreLock {
  /**
   * Waits (bounded) until this caller holds the store's lock. Throws StoreLockBusyError when the
   * lock stayed held by someone alive for the whole wait; other errors (e.g. a read-only disk)
   * are the adapter's FsErrors.
   */
  acquire(): Promise<HeldStoreLock>;
}

/** The lock could not be had within the wait: another live writer kept it. */
export class StoreLockBusyError extends Error {
  constructor(
    readonly waitedMs: number,
    message: string,
  ) {
    super(message);
    this.name = 'StoreLockBusyError';
  }
}

/** No cross-process lock: the engine's own queue is all there is (in-memory stores, tests). */
export const NO_STORE_LOCK: StoreLock = Object.freeze({
  acquire: async (): Promise<HeldStoreLock> => ({ release: async () => undefined }),
});
