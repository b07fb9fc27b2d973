/**
 * A faithful in-memory MemoryFileSystem for unit tests: folders, files, symbolic links (followed
 * in the middle of a path and at the end, reported with the SymbolicLink bit like
 * vscode.workspace.fs), FsError codes like the real adapters, plus an operation log and fault
 * injection so tests can prove what the engine did (or did not) touch.
 */
import { FileType, FsError, type FileStat, type FsErrorCode, type MemoryFileSystem } from '../../src/core/memory/fileSystem';

type Node =
  | { kind: 'dir'; children: Map<string, Node>; mtime: number }
  | { kind: 'file'; data: Uint8Array; mtime: number }
  | { kind: 'link'; target: string; mtime: number };

export type FsOperation = keyof MemoryFileSystem;

const MAX_LINK_HOPS = 16;

export class InMemoryFileSystem implements MemoryFileSystem {
  private root: Node = { kind: 'dir', children: new Map(), mtime: 0 };
  private clock = 1;
  /** Every call, in order: `['writeFile', 'notes/.~tmp-…']`. */
  readonly log: [FsOperation, string][] = [];
  private faults: { op: FsOperation; code: FsErrorCode; match?: (path: string) => boolean }[] = [];

  /** True until something creates the root folder when constructed with `withRoot = false`. */
  private rootMissing: boolean;

  constructor(withRoot = true) {
    this.rootMissing = !withRoot;
  }

  // ---- test helpers ---------------------------------------------------------------------

  /** Makes the next matching call fail with `code` (once). */
  failNext(op: FsOperation, code: FsErrorCode, match?: (path: string) => boolean): void {
    this.faults.push({ op, code, match });
  }

  /** Creates a symbolic link at `path` pointing to the store-relative `target`. */
  symlink(path: string, target: string): void {
    const parts = split(path);
    if (parts.length > 1) this.seedFolder(parts.slice(0, -1));
    const { parent, name } = this.parentFor(path, true);
    parent.children.set(name, { kind: 'link', target, mtime: this.tick() });
  }

  /** Writes a file directly, creating folders (test setup; not logged). */
  seed(path: string, content: string | Uint8Array): void {
    const parts = split(path);
    const dir = this.seedFolder(parts.slice(0, -1));
    const data = typeof content === 'string' ? new TextEncoder().encode(content) : content;
    dir.children.set(parts[parts.length - 1], { kind: 'file', data: data.slice(), mtime: this.tick() });
  }

  private seedFolder(parts: string[]): Extract<Node, { kind: 'dir' }> {
    this.rootMissing = false;
    let dir = this.rootDir();
    for (const part of parts) {
      let next = dir.children.get(part);
      if (next === undefined) {
        next = { kind: 'dir', children: new Map(), mtime: this.tick() };
        dir.children.set(part, next);
      }
      if (next.kind !== 'dir') throw new Error(`seed: ${part} is not a folder`);
      dir = next;
    }
    return dir;
  }

  /** Raw bytes of a file (test assertions), or undefined. Follows no links. */
  peek(path: string): Uint8Array | undefined {
    const node = this.lookupNoFollow(path);
    return node?.kind === 'file' ? node.data.slice() : undefined;
  }

  peekText(path: string): string | undefined {
    const bytes = this.peek(path);
    return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
  }

  /** Every path in the store (folders end in `/`), sorted; for "nothing changed" assertions. */
  snapshot(): string[] {
    const out: string[] = [];
    if (this.rootMissing) return out;
    const walk = (dir: Extract<Node, { kind: 'dir' }>, prefix: string) => {
      for (const [name, node] of dir.children) {
        const p = prefix + name;
        if (node.kind === 'dir') {
          out.push(p + '/');
          walk(node, p + '/');
        } else if (node.kind === 'file') {
          out.push(`${p} (${node.data.length}) ${Buffer.from(node.data).toString('base64')}`);
        } else {
          out.push(`${p} -> ${node.target}`);
        }
      }
    };
    walk(this.rootDir(), '');
    return out.sort();
  }

  count(op: FsOperation): number {
    return this.log.filter(([o]) => o === op).length;
  }

