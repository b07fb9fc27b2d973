import { promises as fsp } from 'fs';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { FileStat, FileType, FsError, FsErrorCode, invalidStorePathReason, MemoryFileSystem, LINKED_ROOT } from '../core/memory/fileSystem';
import { NodeMemoryFileSystem } from './node/nodeFileSystem';
import type { OwnChangeScope } from './ownWrites';

export interface WorkspaceMemoryFileSystemOptions {
  /** Consulted before every change; false (e.g. an untrusted workspace) makes writes fail with NoPermissions. */
  canWrite?: () => boolean;
  /** Default true: new local files are created owner-only (memory). False for workspace source files. */
  ownerOnly?: boolean;
  /** Told before each change this file system makes (`subtree`: a delete or rename, which also changes what is below). */
  willChange?: (uri: vscode.Uri, scope: OwnChangeScope) => void;
}

/**
 * The memory store over `vscode.workspace.fs`, rooted at `<workspace folder>/<memory folder>`.
 * Works for any scheme a file-system provider serves (local, remote, virtual), so Claude's memory
 * follows the workspace wherever it lives.
 */
export class WorkspaceMemoryFileSystem implements MemoryFileSystem {
  /**
   * On a `file:` store (local, and remote/WSL/container too: the extension host runs where the
   * files are) the history journal is appended and followed by offset through the Node adapter,
   * which confines itself the same way (no link out of the store, O_NOFOLLOW, never creates).
   * workspace.fs has no append: elsewhere SafeStore reads and rewrites the segment instead.
   */
  readonly append?: (path: string, data: Uint8Array) => Promise<void>;
  readonly readFrom?: (path: string, offset: number) => Promise<Uint8Array>;

  constructor(
    readonly root: vscode.Uri,
    private readonly options: WorkspaceMemoryFileSystemOptions = {},
  ) {
    if (root.scheme === 'file') {
      const local = new NodeMemoryFileSystem(root.fsPath, { ownerOnly: options.ownerOnly !== false });
      this.append = async (path, data) => {
        this.assertWritable();
        await this.assertRootIsFolder();
        this.willChange(this.uriOf(path));
        await local.append(path, data);
      };
      this.readFrom = async (path, offset) => {
        this.uriOf(path);
        return local.readFrom(path, offset);
      };
    }
  }

  /** The Uri of a store-relative path; refuses anything that is not a canonical relative path. */
  uriOf(relPath: string): vscode.Uri {
    const reason = invalidStorePathReason(relPath);
    if (reason !== undefined) throw new FsError('NoPermissions', `refused store path (${reason})`);
    return relPath === '' ? this.root : vscode.Uri.joinPath(this.root, ...relPath.split('/'));
  }

  async stat(path: string): Promise<FileStat> {
    const uri = this.uriOf(path);
    const s = await this.call(path, () => vscode.workspace.fs.stat(uri));
    return { type: s.type as number as FileType, size: s.size, mtime: s.mtime, ctime: s.ctime, ...linksOf(uri) };
  }

  async readDirectory(path: string): Promise<[string, FileType][]> {
    const entries = await this.call(path, () => vscode.workspace.fs.readDirectory(this.uriOf(path)));
    return entries.map(([name, type]) => [name, type as number as FileType]);
  }

  readFile(path: string): Promise<Uint8Array> {
    return this.call(path, () => vscode.workspace.fs.readFile(this.uriOf(path)));
  }

  async writeFile(path: string, content: Uint8Array): Promise<void> {
    this.assertWritable();
    await this.assertRootIsFolder();
    const uri = this.uriOf(path);
    this.willChange(uri);
    await this.call(path, async () => {
      // workspace.fs.writeFile creates missing parents; the engine's contract says it must not.
      const parent = vscode.Uri.joinPath(uri, '..');
      const parentStat = await vscode.workspace.fs.stat(parent);
      if (!(parentStat.type & vscode.FileType.Directory)) throw new FsError('FileNotADirectory', 'parent is not a folder');
      if (uri.scheme === 'file' && this.options.ownerOnly !== false) await createOwnerOnly(uri.fsPath);
      await vscode.workspace.fs.writeFile(uri, content);
    });
  }

  async delete(path: string, options: { recursive: boolean }): Promise<void> {
    this.assertWritable();
    await this.assertRootIsFolder();
    const uri = this.uriOf(path);
    this.willChange(uri, 'subtree');
    await this.call(path, () => vscode.workspace.fs.delete(uri, { recursive: options.recursive, useTrash: false }));
  }

