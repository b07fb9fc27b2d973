import * as vscode from 'vscode';
import { META_FOLDER, TEMP_NAME_PREFIX } from '../core/memory/paths';
import { MEMORY_ROOT } from '../core/memory/types';
import type { MemoryStore, MemoryStores } from './memoryStores';
import { LOCK_FILE, WAITING_FILE } from './node/nodeStoreLock';

/** Watcher events closer together than this are one change (an agent turn or a git checkout writes many files). */
const BURST_MS = 100;
/**
 * A burst made only of this window's own changes waits this long for the engine's write signal,
 * which takes it along (the watcher is often quicker than the signal); it fires on its own only
 * if no signal comes.
 */
const OWN_WRITE_WAIT_MS = 1_000;

/** One burst of changes to one store, or the set of stores rebuilt (`store` undefined). */
export interface StoreChange {
  /** The store that changed; undefined when the stores themselves were rebuilt (folders, settings). */
  readonly store: MemoryStore | undefined;
  /** What the file watcher saw change in this burst (any process: git, the CLI, an editor). */
  readonly uris: readonly vscode.Uri[];
  /** Whether this window's own engine wrote to the store in this burst. */
  readonly ownWrite: boolean;
}

/**
 * Whether `change` may have changed one of the places `watched` names in its store: the stores
 * were rebuilt, this window's engine wrote (which paths it does not say), or the watcher saw one.
 */
export function mayHaveChanged(change: StoreChange, watched: (store: MemoryStore) => readonly vscode.Uri[]): boolean {
  const { store, uris, ownWrite } = change;
  if (store === undefined || ownWrite) return true;
  const wanted = new Set(watched(store).map((u) => u.toString()));
  return uris.some((u) => wanted.has(u.toString()));
}

/**
 * The one "store changed" signal of the window: every view that shows a store (the Memory tree,
 * Memory Changes, expiry marks, the Features view) listens here instead of watching on its own.
 * It merges the three ways a change becomes known: this window's engines' writes
 * (`MemoryStores.onDidWrite`, already one per burst), one file watcher per store for every other
 * writer, and the stores being rebuilt. A burst of watcher events and the engine's own write of the
 * same moment fire once, and the watcher's later echo of a write this window announced is dropped
 * (OwnWrites): one agent write, one change.
 *
 * The watcher's pattern is relative to the workspace folder, not to the store, so deleting the
 * whole store folder is seen too: a watcher based inside the store would go quiet with it.
 */
export class StoreChanges implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<StoreChange>();
  private readonly seen = new vscode.EventEmitter<{ store: MemoryStore; uri: vscode.Uri }>();
  private readonly pending = new Map<MemoryStore, { uris: vscode.Uri[]; timer: ReturnType<typeof setTimeout> | undefined; ownOnly: boolean }>();
  private watchers: vscode.Disposable[] = [];
  private readonly subscriptions: vscode.Disposable[];

  /** Once per burst of changes to a store, and once when the stores are rebuilt. */
  readonly onDidChange = this.changed.event;
  /** Every file event the watcher reports, at once (history records hand edits from these). */
  readonly onDidSeeFile = this.seen.event;

  constructor(private readonly stores: MemoryStores) {
    this.watch();
    this.subscriptions = [
      stores.onDidChange(() => {
        this.watch();
        this.changed.fire({ store: undefined, uris: [], ownWrite: false });
      }),
      stores.onDidWrite((store) => this.flush(store, true)),
    ];
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
    this.unwatch();
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    this.changed.dispose();
    this.seen.dispose();
  }

  private watch(): void {
    this.unwatch();
    for (const store of this.stores.all()) {
      const name = store.rootUri.path.slice(store.rootUri.path.lastIndexOf('/') + 1);
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(store.folder, `{${name},${name}/**}`));
      const fire = (uri: vscode.Uri) => {
        if (!this.stores.all().includes(store)) return;
        this.seen.fire({ store, uri });
        if (isBookkeeping(store, uri)) return;
        const whose = store.ownWrites.whose(uri);
        // The echo of a change this window's engine made and already announced is not news.
        if (whose !== 'announced') this.schedule(store, uri, whose === 'unannounced');
      };
      this.watchers.push(watcher, watcher.onDidCreate(fire), watcher.onDidChange(fire), watcher.onDidDelete(fire));
    }
  }

  private unwatch(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
  }

  /** Adds `uri` to the store's burst; a burst of only this window's unannounced changes waits for their signal. */
  private schedule(store: MemoryStore, uri: vscode.Uri, own: boolean): void {
    const burst = this.pending.get(store) ?? { uris: [], timer: undefined, ownOnly: true };
    clearTimeout(burst.timer);
    burst.uris.push(uri);
    burst.ownOnly &&= own;
    burst.timer = setTimeout(() => this.flush(store, false), burst.ownOnly ? OWN_WRITE_WAIT_MS : BURST_MS);
    this.pending.set(store, burst);
  }

  /** Fires the store's change now, with the watcher events of its burst so far. */
  private flush(store: MemoryStore, ownWrite: boolean): void {
    const burst = this.pending.get(store);
    if (burst) clearTimeout(burst.timer);
    this.pending.delete(store);
    // An engine of a store rebuilt away may still finish a write: only current stores change.
    if (!this.stores.all().includes(store)) return;
    if (ownWrite) store.ownWrites.signalled();
    this.changed.fire({ store, uris: burst?.uris ?? [], ownWrite });
  }
}

/**
 * Files no view shows and whose change says nothing by itself: the engine's temporary files of an
 * atomic write (the rename onto the real name is reported too), and in `.meta` the folder itself,
 * its `.gitignore` and the store lock's files (every writer, in any process, takes and releases
 * the lock around a change that is reported by itself). History, pins and read times do count.
 */
function isBookkeeping(store: MemoryStore, uri: vscode.Uri): boolean {
  const memoryPath = store.memoryPathOf(uri);
  if (memoryPath === undefined) return false;
  const name = memoryPath.slice(memoryPath.lastIndexOf('/') + 1);
  if (name.startsWith(TEMP_NAME_PREFIX)) return true;
  const meta = `${MEMORY_ROOT}/${META_FOLDER}`;
  if (memoryPath === meta) return true;
  if (memoryPath !== `${meta}/${name}`) return false;
  return name === '.gitignore' || name.startsWith(LOCK_FILE) || name === WAITING_FILE;
}
