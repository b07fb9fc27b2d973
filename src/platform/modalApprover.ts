/**
 * The minimal ToolApprover: a modal notification with Allow Once / Always Allow / Deny. It keeps
 * the tools usable end to end until the chat asks on the call's own card; swap it in
 * createWorkspaceTools' caller. Dismissing the dialog (Escape) denies.
 */
import * as vscode from 'vscode';
import type { ApprovalDecision, ApprovalRequest, ToolApprover } from '../core/agent/tools';

export function createModalApprover(): ToolApprover {
  return {
    async ask(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalDecision> {
      if (signal?.aborted) return 'deny';
      const once = 'Allow Once';
      const deny = 'Deny';
      const always = request.kind === 'command' && request.prefixes.length > 0 ? `Always Allow ${request.prefixes.map((p) => `"${p}"`).join(', ')}` : undefined;
      const message = request.kind === 'command' ? 'Claude wants to run a command in this workspace.' : `Claude wants to edit ${request.path}.`;
      const detail =
        request.kind === 'command'
          ? `${request.command}${always ? '\n\n"Always Allow" remembers the prefix for this workspace.' : ''}`
          : `${request.before === undefined ? 'New file' : 'Changes an existing file'} (${request.after.length} characters).`;
      const choice = await vscode.window.showInformationMessage(message, { modal: true, detail }, once, ...(always ? [always] : []), deny);
      if (signal?.aborted || choice === undefined || choice === deny) return 'deny';
      return choice === once ? 'once' : 'always';
    },
  };
}