  // ---- MemoryFileSystem -------------------------------------------------------------------

  async stat(path: string): Promise<FileStat> {
    this.enter('stat', path);
    const lastLink = this.lookupNoFollow(path, true);
    let node: Exclude<Node, { kind: 'link' }>;
    try {
      node = this.resolve(path);
    } catch (e) {
      // A dangling link: reported like vscode does, as a link of unknown type.
      if (lastLink?.kind === 'link') return { type: FileType.SymbolicLink, size: 0, mtime: lastLink.mtime, ctime: lastLink.mtime };
      throw e;
    }
    let type: FileType = node.kind === 'dir' ? FileType.Directory : FileType.File;
    if (lastLink?.kind === 'link') type |= FileType.SymbolicLink;
    const size = node.kind === 'file' ? node.data.length : 4096;
    return { type, size, mtime: node.mtime, ctime: node.mtime };
  }

  async readDirectory(path: string): Promise<[string, FileType][]> {
    this.enter('readDirectory', path);
    const node = this.resolve(path);
    if (node.kind !== 'dir') throw new FsError('FileNotADirectory', `not a directory: ${path}`);
    // Deliberately unsorted (reverse insertion order) so the engine must sort.
    return [...node.children].reverse().map(([name, child]) => [name, this.typeOfEntry(child)]);
  }

  async readFile(path: string): Promise<Uint8Array> {
    this.enter('readFile', path);
    const node = this.resolve(path);
    if (node.kind === 'dir') throw new FsError('FileIsADirectory', `is a directory: ${path}`);
    return node.kind === 'file' ? node.data.slice() : new Uint8Array();
  }

  async writeFile(path: string, content: Uint8Array): Promise<void> {
    this.enter('writeFile', path);
    const { parent, name } = this.parentFor(path, false);
    const existing = parent.children.get(name);
    if (existing?.kind === 'dir') throw new FsError('FileIsADirectory', `is a directory: ${path}`);
    if (existing?.kind === 'link') {
      const target = this.resolve(path);
      if (target.kind !== 'file') throw new FsError('FileIsADirectory', `is a directory: ${path}`);
      target.data = content.slice();
      target.mtime = this.tick();
      return;
    }
    parent.children.set(name, { kind: 'file', data: content.slice(), mtime: this.tick() });
  }

  async delete(path: string, options: { recursive: boolean }): Promise<void> {
    this.enter('delete', path);
    if (split(path).length === 0) {
      this.rootMissing = true;
      return;
    }
    const { parent, name } = this.parentFor(path, false);
    const node = parent.children.get(name);
    if (node === undefined) throw new FsError('FileNotFound', `no such file: ${path}`);
    if (node.kind === 'dir' && node.children.size > 0 && !options.recursive) {
      throw new FsError('Unknown', `directory not empty: ${path}`);
    }
    parent.children.delete(name);
  }

  async rename(source: string, target: string, options: { overwrite: boolean }): Promise<void> {
    this.enter('rename', `${source} -> ${target}`);
    const from = this.parentFor(source, false);
    const node = from.parent.children.get(from.name);
    if (node === undefined) throw new FsError('FileNotFound', `no such file: ${source}`);
    const to = this.parentFor(target, false);
    const existing = to.parent.children.get(to.name);
    if (existing !== undefined) {
      if (!options.overwrite) throw new FsError('FileExists', `exists: ${target}`);
      if (existing.kind === 'dir') throw new FsError('FileIsADirectory', `is a directory: ${target}`);
    }
    if (node.kind === 'dir' && (target === source || target.startsWith(source + '/'))) {
      throw new FsError('Unknown', `cannot move a folder into itself: ${source}`);
    }
    from.parent.children.delete(from.name);
    to.parent.children.set(to.name, node);
  }

