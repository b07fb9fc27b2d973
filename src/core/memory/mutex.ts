/**
 * One promise chain per engine: every store operation runs alone, in arrival order, so the tool
 * calls of one assistant turn (which callers may start concurrently) can never lose an update.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    // Keep the chain alive whatever the task did; the caller sees the real outcome.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
