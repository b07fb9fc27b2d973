/**
 * The text editor tool's view of documents open in VS Code (EditorDocuments): reads take the
 * document's text, unsaved changes included; writes go through a WorkspaceEdit on the document,
 * so they join its undo stack (Ctrl+Z undoes Claude's edit) and never overwrite the user's
 * unsaved work. A document that had no unsaved changes is saved afterwards, so disk and editor
 * agree; one that had them stays dirty: saving would write the user's unfinished work.
 */
import * as vscode from 'vscode';
import type { EditorDocuments } from '../core/workspace/documents';

export class VsCodeEditorDocuments implements EditorDocuments {
  constructor(private readonly folder: vscode.Uri) {}

  openText(rel: string): string | undefined {
    return this.find(rel)?.getText();
  }

  async replace(rel: string, before: string, after: string): Promise<'applied' | 'changed' | 'closed'> {
    const document = this.find(rel);
    if (!document) return 'closed';
    if (document.getText() !== before) return 'changed';
    const wasDirty = document.isDirty;
    // Only the changed span is replaced: cursors, folds and markers elsewhere stay where they are.
    let start = 0;
    while (start < before.length && start < after.length && before[start] === after[start]) start++;
    let endBefore = before.length;
    let endAfter = after.length;
    while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
      endBefore--;
      endAfter--;
    }
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(document.positionAt(start), document.positionAt(endBefore)), after.slice(start, endAfter));
    if (!(await vscode.workspace.applyEdit(edit))) return 'changed';
    if (!wasDirty) await document.save();
    return 'applied';
  }

  private find(rel: string): vscode.TextDocument | undefined {
    const uri = vscode.Uri.joinPath(this.folder, ...rel.split('/')).toString();
    return vscode.workspace.textDocuments.find((d) => !d.isClosed && d.uri.toString() === uri);
  }
}
