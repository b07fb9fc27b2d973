/** What a code block's toolbar in the chat does: Copy, Insert at Cursor, New File. */
import * as vscode from 'vscode';
import type { CodeAction } from './shared/protocol';

export async function runCodeAction(action: CodeAction, code: string, language: string | undefined): Promise<void> {
  switch (action) {
    case 'copy':
      // Through the extension host rather than the webview's clipboard API: it works the same in
      // desktop VS Code, in the browser and in remote windows.
      await vscode.env.clipboard.writeText(code);
      vscode.window.setStatusBarMessage('$(check) Code copied', 2000);
      return;
    case 'insert': {
      const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
      if (!editor) {
        void vscode.window.showInformationMessage('Open a file and place the cursor where the code should go, then choose Insert at Cursor again.');
        return;
      }
      // Replaces the selections like a paste, so Ctrl+Z undoes it in one step.
      await editor.edit((edit) => {
        for (const selection of editor.selections) edit.replace(selection, code);
      });
      await vscode.window.showTextDocument(editor.document, editor.viewColumn);
      return;
    }
    case 'newFile': {
      const languages = await vscode.languages.getLanguages();
      const id = language ? languageIdOf(language.toLowerCase(), languages) : undefined;
      const document = await vscode.workspace.openTextDocument({ content: code, ...(id ? { language: id } : {}) });
      await vscode.window.showTextDocument(document, { preview: false });
      return;
    }
  }
}

/** Markdown fence names that differ from VS Code's language ids. */
const FENCE_ALIASES: Record<string, string> = {
  ts: 'typescript',
  js: 'javascript',
  sh: 'shellscript',
  bash: 'shellscript',
  shell: 'shellscript',
  zsh: 'shellscript',
  py: 'python',
  md: 'markdown',
  yml: 'yaml',
  rs: 'rust',
  'c++': 'cpp',
};

function languageIdOf(fence: string, known: readonly string[]): string | undefined {
  const id = FENCE_ALIASES[fence] ?? fence;
  return known.includes(id) ? id : undefined;
}
