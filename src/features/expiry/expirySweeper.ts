import * as vscode from 'vscode';
import { DAY_MS } from '../../core/memory/history/expiry';
import { STATE_KEYS } from '../../platform/ids';
import type { Logger } from '../../platform/logger';
import type { ExtensionServices } from '../../platform/services';
import { sweepStores, type SweepResult } from './expirySweep';

/** How often the daily sweep checks whether it is due (cheap: one comparison). */
const CHECK_EVERY_MS = 60 * 60 * 1000;
/** The sweep on opening waits this long, so the workbench's own start-up reads go first. */
const OPEN_DELAY_MS = 2000;

export type SweepReason = 'open' | 'daily' | 'trust' | 'command';

/**
 * Runs the expiry sweep when the workspace opens and then once a day while it stays open.
 * "A day" is measured against the last sweep's wall-clock time kept in the workspace state, so a
 * machine that slept through the day catches up at the next hourly check or window focus. Never
 * in Restricted Mode, never while expiry is off. Sweeps run one at a time.
 */
export class ExpirySweeper implements vscode.Disposable {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly disposables: vscode.Disposable[] = [];
  /** Settles when the sweep on opening has run (or was skipped). */
  readonly opened: Promise<SweepResult | undefined>;

  constructor(
    private readonly services: ExtensionServices,
    private readonly state: vscode.Memento,
    private readonly onSwept: (result: SweepResult) => void,
    private readonly log: Logger,
  ) {
    this.opened = new Promise((resolve) => {
      const timer = setTimeout(() => resolve(this.sweep('open')), OPEN_DELAY_MS);
      this.disposables.push({ dispose: () => (clearTimeout(timer), resolve(undefined)) });
    });
    const check = setInterval(() => void this.sweepIfDue(), CHECK_EVERY_MS);
    this.disposables.push(
      { dispose: () => clearInterval(check) },
      vscode.window.onDidChangeWindowState((w) => {
        if (w.focused) void this.sweepIfDue();
      }),
      // Trusted only now: this is the workspace's first chance to be swept in this window.
      services.trust.onDidGrant(() => void this.sweep('trust')),
    );
  }

  /** When the last sweep of this workspace ran (ms since the epoch), if ever. */
  lastSweep(): number | undefined {
    return this.state.get<number>(STATE_KEYS.lastExpirySweep);
  }

  /** A sweep, after any running one; undefined when none ran (untrusted, expiry off, failed). */
  sweep(reason: SweepReason): Promise<SweepResult | undefined> {
    const run = this.queue.then(() => this.sweepNow(reason)).catch((e: unknown) => {
      // Timers and events start sweeps without awaiting them: a failure is logged, never thrown.
      this.log.error(`sweep (${reason}) failed: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    });
    this.queue = run;
    return run;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private async sweepIfDue(): Promise<void> {
    const last = this.lastSweep();
    if (last === undefined || Date.now() - last >= DAY_MS) await this.sweep('daily');
  }

  private async sweepNow(reason: SweepReason): Promise<SweepResult | undefined> {
    const days = this.services.settings.get('expiryDays');
    if (!this.services.trust.isTrusted() || days <= 0) return undefined;
    const stores = this.services.stores.all();
    const result = await sweepStores(stores, days, this.log);
    await this.state.update(STATE_KEYS.lastExpirySweep, result.time);
    this.log.info(`sweep (${reason}, ${days} days): ${result.count} file(s) expired in ${stores.length} store(s)`);
    if (result.count > 0) this.onSwept(result);
    return result;
  }
}
