/**
 * A change's diff: the file's previous version ↔ this version, both read from the store's history
 * by a read-only content provider (neither side can be edited or saved), in VS Code's diff editor.
 */
import * as vscode from 'vscode';
import { describeAuthor, describeOp } from '../../core/memory/history/describe';
import type { HistoryEntry } from '../../core/memory/history/types';
import type { MemoryStores } from '../../platform/memoryStores';
import { diffSides } from './changeFeedModel';

export const CHANGE_DIFF_SCHEME = 'claude-memory-change';

type Side = 'before' | 'after';

export class ChangeDiffContent implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly registration: vscode.Disposable;

  constructor(private readonly stores: MemoryStores) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(CHANGE_DIFF_SCHEME, this);
  }

  /** `claude-memory-change:/<side>/<version>/<file name>?<folder uri>`. */
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const [side, versionText] = uri.path.split('/').filter((s) => s !== '');
    const store = this.stores.forFolder(vscode.Uri.parse(uri.query));
    const version = Number(versionText);
    if (store === undefined || !Number.isSafeInteger(version)) return '';
    const history = await store.engine.history();
    const entry = history.find((e) => e.version === version);
    if (entry === undefined) return '(this version is no longer in the history)';
    const sides = diffSides(history, entry);
    const shown = side === 'before' ? sides.before : sides.after;
    if (shown === undefined) return '';
    const bytes = await store.engine.versionContent(shown.version);
    return bytes === undefined ? '(this content is no longer in the history)' : new TextDecoder().decode(bytes);
  }

  /** Opens the diff of `entry` in the store of `folder`. */
  async open(folder: vscode.Uri, entry: HistoryEntry): Promise<void> {
    const store = this.stores.forFolder(folder);
    if (store === undefined) return;
    const sides = diffSides(await store.engine.history(), entry);
    const uri = (side: Side, path: string) =>
      // The file name at the end keeps the file's language (highlighting).
      vscode.Uri.from({ scheme: CHANGE_DIFF_SCHEME, path: `/${side}/${entry.version}/${path.slice(path.lastIndexOf('/') + 1)}`, query: folder.toString() });
    const what = entry.op === 'rename' ? `${sides.beforePath} → ${sides.afterPath}` : entry.path;
    const title = `${what}: ${describeOp({ op: entry.op })} by ${describeAuthor(entry.author)} (v${entry.version})`;
    await vscode.commands.executeCommand('vscode.diff', uri('before', sides.beforePath), uri('after', sides.afterPath), title, { preview: true });
  }

  dispose(): void {
    this.registration.dispose();
  }
}
