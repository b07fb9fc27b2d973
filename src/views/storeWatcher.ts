import * as vscode from 'vscode';
import type { MemoryStore, MemoryStores } from '../platform/memoryStores';

/** Events closer together than this become one refresh (an agent turn or a git checkout writes many files). */
const DEFAULT_DEBOUNCE_MS = 150;

export interface StoreWatcherOptions {
  debounceMs?: number;
  /** Which changed Uris matter to this watcher (default: all of them). */
  relevant?: (store: MemoryStore, uri: vscode.Uri) => boolean;
  /** Every relevant event, at once (onChange comes once per burst). */
  onEvent?: (store: MemoryStore, uri: vscode.Uri) => void;
}

/**
 * Watches every store's folder, and the folder itself appearing or going away, and calls
 * `onChange` once per burst of events, whoever made them: the agent, the user, git, a sync tool.
 * Rebuilt when the stores change (folders, the memoryFolder setting). The pattern is relative to
 * the workspace folder, not to the store, so deleting the whole store folder is seen too: a
 * watcher based inside the store would go quiet with it. Shared by the Memory tree and the
 * Features view.
 */
export class StoreWatcher implements vscode.Disposable {
  private watchers: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly storesSubscription: vscode.Disposable;

  constructor(
    private readonly stores: MemoryStores,
    private readonly onChange: () => void,
    private readonly options: StoreWatcherOptions = {},
  ) {
    this.watch();
    this.storesSubscription = stores.onDidChange(() => this.watch());
  }

  dispose(): void {
    this.storesSubscription.dispose();
    this.unwatch();
    if (this.timer) clearTimeout(this.timer);
  }

  private watch(): void {
    this.unwatch();
    for (const store of this.stores.all()) {
      const name = store.rootUri.path.slice(store.rootUri.path.lastIndexOf('/') + 1);
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(store.folder, `{${name},${name}/**}`));
      const fire = (uri: vscode.Uri) => {
        if (this.options.relevant && !this.options.relevant(store, uri)) return;
        this.options.onEvent?.(store, uri);
        this.schedule();
      };
      this.watchers.push(watcher, watcher.onDidCreate(fire), watcher.onDidChange(fire), watcher.onDidDelete(fire));
    }
  }

  private unwatch(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.onChange();
    }, this.options.debounceMs ?? DEFAULT_DEBOUNCE_MS);
  }
}
