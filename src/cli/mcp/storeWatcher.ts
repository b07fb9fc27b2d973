/**
 * Notices changes to the store folder made by anyone (this server's tool calls, the editor, git,
 * another agent) and reports them once per burst, so MCP clients can re-read resources.
 *
 * One non-recursive `fs.watch` per visible folder of the store, not Node's `recursive: true`: on
 * Linux that one is emulated in JavaScript and lstat's every changed entry, including the store
 * lock and history journal in `.meta` that change on every tool call (a ninth of the server's
 * time in `bench/mcp`). Hidden entries are never resources, so hidden folders are not watched
 * and their names are not news.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Changes within this many milliseconds of each other are reported once. */
const SETTLE_MS = 50;
/** Folders watched at most (each costs an inotify watch); deeper ones go unnoticed past it. */
const MAX_FOLDERS = 2000;

export interface StoreWatch {
  close(): void;
  /** Folders watched now, relative to the root ('' is the root). */
  readonly folders: readonly string[];
}

export function watchStore(root: string, onChange: () => void, onError: (e: unknown) => void): StoreWatch {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let warned = false;
  const watchers = new Map<string, fs.FSWatcher>();
  /** Names created, removed or renamed in this burst: each may be a folder to start or stop watching. */
  const renamed = new Set<string>();

  const changed = () => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      // Folders are looked at once per burst (a tool call's atomic write renames two names), and
      // before the report, so a client re-reading at once also sees a new folder's files.
      if (renamed.size > MAX_FOLDERS) {
        renamed.clear();
        rescan();
      }
      for (const rel of renamed) folderChanged(rel);
      renamed.clear();
      onChange();
    }, SETTLE_MS);
  };

  const unwatch = (rel: string) => {
    for (const [key, w] of watchers) {
      if (key === rel || key.startsWith(`${rel}/`)) {
        w.close();
        watchers.delete(key);
      }
    }
  };

  /** Watches the folder `rel` and the visible folders under it; false when the root cannot be watched. */
  const watch = (rel: string): boolean => {
    if (closed || watchers.has(rel)) return true;
    if (watchers.size >= MAX_FOLDERS) {
      if (!warned) onError(new Error(`more than ${MAX_FOLDERS} folders in the store; changes in the rest are not reported`));
      warned = true;
      return true;
    }
    const dir = path.join(root, rel);
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(dir, { persistent: false }, (event, name) => {
        if (typeof name !== 'string' || name.startsWith('.')) return;
        // Past the cap the whole tree is looked at again once the burst settles.
        if (event === 'rename' && renamed.size <= MAX_FOLDERS) renamed.add(childOf(rel, name));
        changed();
      });
    } catch (e) {
      // Gone meanwhile, or no inotify watches left: the root's failure is reported.
      if (rel === '') onError(e);
      return rel !== '';
    }
    watcher.on('error', (e) => {
      unwatch(rel);
      if (rel === '') onError(e);
    });
    watchers.set(rel, watcher);
    for (const child of visibleFolders(rel)) watch(child);
    return true;
  };

  const folderChanged = (rel: string) => {
    let folder = false;
    try {
      folder = fs.lstatSync(path.join(root, rel)).isDirectory();
    } catch {
      // Gone.
    }
    if (folder) watch(rel);
    else unwatch(rel);
  };

  /** Drops watches of folders that are gone and adds the ones that came (after a very large burst). */
  const rescan = () => {
    for (const rel of [...watchers.keys()]) if (rel !== '' && !fs.existsSync(path.join(root, rel))) unwatch(rel);
    for (const rel of [...watchers.keys()]) for (const child of visibleFolders(rel)) watch(child);
  };

  /** The visible folders directly in `rel` (none when it is gone). */
  const visibleFolders = (rel: string): string[] => {
    try {
      return fs
        .readdirSync(path.join(root, rel), { withFileTypes: true })
        .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
        .map((e) => childOf(rel, e.name));
    } catch {
      return [];
    }
  };

  if (!watch('')) return { close() {}, folders: [] };
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
    get folders() {
      return [...watchers.keys()].sort();
    },
  };
}

/** The store-relative path of `name` in folder `rel` ('' is the root). */
function childOf(rel: string, name: string): string {
  return rel === '' ? name : `${rel}/${name}`;
}
