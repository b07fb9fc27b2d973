/**
 * Keeps a command's output within a cap while it streams: the first half of the cap as it came,
 * the last half in a rolling tail, and the count of what was cut between them, so a 10 MB log
 * costs 2 × cap/2 characters of memory and the model still sees how it started and how it ended.
 */
export class OutputCapture {
  private head = '';
  private tail = '';
  private total = 0;

  constructor(private readonly cap: number) {}

  add(chunk: string): void {
    this.total += chunk.length;
    const half = Math.floor(this.cap / 2);
    if (this.head.length < half) {
      const room = half - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (chunk.length === 0) return;
    this.tail = (this.tail + chunk).slice(-(this.cap - half));
  }

  /** The kept text; when something was cut, one bracketed line between head and tail says how much. */
  text(): string {
    const cut = this.total - this.head.length - this.tail.length;
    if (cut <= 0) return this.head + this.tail;
    return `${this.head}\n[... ${cut.toLocaleString('en-US')} characters of output cut here; ${this.total.toLocaleString('en-US')} in all. The start and the end are shown. Redirect to a file and search it (grep, head, tail) to see the rest ...]\n${this.tail}`;
  }

  get length(): number {
    return this.total;
  }
}
