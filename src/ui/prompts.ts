import * as vscode from 'vscode';

/**
 * The questions commands ask the user. The real implementation is VS Code's own UI; integration
 * tests swap in scripted answers through the extension's test API, so the command code under
 * test is exactly the code users run.
 */
export interface UserPrompts {
  inputBox(options: vscode.InputBoxOptions): Thenable<string | undefined>;
  /** A modal yes/no; true only when the user chose `confirmLabel`. */
  confirm(message: string, detail: string, confirmLabel: string): Thenable<boolean>;
  pickWorkspaceFolder(placeHolder: string): Thenable<vscode.WorkspaceFolder | undefined>;
}

export const windowPrompts: UserPrompts = {
  inputBox: (options) => vscode.window.showInputBox(options),
  confirm: async (message, detail, confirmLabel) =>
    (await vscode.window.showWarningMessage(message, { modal: true, detail }, confirmLabel)) === confirmLabel,
  pickWorkspaceFolder: (placeHolder) => vscode.window.showWorkspaceFolderPick({ placeHolder }),
};

/** Indirection so the test API can replace the prompts for a test and restore them after. */
export class PromptsHolder implements UserPrompts {
  readonly defaults: UserPrompts = windowPrompts;
  current: UserPrompts = windowPrompts;

  inputBox(options: vscode.InputBoxOptions): Thenable<string | undefined> {
    return this.current.inputBox(options);
  }

  confirm(message: string, detail: string, confirmLabel: string): Thenable<boolean> {
    return this.current.confirm(message, detail, confirmLabel);
  }

  pickWorkspaceFolder(placeHolder: string): Thenable<vscode.WorkspaceFolder | undefined> {
    return this.current.pickWorkspaceFolder(placeHolder);
  }
}
