import * as vscode from 'vscode';

/** The readable templates shipped in media/templates/ (see each file's leading comment). */
export type TemplateName = 'session-routine.md' | 'progress.md' | 'startup.md' | 'initializer-prompt.md';

export async function readTemplate(extensionUri: vscode.Uri, name: TemplateName): Promise<string> {
  const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, 'media', 'templates', name));
  return new TextDecoder().decode(bytes);
}
