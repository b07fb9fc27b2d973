/**
 * Accept and Reject in the title bar of the diff an edit card's Open Diff shows while the edit
 * waits for an answer (ask mode): the same answers as the card's buttons, where the user reads
 * the change. A context key says when the active tab is such a diff; the commands act on that
 * tab's card, then close the diff.
 */
import * as vscode from 'vscode';
import { COMMANDS, CONTEXT_KEYS } from '../../platform/ids';
import type { ChatController } from './chatController';
import { EDIT_DIFF_SCHEME } from './chatEdits';

/** The card id of a diff tab Open Diff made (`claude-memory-edit:/<card id>/<side>/<name>`). */
function cardOfTab(tab: vscode.Tab | undefined): string | undefined {
  const input = tab?.input;
  if (!(input instanceof vscode.TabInputTextDiff) || input.modified.scheme !== EDIT_DIFF_SCHEME) return undefined;
  return input.modified.path.split('/').filter((s) => s !== '')[0];
}

/** Whether card `entryId` asks to accept an edit now. */
function waitsForAnswer(controller: ChatController, entryId: string): boolean {
  const entry = controller.snapshot().entries.find((e) => e.id === entryId);
  return entry?.kind === 'tool' && entry.approval?.kind === 'edit' && entry.approval.state === 'pending';
}

export function registerEditDiffActions(controller: ChatController, log: { info(message: string): void }): vscode.Disposable {
  let shown: boolean | undefined;
  const update = (): void => {
    const entryId = cardOfTab(vscode.window.tabGroups.activeTabGroup.activeTab);
    const active = entryId !== undefined && waitsForAnswer(controller, entryId);
    if (active === shown) return;
    shown = active;
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.pendingEditDiffActive, active);
  };
  const answer = async (decision: 'once' | 'deny'): Promise<void> => {
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    const entryId = cardOfTab(tab);
    if (entryId === undefined || !controller.approve(entryId, decision)) {
      void vscode.window.showInformationMessage('This edit was already answered.');
      return;
    }
    log.info(`the edit of card ${entryId} was ${decision === 'once' ? 'accepted' : 'rejected'} from its diff's title bar`);
    if (tab) await vscode.window.tabGroups.close(tab);
  };
  update();
  return vscode.Disposable.from(
    vscode.window.tabGroups.onDidChangeTabs(update),
    vscode.window.tabGroups.onDidChangeTabGroups(update),
    // A card's question asked or answered reaches the transcript as its entry.
    controller.onPatch((patch) => {
      if (patch.type === 'entry' && patch.entry.kind === 'tool' && patch.entry.approval?.kind === 'edit') update();
    }),
    vscode.commands.registerCommand(COMMANDS.acceptEditInDiff, () => answer('once')),
    vscode.commands.registerCommand(COMMANDS.rejectEditInDiff, () => answer('deny')),
  );
}
