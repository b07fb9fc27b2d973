import * as vscode from 'vscode';
import type { FileUse } from '../core/memory/history/expiry';
import { expiryOutlook, type ExpiryOutlook } from '../core/memory/history/expiryOutlook';
import { NEVER_EXPIRING_FILES } from '../core/session/memoryFiles';
import type { Logger } from './logger';
import type { MemoryStore, MemoryStores } from './memoryStores';
import type { Settings } from './settings';

/**
 * What the window knows about its memory files' use (last use, pins), read from each store's
 * private folder, so the tree and the file decorations can answer synchronously. Re-read on
 * `refresh()` (the store changed, a pin was set, a sweep ran); `onDidChange` fires when the
 * uses or the expiry setting changed.
 */
export class MemoryExpiry implements vscode.Disposable {
  private uses = new Map<string, Map<string, FileUse>>();
  private reading: Promise<void> | undefined;
  private again = false;
  private readonly emitter = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly stores: MemoryStores,
    private readonly settings: Settings,
    private readonly log: Logger,
  ) {
    this.subscriptions = [
      settings.onDidChange((change) => {
        if (change.affects('expiryDays')) this.emitter.fire();
      }),
      stores.onDidChange(() => void this.refresh()),
    ];
  }

  /** The expiry window in force (0 = off). */
  days(): number {
    return this.settings.get('expiryDays');
  }

  /** A file's expiry outlook at `now`; undefined when the file is not known (yet). */
  outlook(store: MemoryStore, rel: string, now = Date.now()): ExpiryOutlook | undefined {
    const use = this.uses.get(store.key)?.get(rel);
    return use && expiryOutlook(use, this.days(), NEVER_EXPIRING_FILES, now);
  }

  /** Every known file of every store, for a pass over all of them. */
  *files(): Iterable<{ store: MemoryStore; rel: string }> {
    for (const store of this.stores.all()) {
      for (const rel of this.uses.get(store.key)?.keys() ?? []) yield { store, rel };
    }
  }

  /** Re-reads every store's uses; calls during a read make one more read after it. */
  refresh(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      try {
        do {
          this.again = false;
          await this.readAll();
        } while (this.again);
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.emitter.dispose();
  }

  private async readAll(): Promise<void> {
    const next = new Map<string, Map<string, FileUse>>();
    for (const store of this.stores.all()) {
      try {
        next.set(store.key, new Map((await store.engine.fileUses()).map((u) => [u.rel, u])));
      } catch (e) {
        this.log.warn(`cannot read the use of memory files in ${store.folder.name}: ${String(e)}`);
      }
    }
    if (sameUses(this.uses, next)) return;
    this.uses = next;
    this.emitter.fire();
  }
}

function sameUses(a: Map<string, Map<string, FileUse>>, b: Map<string, Map<string, FileUse>>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, files] of a) {
    const other = b.get(key);
    if (!other || other.size !== files.size) return false;
    for (const [rel, use] of files) {
      const o = other.get(rel);
      if (!o || o.lastUsed !== use.lastUsed || o.pinned !== use.pinned) return false;
    }
  }
  return true;
}
