import * as vscode from 'vscode';
import { isMemoryError } from '../core/memory/errors';
import type { Logger } from './logger';
import { storeRelative, type MemoryStore } from './memoryStores';
import type { ExtensionServices } from './services';

/**
 * History's part of the window: saves in the editor, git and other programs become the user's
 * versions. Fed by the store watcher's events, and by editor saves directly: the watcher sometimes
 * misses writes into folders made after start-up, and a notice read in the middle of a save would
 * see a truncated file. The views learn of a recorded version through the store's change signal.
 */
export function registerHandEdits(services: ExtensionServices): vscode.Disposable {
  const handEdits = new HandEditRecorder(() => services.trust.isTrusted(), services.logger('history'));
  return vscode.Disposable.from(
    handEdits,
    services.storeChanges.onDidSeeFile(({ store, uri }) => handEdits.notice(store, uri)),
    vscode.workspace.onWillSaveTextDocument(({ document }) => {
      const store = services.stores.forUri(document.uri);
      if (store) handEdits.saving(store, document.uri);
    }),
    vscode.workspace.onDidSaveTextDocument((document) => {
      const store = services.stores.forUri(document.uri);
      if (store) handEdits.saved(store, document.uri);
    }),
  );
}

/** Events for one path closer together than this are one change (a save writes, then touches). */
const DEFAULT_DEBOUNCE_MS = 400;
/** A save that never reported its end (it failed) stops holding notices back after this. */
const SAVE_HOLD_MAX_MS = 10_000;

/**
 * Turns what the file watcher saw in a store into history: a file saved in the editor (or
 * changed by git, a sync tool) becomes the user's version, a file removed outside the engine the
 * user's delete. The engine decides whether the content is new to history, so its own writes
 * (seen by the watcher too) record nothing. Only in a trusted workspace (recording writes into
 * the store); never for the store's private `.meta` folder or hidden temporary files.
 */
export class HandEditRecorder implements vscode.Disposable {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /**
   * Editor saves in progress (key → start time). The editor truncates, then writes: a notice of
   * the file or a folder above it read meanwhile would record an empty version, so it waits.
   */
  private readonly saves = new Map<string, number>();

  constructor(
    private readonly isTrusted: () => boolean,
    private readonly log: Logger,
    private readonly debounceMs = DEFAULT_DEBOUNCE_MS,
  ) {}

  /** A watcher event for `uri` in `store`. */
  notice(store: MemoryStore, uri: vscode.Uri): void {
    if (!this.isTrusted() || store.engine.options.history === false) return;
    const rel = relOf(store, uri);
    if (!rel || !isRecordable(rel)) return;
    this.schedule(store, rel);
  }

  /** The editor is about to save `uri`: notices touching it wait for `saved`. */
  saving(store: MemoryStore, uri: vscode.Uri): void {
    const rel = relOf(store, uri);
    if (rel) this.saves.set(keyOf(store, rel), Date.now());
  }

  /** The editor saved `uri`: its content is complete, record it. */
  saved(store: MemoryStore, uri: vscode.Uri): void {
    const rel = relOf(store, uri);
    if (rel) this.saves.delete(keyOf(store, rel));
    this.notice(store, uri);
  }

  private schedule(store: MemoryStore, rel: string, attempt = 0): void {
    const key = keyOf(store, rel);
    const pending = this.timers.get(key);
    if (pending) clearTimeout(pending);
    this.timers.set(
      key,
      setTimeout(
        () => {
          this.timers.delete(key);
          if (this.saveInProgress(store, rel)) return this.schedule(store, rel);
          void this.record(store, rel, attempt);
        },
        this.debounceMs * (attempt + 1),
      ),
    );
  }

  /** Whether a save of `rel`, or of a file below it, is under way. */
  private saveInProgress(store: MemoryStore, rel: string): boolean {
    const now = Date.now();
    const prefix = keyOf(store, rel);
    for (const [key, started] of this.saves) {
      if (now - started > SAVE_HOLD_MAX_MS) this.saves.delete(key);
      else if (key === prefix || key.startsWith(`${prefix}/`)) return true;
    }
    return false;
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private async record(store: MemoryStore, rel: string, attempt: number): Promise<void> {
    try {
      const version = await store.engine.noticeChange(rel);
      if (version === undefined) return;
      this.log.info(`recorded a change made outside the engine to /memories/${rel} in ${store.folder.name} (version ${version})`);
    } catch (e) {
      const reason = isMemoryError(e) ? e.message : String(e);
      // A busy store (another writer holds its lock): try again a little later. A file deleted by
      // hand has no "next change" that would record it; giving up at once lost the delete.
      if (attempt + 1 < RECORD_ATTEMPTS && !this.timers.has(keyOf(store, rel))) {
        this.log.debug(`could not record the change of /memories/${rel} yet (${reason}); trying again`);
        this.schedule(store, rel, attempt + 1);
        return;
      }
      this.log.warn(`could not record the change of /memories/${rel} made outside the engine: ${reason}`);
    }
  }
}

/** Tries to record one change outside the engine (a busy store is tried again, later each time). */
const RECORD_ATTEMPTS = 4;

function keyOf(store: MemoryStore, rel: string): string {
  return `${store.key}|${rel}`;
}

function relOf(store: MemoryStore, uri: vscode.Uri): string | undefined {
  const memoryPath = store.memoryPathOf(uri);
  return memoryPath === undefined ? undefined : storeRelative(memoryPath);
}

/**
 * Hidden names are never versions: the store's private `.meta` folder (history itself, the lock)
 * and the engine's temporary files, which the tree and `view` do not show either.
 */
function isRecordable(rel: string): boolean {
  return !rel.split('/').some((segment) => segment.startsWith('.'));
}
