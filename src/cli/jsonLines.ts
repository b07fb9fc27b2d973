import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';
import type { MemoryToolExecutor, MemoryToolResult } from '../core/memory/types';

/**
 * A line longer than this is skipped with an error line instead of being buffered: a writer
 * that never sends a newline must not be able to grow our memory without bound. Generous
 * enough for any file the engine would accept, even JSON-escaped.
 */
export const MAX_LINE_CHARS = 16 * 1024 * 1024;

const EXAMPLE = '{"command":"view","path":"/memories"}';

/** One output line: exactly the tool_result fields a client needs. */
type OutputRecord = Pick<MemoryToolResult, 'is_error' | 'content'>;

/**
 * Runs one memory tool call per JSON line of `input`, strictly in order, writing one JSON line
 * per non-blank input line to `output`. Reads are pulled (async iteration) and writes wait for
 * 'drain', so a slow consumer or a huge input never piles up in memory. Bad lines become error
 * lines and the next line still runs. Rejects only when a stream fails (e.g. stdout closed).
 */
export async function execJsonLines(
  executor: MemoryToolExecutor,
  input: Readable,
  output: Writable,
  options: { maxLineChars?: number; onInternalError?: (e: unknown) => void; signal?: AbortSignal } = {},
): Promise<void> {
  const maxLineChars = options.maxLineChars ?? MAX_LINE_CHARS;
  const writer = new LineWriter(output);
  const decoder = new StringDecoder('utf8');
  // The unfinished last line, kept as parts so a long line arriving in many chunks is joined once.
  let parts: string[] = [];
  let partsLength = 0;
  let skipping = false; // inside an over-long line: drop text until its newline
  let lineNo = 0;

  const finishLine = async (tail: string) => {
    lineNo++;
    if (skipping) {
      skipping = false;
      await writer.write(JSON.stringify(errorRecord(`Input line ${lineNo} is longer than ${maxLineChars} characters and was skipped.`)) + '\n');
      return;
    }
    const line = parts.length === 0 ? tail : parts.join('') + tail;
    parts = [];
    partsLength = 0;
    const record = await runOne(executor, line, lineNo, options.onInternalError);
    if (record) await writer.write(JSON.stringify(record) + '\n');
  };

  // `signal`: the call in progress finishes, then nothing more is read or run (a half line is dropped).
  const signal = options.signal;
  const stopReading = () => input.destroy();
  signal?.addEventListener('abort', stopReading, { once: true });
  try {
    for await (const chunk of input) {
      if (signal?.aborted) break;
      const text = typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer);
      let start = 0;
      for (let nl = text.indexOf('\n'); nl !== -1 && !signal?.aborted; nl = text.indexOf('\n', start)) {
        await finishLine(text.slice(start, nl));
        start = nl + 1;
      }
      if (skipping || start === text.length) continue;
      const rest = text.slice(start);
      if (partsLength + rest.length > maxLineChars) {
        skipping = true;
        parts = [];
        partsLength = 0;
        continue;
      }
      parts.push(rest);
      partsLength += rest.length;
    }
  } catch (e) {
    // The stream destroyed by the stop signal ends the loop as "premature close".
    if (!signal?.aborted) throw e;
  } finally {
    signal?.removeEventListener('abort', stopReading);
  }
  if (signal?.aborted) return writer.flushed();
  const last = decoder.end();
  if (skipping || partsLength > 0 || last !== '') await finishLine(last);
  await writer.flushed();
}

/** The result for one input line, or undefined for a blank line (skipped, no output). */
async function runOne(
  executor: MemoryToolExecutor,
  rawLine: string,
  lineNo: number,
  onInternalError: ((e: unknown) => void) | undefined,
): Promise<OutputRecord | undefined> {
  const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
  if (line.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (e) {
    const why = e instanceof SyntaxError ? ` (${e.message})` : '';
    return errorRecord(`Input line ${lineNo} is not valid JSON${why}. Send one memory tool input object per line, e.g. ${EXAMPLE}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return errorRecord(`Input line ${lineNo} is not a JSON object. Send one memory tool input object per line, e.g. ${EXAMPLE}`);
  }
  try {
    const result = await executor.execute(parsed);
    return { is_error: result.is_error, content: result.content };
  } catch (e) {
    // The engine turns expected failures into results itself; anything thrown here is a bug,
    // logged for the user and reported to the caller without details.
    onInternalError?.(e);
    return errorRecord(`Input line ${lineNo} failed with an internal error; nothing more is known about its effect.`);
  }
}

function errorRecord(content: string): OutputRecord {
  return { is_error: true, content };
}

/** Sequential writes that honour backpressure and turn a stream failure into a rejection. */
class LineWriter {
  private failure: Error | undefined;

  constructor(private readonly output: Writable) {
    // Without a listener an EPIPE (reader went away) would crash the process with a stack trace.
    output.on('error', (e: Error) => (this.failure ??= e));
  }

  async write(text: string): Promise<void> {
    this.throwIfFailed();
    if (!this.output.write(text)) await this.drained();
    this.throwIfFailed();
  }

  /** Resolves once everything written so far has left our buffers (the stream is not ended). */
  async flushed(): Promise<void> {
    if (this.output.writableNeedDrain) await this.drained();
    this.throwIfFailed();
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.output.off('drain', done).off('error', done).off('close', done);
        if (!this.failure && this.output.destroyed) this.failure = new Error('output closed');
        resolve();
      };
      this.output.on('drain', done).on('error', done).on('close', done);
    });
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }
}