  async createDirectory(path: string): Promise<void> {
    this.enter('createDirectory', path);
    this.rootMissing = false;
    let dir = this.rootDir();
    let walked = '';
    for (const part of split(path)) {
      walked = walked ? `${walked}/${part}` : part;
      let next = dir.children.get(part);
      if (next === undefined) {
        next = { kind: 'dir', children: new Map(), mtime: this.tick() };
        dir.children.set(part, next);
      }
      const resolved = next.kind === 'link' ? this.resolve(walked) : next;
      if (resolved.kind !== 'dir') throw new FsError('FileExists', `exists and is not a directory: ${walked}`);
      dir = resolved;
    }
  }

  // ---- internals ----------------------------------------------------------------------------

  private enter(op: FsOperation, path: string): void {
    this.log.push([op, path]);
    const i = this.faults.findIndex((f) => f.op === op && (f.match === undefined || f.match(path)));
    if (i >= 0) {
      const [fault] = this.faults.splice(i, 1);
      throw new FsError(fault.code, `injected ${fault.code} for /host/secret/path/${path}`);
    }
  }

  /** When set, modification times come from this clock (ms) instead of a counter near the epoch. */
  wallClock: (() => number) | undefined;

  private tick(): number {
    if (this.wallClock) return this.wallClock();
    return this.clock++;
  }

  private rootDir(): Extract<Node, { kind: 'dir' }> {
    if (this.root.kind !== 'dir') throw new Error('corrupt root');
    return this.root;
  }

  private typeOfEntry(node: Node): FileType {
    if (node.kind === 'dir') return FileType.Directory;
    if (node.kind === 'file') return FileType.File;
    try {
      const target = this.resolveFrom(node.target, 0);
      return (target.kind === 'dir' ? FileType.Directory : FileType.File) | FileType.SymbolicLink;
    } catch {
      return FileType.SymbolicLink;
    }
  }

  /** The node at `path`, following links everywhere. */
  private resolve(path: string): Exclude<Node, { kind: 'link' }> {
    return this.resolveFrom(path, 0);
  }

  private resolveFrom(path: string, hops: number): Exclude<Node, { kind: 'link' }> {
    if (this.rootMissing) throw new FsError('FileNotFound', `no such file: ${path}`);
    const parts = split(path);
    let node: Node = this.rootDir();
    for (let i = 0; i < parts.length; i++) {
      if (node.kind !== 'dir') throw new FsError('FileNotADirectory', `not a directory: ${path}`);
      const child: Node | undefined = node.children.get(parts[i]);
      if (child === undefined) throw new FsError('FileNotFound', `no such file: ${path}`);
      if (child.kind === 'link') {
        if (hops >= MAX_LINK_HOPS) throw new FsError('Unknown', `too many links: ${path}`);
        const rest = parts.slice(i + 1).join('/');
        return this.resolveFrom(rest ? `${child.target}/${rest}` : child.target, hops + 1);
      }
      node = child;
    }
    return node as Exclude<Node, { kind: 'link' }>;
  }

  /** The final node at `path` without following a final link (middle links are followed). */
  private lookupNoFollow(path: string, throwMissing = false): Node | undefined {
    try {
      const parts = split(path);
      if (parts.length === 0) return this.rootMissing ? undefined : this.rootDir();
      const parent = this.resolve(parts.slice(0, -1).join('/'));
      if (parent.kind !== 'dir') throw new FsError('FileNotADirectory', `not a directory: ${path}`);
      const node = parent.children.get(parts[parts.length - 1]);
      if (node === undefined && throwMissing) throw new FsError('FileNotFound', `no such file: ${path}`);
      return node;
    } catch (e) {
      if (throwMissing) throw e;
      return undefined;
    }
  }

  /** The parent folder of `path` (following links) and the final name. */
  private parentFor(path: string, forSeed: boolean): { parent: Extract<Node, { kind: 'dir' }>; name: string } {
    const parts = split(path);
    if (parts.length === 0) throw new FsError('Unknown', 'the root has no parent');
    const parentPath = parts.slice(0, -1).join('/');
    const parent = forSeed && this.rootMissing ? this.rootDir() : this.resolve(parentPath);
    if (parent.kind !== 'dir') throw new FsError('FileNotADirectory', `not a directory: ${parentPath}`);
    return { parent, name: parts[parts.length - 1] };
  }
}

function split(path: string): string[] {
  return path === '' ? [] : path.split('/');
}
