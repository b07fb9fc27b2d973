/**
 * Sends one after the other. A message sent while an answer is still streaming, finishing or
 * being saved is not refused: it waits here for its turn. Pure (no `vscode`).
 */
export class SendQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private count = 0;

  /** Jobs waiting or running. */
  get size(): number {
    return this.count;
  }

  /** Runs `job` after every job queued before it has settled (whether it failed or not). */
  run<T>(job: () => Promise<T>): Promise<T> {
    this.count += 1;
    const result = this.tail.then(job).finally(() => {
      this.count -= 1;
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every job queued so far has settled. */
  async idle(): Promise<void> {
    while (this.count > 0) await this.tail;
  }
}
