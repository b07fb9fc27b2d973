/**
 * Review of Claude's workspace edits from their chat cards: Open Diff shows before ↔ after in VS
 * Code's diff editor (both sides served read-only by a content provider, so neither can be edited
 * or saved by mistake), and Undo restores the before content, but only while the file still holds
 * exactly Claude's version: anything the user (or a later edit) changed since is never overwritten.
 */
import * as vscode from 'vscode';

/** The scheme of the diff's read-only sides. */
export const EDIT_DIFF_SCHEME = 'claude-memory-edit';

export interface EditRecord {
  readonly folder: vscode.WorkspaceFolder;
  /** Folder-relative, `/` separators. */
  readonly path: string;
  /** Undefined: the edit created the file. */
  readonly before: string | undefined;
  readonly after: string;
}

export type UndoResult = { ok: true } | { ok: false; reason: string };

export class ChatEdits implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly records = new Map<string, EditRecord>();
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(EDIT_DIFF_SCHEME, this);
  }

  /** Remembers the edit shown on card `entryId` (an applied edit, or one waiting for Accept). */
  record(entryId: string, edit: EditRecord): void {
    this.records.set(entryId, edit);
  }

  get(entryId: string): EditRecord | undefined {
    return this.records.get(entryId);
  }

  clear(): void {
    this.records.clear();
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const [entryId, side] = uri.path.split('/').filter((s) => s !== '');
    const edit = this.records.get(entryId);
    if (!edit) return '';
    return side === 'before' ? (edit.before ?? '') : edit.after;
  }

  async openDiff(entryId: string): Promise<boolean> {
    const edit = this.records.get(entryId);
    if (!edit) return false;
    const name = edit.path.slice(edit.path.lastIndexOf('/') + 1);
    // The file name at the end keeps the language (highlighting) of the file.
    const side = (which: string) => vscode.Uri.from({ scheme: EDIT_DIFF_SCHEME, path: `/${entryId}/${which}/${name}` });
    const title = `${edit.path}: ${edit.before === undefined ? 'created' : 'before ↔ after'} Claude's edit`;
    await vscode.commands.executeCommand('vscode.diff', side('before'), side('after'), title, { preview: true });
    return true;
  }

  /** Restores the file to its content before the edit (deletes a file the edit created). */
  async undo(entryId: string): Promise<UndoResult> {
    const edit = this.records.get(entryId);
    if (!edit) return { ok: false, reason: 'this edit is no longer known (the chat was reset).' };
    const uri = vscode.Uri.joinPath(edit.folder.uri, ...edit.path.split('/'));
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open?.isDirty) return { ok: false, reason: `${edit.path} has unsaved changes: save or revert them first, so nothing of yours is lost.` };
    let current: string;
    try {
      current = open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      return { ok: false, reason: `${edit.path} no longer exists.` };
    }
    if (current !== edit.after) return { ok: false, reason: `${edit.path} changed after Claude's edit; undoing would overwrite those changes.` };
    if (edit.before === undefined) {
      await vscode.workspace.fs.delete(uri, { useTrash: true });
    } else if (open) {
      // Through the document: the editor keeps its place and Ctrl+Z can redo Claude's edit.
      const all = new vscode.Range(open.positionAt(0), open.positionAt(current.length));
      const change = new vscode.WorkspaceEdit();
      change.replace(uri, all, edit.before);
      if (!(await vscode.workspace.applyEdit(change)) || !(await open.save())) return { ok: false, reason: `${edit.path} could not be written.` };
    } else {
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(edit.before));
    }
    return { ok: true };
  }

  dispose(): void {
    this.registration.dispose();
    this.records.clear();
  }
}
