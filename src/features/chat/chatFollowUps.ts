/**
 * A click on a follow-up button under a message (Initialize's draft: "Review features.json",
 * "Resume Session"): followUpTarget.ts decides the command and the folder, this runs it. Review
 * opens features.json in the editor area, so the chat stays visible beside it.
 */
import * as vscode from 'vscode';
import type { ChatController } from './chatController';
import type { ChatFolder } from './chatPort';
import { followUpRun } from './followUpTarget';
import type { FollowUpAction } from './shared/protocol';

export async function runFollowUp(controller: Pick<ChatController, 'snapshot' | 'currentStore'>, folders: () => readonly ChatFolder[], entryId: string, action: FollowUpAction): Promise<void> {
  const run = followUpRun(controller.snapshot().entries, entryId, action, folders(), controller.currentStore()?.folder);
  if (!run.ok) {
    void vscode.window.showInformationMessage(run.reason);
    return;
  }
  await vscode.commands.executeCommand(run.command, ...run.args);
}
