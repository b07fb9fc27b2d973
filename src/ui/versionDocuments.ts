/**
 * The one read-only document scheme for versions of memory files: Show History's and Recently
 * Deleted's documents and the Memory Changes diffs all open `claude-memory-version:` Uris, served
 * by one content provider from the store's history. A content provider's documents cannot be
 * edited or saved: a version changes only by restoring it.
 */
import * as vscode from 'vscode';
import { URI_SCHEMES } from '../platform/ids';
import type { MemoryStore, MemoryStores } from '../platform/memoryStores';
import { NO_VERSION, parseVersionDocumentPath, versionDocumentPath } from './versionPaths';

/** A version of a memory file, as a read-only document's Uri names it. */
export interface VersionRef {
  readonly store: MemoryStore;
  readonly version: number;
  /** Store-relative path of the file the version belongs to (where a restore writes). */
  readonly rel: string;
}

/** The read-only document of `version` of the file at `rel` in `store` (NO_VERSION: an empty side of a diff). */
export function versionUri(store: MemoryStore, version: number, rel: string): vscode.Uri {
  return vscode.Uri.from({ scheme: URI_SCHEMES.version, path: versionDocumentPath(store.folder.index, version, rel) });
}

/** The version a document of our scheme shows, or undefined for any other Uri (and for an empty side). */
export function versionOfUri(stores: MemoryStores, uri: vscode.Uri): VersionRef | undefined {
  const ref = refOf(stores, uri);
  return ref?.version === NO_VERSION ? undefined : ref;
}

function refOf(stores: MemoryStores, uri: vscode.Uri): VersionRef | undefined {
  if (uri.scheme !== URI_SCHEMES.version) return undefined;
  const parsed = parseVersionDocumentPath(uri.path);
  const folder = parsed && vscode.workspace.workspaceFolders?.[parsed.folderIndex];
  const store = folder && stores.forFolder(folder);
  return parsed && store ? { store, version: parsed.version, rel: parsed.rel } : undefined;
}

/** Serves the content of versions from the store's history. */
export class VersionDocumentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly stores: MemoryStores) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ref = refOf(this.stores, uri);
    if (!ref) return '(This version belongs to a workspace folder that is no longer open.)';
    if (ref.version === NO_VERSION) return '';
    const bytes = await ref.store.engine.versionContent(ref.version);
    if (bytes === undefined) return `(Version ${ref.version} is no longer in the history: retention has dropped it.)`;
    return new TextDecoder().decode(bytes);
  }
}

/** Registers the provider of the version scheme (once, for every feature that opens versions). */
export function registerVersionDocuments(stores: MemoryStores): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(URI_SCHEMES.version, new VersionDocumentProvider(stores));
}
