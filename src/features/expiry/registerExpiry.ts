import * as vscode from 'vscode';
import { COMMANDS } from '../../platform/ids';
import type { ExtensionServices } from '../../platform/services';
import type { ExpiryViews } from './registerExpiryViews';
import type { MemoryTree } from '../memoryTree';
import type { UserPrompts } from '../../ui/prompts';
import { announceExpired } from './expiredNotice';
import { restoreSwept, type RestoreOutcome, type SweepResult } from './expirySweep';
import { ExpirySweeper } from './expirySweeper';
import { pinEntry } from './pinEntry';

/** Memory expiry for integration tests: the same functions the sweeps and the notification's buttons call. */
export interface ExpiryApi {
  readonly views: ExpiryViews;
  readonly sweeper: ExpirySweeper;
  /** What the notification's Restore does. */
  restore(result: SweepResult): Promise<RestoreOutcome>;
}

/** The expiry sweep (on opening, daily, on command), its notification, and Pin / Unpin. */
export function registerExpiry(context: vscode.ExtensionContext, services: ExtensionServices, tree: MemoryTree, views: ExpiryViews, prompts: UserPrompts): ExpiryApi {
  const log = services.logger('expiry');
  const refresh = () => views.expiry.refresh();
  const sweeper = new ExpirySweeper(services, context.workspaceState, (result) => {
    void refresh();
    void announceExpired(result, log, refresh);
  }, log);
  const ctx = { services, tree, prompts };
  context.subscriptions.push(
    sweeper,
    vscode.commands.registerCommand(COMMANDS.pin, (arg) => pinEntry(ctx, views.expiry, arg, true)),
    vscode.commands.registerCommand(COMMANDS.unpin, (arg) => pinEntry(ctx, views.expiry, arg, false)),
    vscode.commands.registerCommand(COMMANDS.expireNow, () => expireNow(services, sweeper)),
  );
  return { views, sweeper, restore: (result) => restoreSwept(result, log) };
}

/** The palette's "Expire Unused Memories Now": one sweep, saying why when none can run or nothing went. */
async function expireNow(services: ExtensionServices, sweeper: ExpirySweeper): Promise<SweepResult | undefined> {
  if (!services.trust.requireTrust('Memory expiry')) return undefined;
  const days = services.settings.get('expiryDays');
  if (days <= 0) {
    void vscode.window.showInformationMessage('Memory expiry is off (claudeMemory.expiry.days is 0).');
    return undefined;
  }
  const result = await sweeper.sweep('command');
  if (result && result.count === 0) void vscode.window.showInformationMessage(`No memory file has gone unused for more than ${days} days.`);
  return result;
}
