import * as vscode from 'vscode';
import { focusViewCommand, VIEWS } from '../../platform/ids';
import type { Logger } from '../../platform/logger';
import { expiredToast } from './expiryWords';
import { restoreSwept, type RestoreOutcome, type SweepResult } from './expirySweep';

const RESTORE = 'Restore';
const SHOW_CHANGES = 'Show Changes';

/**
 * Tells the user what a sweep deleted, without a modal: "3 memories expired (unused for 90
 * days): a.md, b.md, c.md" with Restore (all of them come back) and Show Changes (the review feed when it is
 * installed, else the Memory tree).
 */
export async function announceExpired(result: SweepResult, log: Logger, afterRestore: () => Promise<void>): Promise<void> {
  const paths = result.stores.flatMap((s) => s.files.map((f) => f.rel));
  const choice = await vscode.window.showInformationMessage(expiredToast(result.count, result.days, paths), RESTORE, SHOW_CHANGES);
  if (choice === RESTORE) {
    const outcome = await restoreSwept(result, log);
    await afterRestore();
    void reportRestore(outcome);
  } else if (choice === SHOW_CHANGES) {
    await showChanges();
  }
}

/** The "Memory Changes" feed, where the sweep's row offers Restore too. */
export async function showChanges(): Promise<void> {
  await vscode.commands.executeCommand(focusViewCommand(VIEWS.changes));
}

function reportRestore(outcome: RestoreOutcome): Thenable<unknown> {
  const { restored, skipped } = outcome;
  const done = `Restored ${restored.length} ${restored.length === 1 ? 'memory' : 'memories'}.`;
  if (skipped.length === 0) return vscode.window.showInformationMessage(done);
  const why = skipped.map((s) => `${s.path}: ${s.why}`).join('; ');
  return vscode.window.showWarningMessage(`${done} Not restored: ${why}`);
}
