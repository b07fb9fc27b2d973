/**
 * The change summary's VS Code side: the port ChangeSummary works through (the folder's
 * checkpoint store, its memory store, the modal question), the read-only documents of a file as
 * the base checkpoint holds it (`claude-memory-checkpoint:`), and what the summary's buttons do
 * (Open Diff, Keep, Undo, Keep All, Undo All).
 */
import * as vscode from 'vscode';
import type { CheckpointStore } from '../../core/checkpoints';
import { URI_SCHEMES } from '../../platform/ids';
import type { ExtensionServices } from '../../platform/services';
import { versionUri } from '../../ui/versionDocuments';
import { NO_VERSION } from '../../ui/versionPaths';
import type { ChangeSummary, ChangeSummaryPort, SummaryOutcome } from './changeSummary';
import type { SummaryAction } from './shared/protocol';
import type { SummaryRowKind } from './shared/changeSummary';

/** How long the status bar says what a Keep or Undo did. */
const DONE_MESSAGE_MS = 8_000;

function folderOf(uri: string): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === uri);
}

/** Memory Changes' review marks, as the change summary sets them (the changes feature's ChangeFeed has it). */
export interface MemoryReviews {
  markReviewed(key: string, versions: readonly number[]): Promise<void>;
}

export function changeSummaryPort(
  services: ExtensionServices,
  checkpoints: (folder: vscode.WorkspaceFolder) => Promise<CheckpointStore> | undefined,
  confirm: ChangeSummaryPort['confirm'],
  reviews?: MemoryReviews,
): ChangeSummaryPort {
  const decoder = new TextDecoder();
  return {
    checkpoints: (uri) => {
      const folder = folderOf(uri);
      return folder === undefined ? undefined : checkpoints(folder);
    },
    memory: (uri) => {
      const folder = folderOf(uri);
      if (folder === undefined || services.stores.forFolder(folder) === undefined) return undefined;
      // Looked up per call: a settings change rebuilds the stores.
      const store = () => services.stores.forFolder(folder);
      return {
        history: async () => (await store()?.engine.history()) ?? [],
        versionText: async (version) => {
          const bytes = await store()?.engine.versionContent(version);
          return bytes === undefined ? undefined : decoder.decode(bytes);
        },
        currentText: async (rel) => {
          const s = store();
          if (s === undefined) return undefined;
          try {
            return decoder.decode(await s.fs.readFile(rel));
          } catch {
            return undefined;
          }
        },
      };
    },
    confirm,
    // The store's review key is its folder's Uri string, as the summary's base names the folder.
    ...(reviews ? { markReviewed: (folder: string, versions: readonly number[]) => reviews.markReviewed(folder, versions) } : {}),
    log: services.logger('change summary'),
  };
}

/**
 * Serves a file as checkpoint `<id>` holds it: `claude-memory-checkpoint:/<folder index>/<id>/<path>`
 * (read-only; an empty document when the checkpoint did not have it).
 */
export class CheckpointDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly checkpoints: (folder: vscode.WorkspaceFolder) => Promise<CheckpointStore> | undefined) {}

  static uri(folder: vscode.WorkspaceFolder, checkpoint: number, path: string): vscode.Uri {
    return vscode.Uri.from({ scheme: URI_SCHEMES.checkpoint, path: `/${folder.index}/${checkpoint}/${path}` });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const match = /^\/(\d{1,4})\/(\d{1,9})\/(.+)$/.exec(uri.path);
    const folder = match ? vscode.workspace.workspaceFolders?.[Number(match[1])] : undefined;
    const store = folder ? this.checkpoints(folder) : undefined;
    if (!match || store === undefined) return '(This checkpoint belongs to a workspace folder that is no longer open.)';
    // Checkpoint 0: the empty side of a diff (a deleted file now).
    if (Number(match[2]) === 0) return '';
    try {
      const bytes = await (await store).fileAt(Number(match[2]), match[3]);
      return bytes === undefined ? '' : new TextDecoder().decode(bytes);
    } catch {
      return `(Checkpoint ${match[2]} is no longer kept.)`;
    }
  }
}

export function registerCheckpointDocuments(checkpoints: (folder: vscode.WorkspaceFolder) => Promise<CheckpointStore> | undefined): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(URI_SCHEMES.checkpoint, new CheckpointDocuments(checkpoints));
}

/** A row's Open Diff: the row as the base checkpoint had it ↔ the file now (the live file, editable). */
export async function openSummaryDiff(services: ExtensionServices, summary: ChangeSummary, kind: SummaryRowKind, path: string): Promise<boolean> {
  const sides = summary.diffSides(kind, path);
  const folder = sides ? folderOf(sides.folder) : undefined;
  if (!sides || !folder) return false;
  const name = kind === 'memory' ? `/memories/${path}` : path;
  const title = `${name}: ${sides.change === 'created' ? 'created' : sides.change === 'deleted' ? 'deleted' : 'changed'} since "${summary.view?.since ?? 'the checkpoint'}"`;
  let before: vscode.Uri;
  let after: vscode.Uri;
  if (kind === 'file') {
    before = CheckpointDocuments.uri(folder, sides.checkpoint, path);
    // A deleted file's right side is an empty document (the checkpoint has no such id).
    after = sides.change === 'deleted' ? CheckpointDocuments.uri(folder, 0, path) : vscode.Uri.joinPath(folder.uri, ...path.split('/'));
  } else {
    const store = services.stores.forFolder(folder);
    if (!store) return false;
    before = versionUri(store, sides.version ?? NO_VERSION, path);
    after = sides.change === 'deleted' ? versionUri(store, NO_VERSION, path) : store.fs.uriOf(path);
  }
  await vscode.commands.executeCommand('vscode.diff', before, after, title, { preview: true });
  return true;
}

/** What a summary row's button (or Keep All / Undo All) does, with what the user is told. */
export async function runSummaryAction(services: ExtensionServices, summary: ChangeSummary, action: SummaryAction, row: { kind: SummaryRowKind; path: string } | undefined): Promise<SummaryOutcome> {
  let outcome: SummaryOutcome;
  if (action === 'diff') {
    if (row && (await openSummaryDiff(services, summary, row.kind, row.path))) return { ok: true, message: '' };
    outcome = { ok: false, reason: 'This change is no longer in the summary.' };
  } else if (action === 'keep') {
    outcome = row ? await summary.keep(row.kind, row.path) : await summary.keepAll();
  } else {
    outcome = row ? await summary.undo(row.kind, row.path) : await summary.undoAll();
  }
  if (outcome.ok) vscode.window.setStatusBarMessage(`$(${action === 'keep' ? 'check' : 'discard'}) ${outcome.message}`, DONE_MESSAGE_MS);
  else if (!outcome.cancelled) void vscode.window.showWarningMessage(outcome.reason);
  return outcome;
}
