import * as vscode from 'vscode';
import type { MemoryFileSystem } from '../core/memory/fileSystem';
import type { MemoryEngine } from '../core/memory/engine';
import type { MemoryEngineOptions } from '../core/memory/options';
import { parseMemoryPath } from '../core/memory/paths';
import { createChecklistGuards } from '../core/session/guards';
import { MEMORY_ROOT } from '../core/memory/types';
import type { Logger } from './logger';
import { storeSettingsOf, type SettingKey, type Settings, type SettingsSnapshot } from './settings';
import { OwnWrites } from './ownWrites';
import { storeLockFor } from './storeLockFor';
import { WorkspaceMemoryFileSystem } from './workspaceFileSystem';

export type EngineFactory = (fs: MemoryFileSystem, options: Partial<MemoryEngineOptions>) => MemoryEngine;

/** One workspace folder's memory: `<folder>/<memoryFolder>` seen as `/memories`. */
export class MemoryStore {
  constructor(
    readonly folder: vscode.WorkspaceFolder,
    readonly rootUri: vscode.Uri,
    readonly fs: WorkspaceMemoryFileSystem,
    readonly engine: MemoryEngine,
    /** What this window's engine changed lately: the watcher's echo of it is not news. */
    readonly ownWrites: OwnWrites = new OwnWrites(),
  ) {
    this.key = folder.uri.toString();
  }

  /** The store's identity in maps, ids and saved state: its workspace folder's Uri as a string. */
  readonly key: string;

  /** The Uri of a `/memories/...` path, or undefined when it is not a canonical path in this store. */
  uriOfMemoryPath(memoryPath: string): vscode.Uri | undefined {
    const rel = storeRelative(memoryPath);
    return rel === undefined ? undefined : this.fs.uriOf(rel);
  }

  /** The `/memories/...` path of a Uri inside this store, or undefined when it lies outside. */
  memoryPathOf(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== this.rootUri.scheme || uri.authority !== this.rootUri.authority) return undefined;
    const root = this.rootUri.path.replace(/\/+$/, '');
    if (uri.path === root) return MEMORY_ROOT;
    return uri.path.startsWith(root + '/') ? MEMORY_ROOT + uri.path.slice(root.length) : undefined;
  }
}

/** `/memories/a/b.md` → `a/b.md`, `/memories` → `''`; undefined for anything the engine would refuse. */
export function storeRelative(memoryPath: string): string | undefined {
  try {
    return parseMemoryPath(memoryPath).rel;
  } catch {
    return undefined;
  }
}

/** Writes closer together than this are one burst for onDidWrite. */
const WRITE_BURST_MS = 100;

/** Settings whose change means engines (or their roots) must be built again. */
const ENGINE_SETTINGS: readonly SettingKey[] = [
  'memoryFolder', 'maxFileBytes', 'quotaBytes', 'redactSecrets', 'createPolicy', 'checklistGuard',
  'historyEnabled', 'historyMaxVersionsPerFile', 'historyMaxDays', 'historyMaxMegabytes',
];

/**
 * One MemoryStore per workspace folder, rebuilt when folders or engine settings change. Callers
 * look a store up for each request instead of keeping one, so they always use current settings.
 */
export class MemoryStores implements vscode.Disposable {
  private stores: MemoryStore[] = [];
  private readonly emitter = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Fires after the set of stores was rebuilt (folders added/removed, settings changed). */
  readonly onDidChange = this.emitter.event;
  private readonly writes = new vscode.EventEmitter<MemoryStore>();
  private readonly writeTimers = new Map<MemoryStore, ReturnType<typeof setTimeout>>();
  /**
   * Fires once per burst of writes a store's engine in this window made (any author: the chat,
   * the LM tool, the tree, history, expiry), WRITE_BURST_MS after the last. Listeners read the
   * store again, through the same engine queue the writes wait in: once per write would starve a
   * storm of writes. Writes of other processes arrive through file watchers.
   */
  readonly onDidWrite = this.writes.event;

  constructor(
    private readonly settings: Settings,
    private readonly createEngine: EngineFactory,
    private readonly canWrite: () => boolean,
    private readonly log: Logger,
  ) {
    this.rebuild();
    this.subscriptions.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.rebuildAndNotify('workspace folders changed')),
      settings.onDidChange((change) => {
        if (ENGINE_SETTINGS.some((k) => change.affects(k))) this.rebuildAndNotify(`settings changed: ${change.keys.join(', ')}`);
      }),
    );
  }

  all(): readonly MemoryStore[] {
    return this.stores;
  }

  /** The first workspace folder's store: where single-folder commands act. */
  primary(): MemoryStore | undefined {
    return this.stores[0];
  }

  forFolder(folder: vscode.WorkspaceFolder | vscode.Uri): MemoryStore | undefined {
    return this.forKey((folder instanceof vscode.Uri ? folder : folder.uri).toString());
  }

  /** The store whose `key` this is (as saved in review marks, tree ids and chat files). */
  forKey(key: string): MemoryStore | undefined {
    return this.stores.find((s) => s.key === key);
  }

  /** Whether `store`'s engine wrote and the onDidWrite of that burst is still to come. */
  writePending(store: MemoryStore): boolean {
    return this.writeTimers.has(store);
  }

  /** The store whose memory folder contains `uri` (or is it). */
  forUri(uri: vscode.Uri): MemoryStore | undefined {
    return this.stores.find((s) => s.memoryPathOf(uri) !== undefined);
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
    this.emitter.dispose();
    for (const timer of this.writeTimers.values()) clearTimeout(timer);
    this.writes.dispose();
  }

  private rebuildAndNotify(why: string): void {
    this.log.info(`rebuilding memory stores (${why})`);
    this.rebuild();
    this.emitter.fire();
  }

  private rebuild(): void {
    const s = this.settings.current;
    const options = engineOptions(s, this.log);
    this.stores = (vscode.workspace.workspaceFolders ?? []).map((folder) => {
      const rootUri = vscode.Uri.joinPath(folder.uri, s.memoryFolder);
      const ownWrites = new OwnWrites();
      const fs = new WorkspaceMemoryFileSystem(rootUri, { canWrite: this.canWrite, willChange: (uri, scope) => ownWrites.note(uri, scope) });
      const storeLock = storeLockFor(rootUri, this.canWrite);
      const onDidWrite = () => {
        clearTimeout(this.writeTimers.get(store));
        this.writeTimers.set(
          store,
          setTimeout(() => {
            this.writeTimers.delete(store);
            // Only while the store is current: an engine of a store rebuilt away may still finish a write.
            if (this.stores.includes(store)) this.writes.fire(store);
          }, WRITE_BURST_MS),
        );
      };
      const store: MemoryStore = new MemoryStore(folder, rootUri, fs, this.createEngine(fs, { ...options, storeLock, onDidWrite }), ownWrites);
      return store;
    });
  }
}

function engineOptions(snapshot: SettingsSnapshot, log: Logger): Partial<MemoryEngineOptions> {
  const { checklistGuard, ...s } = storeSettingsOf(snapshot);
  return {
    ...s,
    writeGuards: checklistGuard ? createChecklistGuards() : [],
    onInternalError: (e) => log.error(`memory engine: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`),
  };
}
