/**
 * MCP's stdio framing (one JSON-RPC message per line) for a server that must outlive bad input.
 * The SDK's StdioServerTransport drops a line it cannot parse without an answer and closes the
 * whole connection when a line exceeds its buffer; here every bad line gets a JSON-RPC error
 * response and the connection stays open. Messages are parsed with JSON.parse and checked as the
 * SDK's JSONRPCMessageSchema checks them (jsonRpc.ts).
 */
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { classify, errorResponse, RPC_ERROR, type Params } from './jsonRpc';

/** Default longest line accepted (bytes); longer ones are skipped up to their newline and answered with an error. */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export interface LineTransportOptions {
  maxMessageBytes?: number;
  /** Told about every line that was answered with an error (for the stderr log). */
  onBadLine?: (reason: string) => void;
}

export class LineTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onrequest?: (id: RequestId, method: string, params: Params) => void;
  onnotification?: (method: string, params: Params) => void;

  private readonly maxBytes: number;
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Inside an over-long line: drop bytes until its newline. */
  private skipping = false;
  private closed = false;
  /** stdin ended: close once every request read so far has been answered. */
  private ending = false;
  private readonly pending = new Set<RequestId>();

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly options: LineTransportOptions = {},
  ) {
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onInputError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.write(message);
    if (('result' in message || 'error' in message) && message.id !== undefined) {
      this.pending.delete(message.id);
      this.closeWhenDone();
    }
  }

  /**
   * Reads no more (a stop signal): like the end of stdin, the connection closes once every
   * request read so far has been answered.
   */
  stopReading(): void {
    this.input.off('data', this.onData);
    this.ending = true;
    this.closeWhenDone();
  }

  /** A request that gets no answer (the client cancelled it): stdin's end no longer waits for it. */
  unanswered(id: RequestId): void {
    this.pending.delete(id);
    this.closeWhenDone();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onInputError);
    this.chunks = [];
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    while (data.length > 0) {
      const newline = data.indexOf(0x0a);
      const part = newline === -1 ? data : data.subarray(0, newline);
      if (!this.skipping) {
        if (this.buffered + part.length > this.maxBytes) {
          this.skipping = true;
          this.chunks = [];
          this.buffered = 0;
        } else {
          this.chunks.push(part);
          this.buffered += part.length;
        }
      }
      if (newline === -1) break;
      this.endOfLine();
      data = data.subarray(newline + 1);
    }
  };

  private readonly onEnd = (): void => {
    // A last message without its newline still counts.
    if (this.buffered > 0 || this.skipping) this.endOfLine();
    this.ending = true;
    this.closeWhenDone();
  };

  private closeWhenDone(): void {
    if (this.ending && this.pending.size === 0) void this.close();
  }

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  private endOfLine(): void {
    if (this.skipping) {
      this.skipping = false;
      this.reject(null, RPC_ERROR.InvalidRequest, `Message too large: the limit is ${this.maxBytes} bytes per message.`);
      return;
    }
    const line = Buffer.concat(this.chunks, this.buffered).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.buffered = 0;
    if (line.trim() === '') return;
    this.handleLine(line);
  }

  private handleLine(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.reject(null, RPC_ERROR.ParseError, 'Parse error: the message is not valid JSON.');
      return;
    }
    const message = classify(value);
    try {
      switch (message.kind) {
        case 'invalid':
          this.reject(message.id, RPC_ERROR.InvalidRequest, 'Invalid Request: the message is not a JSON-RPC 2.0 request, notification or response.');
          return;
        case 'request':
          this.pending.add(message.id);
          this.onrequest?.(message.id, message.method, message.params);
          return;
        case 'notification':
          this.onnotification?.(message.method, message.params);
          return;
        case 'response':
          return; // This server sends no requests: nothing waits for an answer.
      }
    } catch (e) {
      this.onerror?.(e instanceof Error ? e : new Error(String(e)));
    }
  }

  private reject(id: RequestId | null, code: number, message: string): void {
    this.options.onBadLine?.(message);
    // JSON-RPC 2.0: id null when the request's id could not be read.
    void this.write(errorResponse(id, code, message));
  }

  private write(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }
}
