/**
 * A session's Messages API client and its model responses, streamed. The SDK retries
 * 408/409/429/5xx/529 and connection errors (maxRetries) before a stream starts; a stream that
 * breaks after it started is requested again here (streamRetries): only a message that reached
 * `message_stop` counts, so a partial turn never runs a tool.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { BetaMessage, BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { retryReporter } from './apiRetries';
import { cancelledFailure, isAbort, redact, SendFailed, streamFailure } from './errors';
import type { AgentEventListener } from './events';
import type { AgentLogger, AgentOptions } from './options';
import { buildRequest } from './request';
import type { AgentTool } from './tools';

const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_STREAM_RETRIES = 2;

export class TurnRequests {
  private client: Anthropic | undefined;

  constructor(
    private readonly options: AgentOptions,
    private readonly log: AgentLogger,
  ) {}

  /** One model response, streamed; requested again when the stream breaks mid-message. */
  async request(
    messages: readonly BetaMessageParam[],
    tools: readonly AgentTool[],
    emit: AgentEventListener,
    signal: AbortSignal | undefined,
  ): Promise<BetaMessage> {
    const streamRetries = this.options.streamRetries ?? DEFAULT_STREAM_RETRIES;
    for (let attempt = 0; ; attempt++) {
      const stream = this.sdk().beta.messages.stream(buildRequest(messages, this.options, tools), {
        signal,
        middleware: [retryReporter(this.maxRetries, emit, signal)],
      });
      let connected = false;
      let stopped = false;
      stream.on('connect', () => (connected = true));
      stream.on('streamEvent', (event) => {
        if (event.type === 'message_stop') stopped = true;
      });
      stream.on('text', (text) => emit({ type: 'text', text }));
      try {
        const message = await stream.finalMessage();
        // A body that ends cleanly but early still yields a snapshot: never trust it.
        if (!stopped) throw new Error('stream ended before message_stop');
        return message;
      } catch (error) {
        if (signal?.aborted || isAbort(error)) throw new SendFailed(cancelledFailure());
        // Before `connect` the SDK has already retried what it can: report as is.
        if (!connected) throw error;
        this.log.warn(`[agent] response stream broke (attempt ${attempt + 1}): ${this.describe(error)}`);
        if (attempt >= streamRetries) {
          throw error instanceof Anthropic.APIError && error.type ? error : new SendFailed(streamFailure(attempt + 1));
        }
        emit({ type: 'retry', attempt: attempt + 1, message: 'The response stream broke off; asking again.' });
      }
    }
  }


  get maxRetries(): number {
    return this.options.maxRetries ?? DEFAULT_MAX_RETRIES;
  }

  private sdk(): Anthropic {
    this.client ??= new Anthropic({
      apiKey: this.options.apiKey,
      baseURL: this.options.baseURL,
      maxRetries: this.maxRetries,
      ...(this.options.timeout !== undefined ? { timeout: this.options.timeout } : {}),
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      // The SDK's own logging stays off: its debug output includes request headers.
      logLevel: 'off',
    });
    return this.client;
  }

  describe(error: unknown): string {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return redact(text, this.options.apiKey);
  }

}
