/**
 * Keeps NodeMemoryFileSystem inside its store: store paths to host paths (non-canonical ones
 * refused), links resolved before anything is touched (one that leads out of the store refused,
 * or reported as dangling), and stat's answers for links as VS Code gives them.
 *
 * One check per operation: inside `operation` (one engine command) a folder found to be a real
 * folder (lstat: a directory, no link) is remembered, and the later steps of the same command
 * (read, write the temporary file, compare, rename, append to the journal) do not lstat it again,
 * until this adapter itself deletes or moves it or something above it, in any spelling (only
 * plainly named folders are remembered, see PLAIN_NAME). The last component of a
 * path is always looked at when it is used: opens carry O_NOFOLLOW (a link there is refused or
 * resolved and confined afresh), and a folder about to be listed is lstat'ed again. A folder
 * another process swaps for a link in the middle of a command is the race every check-then-use
 * has (lstat, then open: the swap may come in between); the per-step look-ups narrowed that
 * window, they never closed it, and the lock keeps our own writers out.
 */
import * as path from 'node:path';
import { lstatSync, type Stats } from 'node:fs';
import { FileType, invalidStorePathReason, LINKED_ROOT, type FileStat } from '../../core/memory/fileSystem';
import { refused, toFsError } from './fsErrors';
import { meta, toFileStat } from './fsCalls';
import { isWithin } from './storePaths';

/**
 * Folder names the per-operation proofs may hold: ASCII letters, digits, `_`, `-`, dots and
 * spaces inside, not ending in a dot or space. Each such name has one spelling per entry on every
 * file system up to ASCII case (no Unicode folding or normalization, no Windows short `~` names or
 * stripped trailing dots), so `forget` can find every proof a delete or rename touches.
 */
const PLAIN_NAME = /^[A-Za-z0-9_.-](?:[A-Za-z0-9_. -]*[A-Za-z0-9_-])?$/;

export class StoreConfinement {
  /** realpath of the root (its folders above may be links), cached once it exists. */
  private realRoot: string | undefined;
  /**
   * Inside `operation`: the store-relative folders ('' the root) found to be real folders, with
   * what lstat said of them; undefined outside one (every step looks at every component).
   */
  private folders: Map<string, FileStat> | undefined;

  /** `root`: the store folder, absolute and resolved. */
  constructor(readonly root: string) {}

  /**
   * What `''` and each prefix of `rel` is, one lstat per component below the store's real root
   * (stat's answers: a link is reported with the SymbolicLink bit, and the chain ends at it).
   */
  lstatChain(rel: string): FileStat[] {
    this.hostPath('lstatChain', rel);
    const out: FileStat[] = [];
    const folders = this.folders;
    try {
      // The folders above the last component may be answered from earlier in this operation
      // (see `operation`): the engine looks only at their type. The last one is always looked at.
      let root = rel === '' ? undefined : folders?.get('');
      if (root === undefined) {
        const stat = lstatSync(this.root, { throwIfNoEntry: false });
        if (stat === undefined) return out;
        root = this.statOf(this.root, stat);
        if (folders !== undefined && stat.isDirectory()) folders.set('', root);
      }
      out.push(root);
      if (root.type !== FileType.Directory || rel === '') return out;
      let at = this.resolvedRoot();
      const names = rel.split('/');
      let prefix = '';
      let plain = true;
      for (let i = 0; i < names.length; i++) {
        const name = names[i];
        at = at + path.sep + name;
        prefix = i === 0 ? name : `${prefix}/${name}`;
        plain &&= PLAIN_NAME.test(name);
        const known = i < names.length - 1 ? folders?.get(prefix) : undefined;
        if (known !== undefined) {
          out.push(known);
          continue;
        }
        let stat: Stats | undefined;
        try {
          stat = lstatSync(at, { throwIfNoEntry: false });
        } catch (e) {
          // A file where a folder was expected (changed since its own lstat): missing below it.
          if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') return out;
          throw e;
        }
        if (stat === undefined) return out;
        if (stat.isSymbolicLink()) {
          out.push(this.linkStat(at, stat));
          return out;
        }
        const fileStat = toFileStat(stat, 0);
        out.push(fileStat);
        if (!stat.isDirectory()) return out;
        if (plain) folders?.set(prefix, fileStat);
      }
      return out;
    } catch (e) {
      throw toFsError(e, 'lstatChain', rel);
    }
  }

  /**
   * Runs `task` as one operation (see the class comment): folders proven once are not looked at
   * again until it ends. Nested calls share the outer one.
   */
  async operation<T>(task: () => Promise<T>): Promise<T> {
    if (this.folders !== undefined) return task();
    this.folders = new Map();
    try {
      return await task();
    } finally {
      this.folders = undefined;
    }
  }

