import * as vscode from 'vscode';
import type { MemoryStore, MemoryStores } from './memoryStores';

/** Watcher events closer together than this are one change (an agent turn or a git checkout writes many files). */
const BURST_MS = 100;

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
 * same moment fire once.
 *
 * The watcher's pattern is relative to the workspace folder, not to the store, so deleting the
 * whole store folder is seen too: a watcher based inside the store would go quiet with it.
 */
export class StoreChanges implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<StoreChange>();
  private readonly seen = new vscode.EventEmitter<{ store: MemoryStore; uri: vscode.Uri }>();
  private readonly pending = new Map<MemoryStore, { uris: vscode.Uri[]; timer: ReturnType<typeof setTimeout> }>();
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
        this.schedule(store, uri);
      };
      this.watchers.push(watcher, watcher.onDidCreate(fire), watcher.onDidChange(fire), watcher.onDidDelete(fire));
    }
  }

  private unwatch(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
  }

  private schedule(store: MemoryStore, uri: vscode.Uri): void {
    const burst = this.pending.get(store);
    if (burst) {
      clearTimeout(burst.timer);
      burst.uris.push(uri);
      burst.timer = setTimeout(() => this.flush(store, false), BURST_MS);
    } else {
      this.pending.set(store, { uris: [uri], timer: setTimeout(() => this.flush(store, false), BURST_MS) });
    }
  }

  /** Fires the store's change now, with the watcher events of its burst so far. */
  private flush(store: MemoryStore, ownWrite: boolean): void {
    const burst = this.pending.get(store);
    if (burst) clearTimeout(burst.timer);
    this.pending.delete(store);
    // An engine of a store rebuilt away may still finish a write: only current stores change.
    if (!this.stores.all().includes(store)) return;
    this.changed.fire({ store, uris: burst?.uris ?? [], ownWrite });
  }
}
