import * as vscode from 'vscode';
import { isMemoryError } from '../core/memory/errors';
import type { Logger } from './logger';
import { storeRelative, type MemoryStore } from './memoryStores';

/** Events for one path closer together than this are one change (a save writes, then touches). */
const DEFAULT_DEBOUNCE_MS = 400;

/**
 * Turns what the file watcher saw in a store into history: a file saved in the editor (or
 * changed by git, a sync tool) becomes the user's version, a file removed outside the engine the
 * user's delete. The engine decides whether the content is new to history, so its own writes
 * (seen by the watcher too) record nothing. Only in a trusted workspace (recording writes into
 * the store); never for the store's private `.meta` folder or hidden temporary files.
 */
export class HandEditRecorder implements vscode.Disposable {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** The notices still running, so tests and shutdown can wait for them. */
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    private readonly isTrusted: () => boolean,
    private readonly log: Logger,
    /** After a version was recorded (views showing history refresh). */
    private readonly onRecorded: () => void = () => undefined,
    private readonly debounceMs = DEFAULT_DEBOUNCE_MS,
  ) {}

  /** A watcher event for `uri` in `store`. */
  notice(store: MemoryStore, uri: vscode.Uri): void {
    if (!this.isTrusted() || store.engine.options.history === false) return;
    const memoryPath = store.memoryPathOf(uri);
    const rel = memoryPath === undefined ? undefined : storeRelative(memoryPath);
    if (!rel || !isRecordable(rel)) return;
    const key = `${store.folder.uri.toString()}|${rel}`;
    const pending = this.timers.get(key);
    if (pending) clearTimeout(pending);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        const run = this.record(store, rel);
        this.running.add(run);
        void run.finally(() => this.running.delete(run));
      }, this.debounceMs),
    );
  }

  /** Resolves when no notice is waiting or running. */
  async settled(): Promise<void> {
    while (this.timers.size > 0 || this.running.size > 0) {
      await Promise.all([...this.running]);
      if (this.timers.size > 0) await new Promise((r) => setTimeout(r, this.debounceMs));
    }
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private async record(store: MemoryStore, rel: string): Promise<void> {
    try {
      const version = await store.engine.noticeChange(rel);
      if (version === undefined) return;
      this.log.info(`recorded a change made outside the engine to /memories/${rel} in ${store.folder.name} (version ${version})`);
      this.onRecorded();
    } catch (e) {
      // A busy store or a store deleted meanwhile: the next change or write records it.
      this.log.debug(`could not record the change of /memories/${rel}: ${isMemoryError(e) ? e.message : String(e)}`);
    }
  }
}

/**
 * Hidden names are never versions: the store's private `.meta` folder (history itself, the lock)
 * and the engine's temporary files, which the tree and `view` do not show either.
 */
function isRecordable(rel: string): boolean {
  return !rel.split('/').some((segment) => segment.startsWith('.'));
}
