/**
 * The workspace folder's root files for startup detection: every name, and the text of the few
 * files the detector reads (package.json, Makefile, ...), skipping big or unreadable ones.
 */
import * as vscode from 'vscode';
import { MAX_STARTUP_FILE_BYTES, wantsContent, type WorkspaceFile } from '../../core/session/startupDetection';

export async function readWorkspaceRootFiles(folder: vscode.Uri): Promise<WorkspaceFile[]> {
  const entries = await vscode.workspace.fs.readDirectory(folder);
  const files = entries.filter(([, type]) => type & vscode.FileType.File).map(([name]) => name);
  return Promise.all(files.map(async (path) => ({ path, content: wantsContent(path) ? await readSmallText(vscode.Uri.joinPath(folder, path)) : undefined })));
}

async function readSmallText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    if ((await vscode.workspace.fs.stat(uri)).size > MAX_STARTUP_FILE_BYTES) return undefined;
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}
