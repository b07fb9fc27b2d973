import * as vscode from 'vscode';
import { focusViewCommand, OPTIONAL_COMMANDS, VIEWS } from '../../platform/ids';
import type { Logger } from '../../platform/logger';
import { expiredMessage } from '../../views/expiryWords';
import { restoreSwept, type RestoreOutcome, type SweepResult } from './expirySweep';

const RESTORE = 'Restore';
const SHOW_CHANGES = 'Show Changes';

/**
 * Tells the user what a sweep deleted, without a modal: "3 memories expired (unused for 90
 * days)" with Restore (all of them come back) and Show Changes (the review feed when it is
 * installed, else the Memory tree).
 */
export async function announceExpired(result: SweepResult, log: Logger, afterRestore: () => Promise<void>): Promise<void> {
  const choice = await vscode.window.showInformationMessage(expiredMessage(result.count, result.days), RESTORE, SHOW_CHANGES);
  if (choice === RESTORE) {
    const outcome = await restoreSwept(result, log);
    await afterRestore();
    void reportRestore(outcome);
  } else if (choice === SHOW_CHANGES) {
    await showChanges();
  }
}

/** The "Memory Changes" feed if some feature contributes it, else the Memory tree. */
export async function showChanges(): Promise<void> {
  const commands = await vscode.commands.getCommands(true);
  const command = commands.includes(OPTIONAL_COMMANDS.focusChanges) ? OPTIONAL_COMMANDS.focusChanges : focusViewCommand(VIEWS.memoryTree);
  await vscode.commands.executeCommand(command);
}

function reportRestore(outcome: RestoreOutcome): Thenable<unknown> {
  const { restored, skipped } = outcome;
  const done = `Restored ${restored.length} ${restored.length === 1 ? 'memory' : 'memories'}.`;
  if (skipped.length === 0) return vscode.window.showInformationMessage(done);
  const why = skipped.map((s) => `${s.path}: ${s.why}`).join('; ');
  return vscode.window.showWarningMessage(`${done} Not restored: ${why}`);
}
