/**
 * Keeps NodeMemoryFileSystem inside its store: store paths to host paths (non-canonical ones
 * refused), links resolved before anything is touched (one that leads out of the store refused,
 * or reported as dangling), and stat's answers for links as VS Code gives them.
 */
import * as path from 'node:path';
import { lstatSync, type Stats } from 'node:fs';
import { FileType, invalidStorePathReason, type FileStat } from '../../core/memory/fileSystem';
import { refused, toFsError } from './fsErrors';
import { meta, toFileStat } from './fsCalls';
import { isWithin } from './storePaths';

export class StoreConfinement {
  /** realpath of the root, cached once it exists (the root itself may be a user-made link). */
  private realRoot: string | undefined;

  /** `root`: the store folder, absolute and resolved. */
  constructor(readonly root: string) {}

  /**
   * What `''` and each prefix of `rel` is, one lstat per component below the store's real root
   * (stat's answers: a link is reported with the SymbolicLink bit, and the chain ends at it).
   */
  lstatChain(rel: string): FileStat[] {
    this.hostPath('lstatChain', rel);
    const out: FileStat[] = [];
    try {
      const root = lstatSync(this.root, { throwIfNoEntry: false });
      if (root === undefined) return out;
      out.push(this.statOf(this.root, root));
      if (!root.isDirectory() || rel === '') return out;
      let at = this.resolvedRoot();
      for (const name of rel.split('/')) {
        at = at + path.sep + name;
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
        out.push(toFileStat(stat, 0));
        if (!stat.isDirectory()) return out;
      }
      return out;
    } catch (e) {
      throw toFsError(e, 'lstatChain', rel);
    }
  }

  hostPath(op: string, rel: string): string {
    const why = invalidStorePathReason(rel);
    if (why !== undefined) throw refused(op, String(rel), why);
    return rel === '' ? this.root : path.join(this.root, rel);
  }

  resolvedRoot(): string {
    this.realRoot ??= meta.realpath(this.root);
    return this.realRoot;
  }

  /** The real path of an existing entry, refused when links lead it out of the store. */
  confined(op: string, rel: string, host: string): string {
    const fast = this.linkFree(rel);
    if (fast !== undefined) return fast;
    const real = meta.realpath(host);
    if (!isWithin(this.resolvedRoot(), real, path.sep)) throw refused(op, rel, 'a symbolic link leads out of the store');
    return real;
  }

  /**
   * `rel` under the store's real root when none of its components is a symbolic link (one lstat
   * per component below the root, where realpath(3) reads every component of the host path as a
   * link); undefined when one is, and realpath decides. Missing components throw ENOENT/ENOTDIR
   * as realpath does.
   */
  private linkFree(rel: string): string | undefined {
    const root = this.resolvedRoot();
    if (rel === '') return root;
    let at = root;
    for (const name of rel.split('/')) {
      at = at + path.sep + name;
      if (meta.lstat(at).isSymbolicLink()) return undefined;
    }
    return at;
  }

  /** Proves the folder that holds `rel` resolves inside the store (top-level names sit in the root). */
  confineParent(op: string, rel: string): void {
    const slash = rel.lastIndexOf('/');
    if (slash < 0) return;
    const parent = rel.slice(0, slash);
    this.confined(op, parent, path.join(this.root, parent));
  }

  /** A link's target type with the SymbolicLink bit; a dangling or escaping link is SymbolicLink alone. */
  /** What `stat` answers for the entry at `host` whose lstat is `lstat` (a link: its target's, see linkStat). */
  statOf(host: string, lstat: Stats): FileStat {
    return lstat.isSymbolicLink() ? this.linkStat(host, lstat) : toFileStat(lstat, 0);
  }

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
