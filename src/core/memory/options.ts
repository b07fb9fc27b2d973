import { NO_STORE_LOCK, type StoreLock } from './storeLock';
import type { WriteGuard } from './types';
import { DEFAULT_HISTORY_RETENTION, type Author, type HistoryRetention } from './history/types';

/** Tunables of one MemoryEngine. Every field has a safe default (DEFAULT_MEMORY_ENGINE_OPTIONS). */
export interface MemoryEngineOptions {
  /** Largest file (in bytes, after redaction and encoding) a write may produce. */
  maxFileBytes: number;
  /** Largest total size (bytes of all regular files) of the whole store. */
  quotaBytes: number;
  /** Replace well-known secret shapes with `[REDACTED:<kind>]` before anything reaches disk. */
  redactSecrets: boolean;
  /** `create` on an existing file: 'error' is the documented reference behaviour. */
  createPolicy: 'error' | 'overwrite';
  /** Text views (files and listings) longer than this many characters are cut at a line boundary. */
  viewCharLimit: number;
  /**
   * Held around every operation that changes the store, so that engines in other processes on
   * the same store wait for it; the default is no cross-process lock (in-memory stores, tests).
   */
  storeLock: StoreLock;
  /** Rules consulted before any change to the files they list. */
  writeGuards: WriteGuard[];
  /**
   * How long the cached store total used by the quota is trusted (ms) before it is measured
   * again; files can change behind the engine's back (editor, git, sync).
   */
  quotaRecheckMs: number;
  /** Clock used for the quota cache; injectable so tests need no timers. */
  now: () => number;
  /** Keep a version of every change in `.meta/history` (false: no history, for baselines). */
  history: HistoryRetention | false;
  /** Who the memory tool calls are by, unless a call names its own author. */
  author: Author;
  /** Receives unexpected (non-model-facing) errors for logging; they never reach the model. */
  onInternalError: (error: unknown) => void;
  /**
   * Called after every write this engine made to its store (a memory command, a hand edit, a
   * restore, a noted read), once its lock is released: the views of this process learn of their
   * own writes at once, without waiting for a file watcher (which can lag or miss events).
   */
  onDidWrite: () => void;
}

export const DEFAULT_MEMORY_ENGINE_OPTIONS: Readonly<MemoryEngineOptions> = Object.freeze({
  maxFileBytes: 1024 * 1024,
  quotaBytes: 50 * 1024 * 1024,
  redactSecrets: true,
  createPolicy: 'error',
  viewCharLimit: 16000,
  writeGuards: [],
  storeLock: NO_STORE_LOCK,
  quotaRecheckMs: 60_000,
  now: () => Date.now(),
  history: DEFAULT_HISTORY_RETENTION,
  author: { name: 'agent' },
  onInternalError: () => undefined,
  onDidWrite: () => undefined,
});

export function resolveMemoryEngineOptions(options: Partial<MemoryEngineOptions> | undefined): MemoryEngineOptions {
  const merged: MemoryEngineOptions = { ...DEFAULT_MEMORY_ENGINE_OPTIONS, ...stripUndefined(options ?? {}) };
  for (const key of ['maxFileBytes', 'quotaBytes', 'viewCharLimit', 'quotaRecheckMs'] as const) {
    const value = merged[key];
    if (!Number.isFinite(value) || value <= 0) {
      throw new RangeError(`MemoryEngineOptions.${key} must be a positive number`);
    }
  }
  // Settings arrive from users: anything but an explicit 'overwrite' keeps the reference behaviour.
  merged.createPolicy = merged.createPolicy === 'overwrite' ? 'overwrite' : 'error';
  merged.writeGuards = [...merged.writeGuards];
  if (merged.history !== false) {
    for (const key of ['maxVersionsPerFile', 'maxDays', 'maxBytes'] as const) {
      if (!Number.isFinite(merged.history[key]) || merged.history[key] <= 0) throw new RangeError(`MemoryEngineOptions.history.${key} must be a positive number`);
    }
  }
  return merged;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