  /**
   * This adapter deleted or moved `rel`: nothing at or below it is proven any more, in any
   * spelling that may name the same entry (ASCII case ignored; a name that is not plain forgets
   * everything, see PLAIN_NAME).
   */
  forget(rel: string): void {
    const folders = this.folders;
    if (folders === undefined) return;
    if (rel === '' || !rel.split('/').every((name) => PLAIN_NAME.test(name))) {
      // The root itself is never deleted or moved by this adapter: its proof stands.
      const root = folders.get('');
      folders.clear();
      if (root !== undefined) folders.set('', root);
      return;
    }
    const folded = rel.toLowerCase();
    const below = `${folded}/`;
    for (const known of folders.keys()) {
      const k = known.toLowerCase();
      if (k === folded || k.startsWith(below)) folders.delete(known);
    }
  }

  hostPath(op: string, rel: string): string {
    const why = invalidStorePathReason(rel);
    if (why !== undefined) throw refused(op, String(rel), why);
    return rel === '' ? this.root : path.join(this.root, rel);
  }

  /**
   * The root's real path, refused when the root itself is a symbolic link (one a repository
   * ships, `.claude-memories -> ../elsewhere`): nothing is read or written through it. Looked at
   * once per operation (see `operation`).
   */
  resolvedRoot(): string {
    if (!this.folders?.has('')) {
      const stat = meta.lstat(this.root);
      if (stat.isSymbolicLink()) throw refused('open', '', LINKED_ROOT);
      if (this.folders !== undefined && stat.isDirectory()) this.folders.set('', toFileStat(stat, 0));
    }
    this.realRoot ??= meta.realpath(this.root);
    return this.realRoot;
  }

  /**
   * The real path of an existing entry, refused when links lead it out of the store. `lastFresh`:
   * the last component is lstat'ed even when this operation proved it a folder already (it is
   * about to be listed, and readdir would follow a link put there since).
   */
  confined(op: string, rel: string, host: string, lastFresh = true): string {
    const fast = this.linkFree(rel, lastFresh);
    if (fast !== undefined) return fast;
    const real = meta.realpath(host);
    if (!isWithin(this.resolvedRoot(), real, path.sep)) throw refused(op, rel, 'a symbolic link leads out of the store');
    return real;
  }

  /**
   * `rel` under the store's real root when none of its components is a symbolic link (one lstat
   * per component below the root, where realpath(3) reads every component of the host path as a
   * link; none for a folder this operation proved already, see `operation`); undefined when one
   * is, and realpath decides. Missing components throw ENOENT/ENOTDIR as realpath does.
   */
  private linkFree(rel: string, lastFresh: boolean): string | undefined {
    const root = this.resolvedRoot();
    if (rel === '') return root;
    const folders = this.folders;
    const names = rel.split('/');
    let at = root;
    let prefix = '';
    let plain = true;
    for (let i = 0; i < names.length; i++) {
      at = at + path.sep + names[i];
      prefix = i === 0 ? names[i] : `${prefix}/${names[i]}`;
      plain &&= PLAIN_NAME.test(names[i]);
      if (folders?.has(prefix) && (!lastFresh || i < names.length - 1)) continue;
      const stat = meta.lstat(at);
      if (stat.isSymbolicLink()) return undefined;
      if (folders !== undefined && plain && stat.isDirectory()) folders.set(prefix, toFileStat(stat, 0));
    }
    return at;
  }

  /**
   * The real path of `rel` when the folders above it are free of links (see linkFree), for an
   * open with O_NOFOLLOW that judges the last component itself; undefined when a link is among
   * them (then `confined` decides).
   */
  linkFreeParent(rel: string): string | undefined {
    const slash = rel.lastIndexOf('/');
    if (slash < 0) return rel === '' ? this.resolvedRoot() : this.resolvedRoot() + path.sep + rel;
    const parent = this.linkFree(rel.slice(0, slash), false);
    return parent === undefined ? undefined : parent + path.sep + rel.slice(slash + 1);
  }

  /** Proves the folder that holds `rel` resolves inside the store (top-level names sit in the root). */
  confineParent(op: string, rel: string): void {
    const slash = rel.lastIndexOf('/');
    if (slash < 0) return;
    const parent = rel.slice(0, slash);
    // The folder is used as a folder above the entry, never listed: what this operation proved holds.
    this.confined(op, parent, path.join(this.root, parent), false);
  }

  /** What `stat` answers for the entry at `host` whose lstat is `lstat` (a link: its target's, see linkStat). */
  statOf(host: string, lstat: Stats): FileStat {
    return lstat.isSymbolicLink() ? this.linkStat(host, lstat) : toFileStat(lstat, 0);
  }

  /** A link's target type with the SymbolicLink bit; a dangling or escaping link is SymbolicLink alone. */
  linkStat(host: string, lstat?: Stats): FileStat {
    try {
      const real = meta.realpath(host);
      if (isWithin(this.resolvedRoot(), real, path.sep)) return toFileStat(meta.stat(real), FileType.SymbolicLink);
    } catch {
      // Dangling or looping: reported like vscode does, as a link of unknown kind.
    }
    return { ...toFileStat(lstat ?? meta.lstat(host), FileType.SymbolicLink), type: FileType.SymbolicLink };
  }
}