  /**
   * A rename over a file that is open in an editor (the atomic write's last step) becomes an
   * in-place write of the new content: a rename replaces the file, and code-server closes the
   * editor of a file that was replaced that way. Written in place, the open document stays open
   * and reloads; if it has unsaved changes VS Code keeps them and reports the conflict on save.
   */
  async rename(source: string, target: string, options: { overwrite: boolean }): Promise<void> {
    this.assertWritable();
    await this.assertRootIsFolder();
    const from = this.uriOf(source);
    const to = this.uriOf(target);
    this.willChange(from, 'subtree');
    this.willChange(to, 'subtree');
    await this.call(source, async () => {
      if (options.overwrite && isOpenInEditor(to) && (await isFile(to))) {
        await vscode.workspace.fs.writeFile(to, await vscode.workspace.fs.readFile(from));
        await vscode.workspace.fs.delete(from, { useTrash: false });
        return;
      }
      await vscode.workspace.fs.rename(from, to, options);
    });
  }

  async createDirectory(path: string): Promise<void> {
    this.assertWritable();
    await this.assertRootIsFolder();
    const uri = this.uriOf(path);
    this.willChange(uri);
    await this.call(path, () => vscode.workspace.fs.createDirectory(uri));
  }

  private willChange(uri: vscode.Uri, scope: OwnChangeScope = 'place'): void {
    this.options.willChange?.(uri, scope);
  }

  /**
   * Nothing is written through a memory folder that is a symbolic link (one a repository ships,
   * `.claude-memories -> ../elsewhere`): on disk the link itself is looked at, elsewhere what the
   * file system provider says of it.
   */
  private async assertRootIsFolder(): Promise<void> {
    if (this.root.scheme === 'file') {
      const stat = fs.lstatSync(this.root.fsPath, { throwIfNoEntry: false });
      if (stat?.isSymbolicLink()) throw new FsError('NoPermissions', LINKED_ROOT);
      return;
    }
    let type: vscode.FileType;
    try {
      type = (await vscode.workspace.fs.stat(this.root)).type;
    } catch {
      return; // Not there yet: createDirectory makes it.
    }
    if (type & vscode.FileType.SymbolicLink) throw new FsError('NoPermissions', LINKED_ROOT);
  }

  private assertWritable(): void {
    if (this.options.canWrite && !this.options.canWrite()) {
      throw new FsError('NoPermissions', 'memory is read-only in an untrusted workspace');
    }
  }

  private async call<T>(path: string, op: () => Thenable<T> | Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (e) {
      throw toFsError(e, path);
    }
  }
}

/** True when `uri` is loaded as a text document or shown in an editor tab. */
export function isOpenInEditor(uri: vscode.Uri): boolean {
  const key = uri.toString();
  if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === key)) return true;
  return vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === key));
}

async function isFile(uri: vscode.Uri): Promise<boolean> {
  try {
    return ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.File) !== 0;
  } catch {
    return false;
  }
}

/**
 * On a local disk, new memory files are created owner-only (0600) before any content lands, so
 * a permissive umask never exposes them; workspace.fs itself has no way to set a mode.
 */
async function createOwnerOnly(fsPath: string): Promise<void> {
  try {
    await fsp.writeFile(fsPath, new Uint8Array(), { mode: 0o600, flag: 'wx' });
  } catch {
    // EEXIST: the file is being replaced and keeps its mode. Anything else is reported by the real write.
  }
}

const KNOWN_CODES: readonly FsErrorCode[] = ['FileNotFound', 'FileExists', 'FileNotADirectory', 'FileIsADirectory', 'NoPermissions', 'Unavailable'];

/** Maps what workspace.fs throws (FileSystemError, sometimes only its name) to an FsError. */
export function toFsError(e: unknown, path: string): FsError {
  if (e instanceof FsError) return e;
  const code = (e as { code?: unknown })?.code;
  const name = String((e as { name?: unknown })?.name ?? '');
  const message = `${path || '/'}: ${(e as Error)?.message ?? String(e)}`;
  if (typeof code === 'string' && (KNOWN_CODES as readonly string[]).includes(code)) return new FsError(code as FsErrorCode, message);
  // FileSystemErrors that crossed the RPC boundary may carry only a name such as "EntryNotFound (FileSystemError)".
  const byName: [RegExp, FsErrorCode][] = [
    [/EntryNotFound|ENOENT/, 'FileNotFound'],
    [/EntryExists|EEXIST/, 'FileExists'],
    [/EntryNotADirectory|ENOTDIR/, 'FileNotADirectory'],
    [/EntryIsADirectory|EISDIR/, 'FileIsADirectory'],
    [/NoPermissions|EACCES|EPERM/, 'NoPermissions'],
    [/Unavailable/, 'Unavailable'],
  ];
  for (const [pattern, mapped] of byName) if (pattern.test(name) || (typeof code === 'string' && pattern.test(code))) return new FsError(mapped, message);
  return new FsError('Unknown', message);
}

/** Hard links of a file on disk (vscode.workspace.fs does not report them). */
function linksOf(uri: vscode.Uri): { links?: number } {
  if (uri.scheme !== 'file') return {};
  try {
    return { links: fs.lstatSync(uri.fsPath).nlink };
  } catch {
    return {};
  }
}
