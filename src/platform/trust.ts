import * as vscode from 'vscode';

/**
 * Workspace trust as the extension sees it. In an untrusted workspace memory files may carry a
 * stranger's instructions, so the agent neither runs nor writes, and the tree is read-only.
 */
export class WorkspaceTrust {
  readonly onDidGrant: vscode.Event<void> = vscode.workspace.onDidGrantWorkspaceTrust;

  isTrusted(): boolean {
    return vscode.workspace.isTrusted;
  }

  /** For user-initiated changes: says why nothing happens and returns false when untrusted. */
  requireTrust(action: string): boolean {
    if (this.isTrusted()) return true;
    void vscode.window
      .showWarningMessage(`${action} is not available in Restricted Mode: trust this workspace to let Claude Memory change files.`, 'Manage Workspace Trust')
      .then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.trust.manage');
      });
    return false;
  }
}
