/**
 * The whole-store quota without walking the store on every write: the total is measured once,
 * then kept by deltas (writes, deletes) and measured again when it is older than
 * `recheckMs` (files change behind the engine's back) or when a write would cross the quota
 * (so a stale high total never refuses a write that actually fits).
 */
import { MemoryError } from './errors';
import { formatSizePair } from './format';
import { messages } from './messages';

export class QuotaTracker {
  private total: number | undefined;
  private measuredAt = 0;
  /** How many full measurements ran; exposed for tests and benchmarks. */
  measurements = 0;

  constructor(
    private readonly measure: () => Promise<number>,
    private readonly quotaBytes: number,
    private readonly recheckMs: number,
    private readonly now: () => number,
  ) {}

  /** Throws the quota MemoryError when growing the store by `delta` bytes would exceed it. */
  async assertRoomFor(delta: number): Promise<void> {
    if (delta <= 0) return;
    let fresh = false;
    if (this.total === undefined || this.now() - this.measuredAt > this.recheckMs) {
      await this.remeasure();
      fresh = true;
    }
    if (this.current() + delta <= this.quotaBytes) return;
    if (!fresh) await this.remeasure();
    const after = this.current() + delta;
    if (after > this.quotaBytes) {
      throw new MemoryError(messages.quotaExceeded(...formatSizePair(after, this.quotaBytes)));
    }
  }

  /** Records a change the engine made. */
  applied(delta: number): void {
    if (this.total !== undefined) this.total = Math.max(0, this.total + delta);
  }

  /** Forget the total (e.g. after an error that may have left the store partly changed). */
  invalidate(): void {
    this.total = undefined;
  }

  private current(): number {
    return this.total ?? 0;
  }

  private async remeasure(): Promise<void> {
    this.measurements++;
    this.total = await this.measure();
    this.measuredAt = this.now();
  }
}
