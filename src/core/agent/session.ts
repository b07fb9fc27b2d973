/**
 * One chat with Claude and the memory tool: the Messages API tool-use loop over the official SDK.
 *
 * - Requests: `client.beta.messages.stream()`; the SDK retries 408/409/429/5xx/529 and connection
 *   errors (maxRetries). A stream that breaks after it started is requested again here (streamRetries):
 *   only a message that reached `message_stop` counts, so a partial turn never runs a tool.
 * - Tool calls of one turn run one at a time in the model's order (toolCalls.ts); their results go
 *   back in one user message. Calls in a response that stopped for another reason (max_tokens cut
 *   them off) are answered with an error result, not run.
 * - Stop reasons (stopReasons.ts): `max_tokens` without a call, `refusal` and an empty first
 *   response end the send with their own error kind, never as a finished answer. An empty
 *   response is never added to the history; a refused send is taken out of it.
 * - Full history every request, no server-held thread (see request.ts for why).
 * - History stays valid for the next `send()` whatever happens: a send that got no complete
 *   response leaves the history exactly as before (so re-sending the prompt does not duplicate it);
 *   otherwise every kept assistant tool_use has its tool_result (a cancelled batch answers the
 *   calls it skipped with a "cancelled" error result), and the next prompt joins that trailing
 *   tool_result message as a text block.
 */
import Anthropic from '@anthropic-ai/sdk';
import type {
  BetaContentBlockParam,
  BetaMessage,
  BetaMessageParam,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { cancelledFailure, classifyError, isAbort, maxTurnsFailure, missingKeyFailure, redact, streamFailure } from './errors';
import type { AgentFailure } from './errors';
import { emptyUsage } from './events';
import type { AgentEvent, AgentEventListener, AgentOutcome, AgentUsage } from './events';
import type { AgentLogger, AgentOptions } from './options';
import { retryReporter } from './apiRetries';
import { compactionReport, isCompactionPause, saveToMemoryMessage } from './compaction';
import { sessionTools } from './memoryTool';
import { buildRequest } from './request';
import { keptContent, turnEnding } from './stopReasons';
import type { AgentTool } from './tools';
import { runToolCalls, toolUsesOf, unrunToolResults } from './toolCalls';

const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_STREAM_RETRIES = 2;

interface LoopState {
  /** Model responses completed in this send. */
  turns: number;
  /** Of those, the ones kept in the history (not empty). */
  kept: number;
  stopReason: string | null;
}

/** Thrown inside the loop to end a send with a given failure. */
class SendFailed extends Error {
  /** `rollback`: the history goes back to what it was before the send (a refused prompt is not kept). */
  constructor(
    readonly failure: AgentFailure,
    readonly rollback = false,
  ) {
    super(failure.message);
  }
}

export class AgentSession {
  private readonly messages: BetaMessageParam[] = [];
  private client: Anthropic | undefined;
  private busy = false;
  private readonly log: AgentLogger;
  /** Memory first, then AgentOptions.tools: what requests define and tool_use blocks name. */
  private readonly tools: readonly AgentTool[];
  /** Full input tokens of the last answered request, for the size of a compacted prompt. */
  private lastPromptTokens = 0;

  constructor(private readonly options: AgentOptions) {
    this.log = options.logger ?? silentLogger;
    this.tools = sessionTools(options.memory, options.tools);
    if (options.history) this.messages.push(...options.history);
  }

  /** The conversation so far, as Messages API params (tool_use/tool_result pairs always complete). */
  get history(): readonly BetaMessageParam[] {
    return this.messages;
  }

  /** Forgets the conversation (the memory store is untouched). */
  reset(): void {
    this.messages.length = 0;
  }

  /**
   * Sends `prompt` and runs the loop until the model ends its turn, an error, `maxTurns` or the
   * signal. Resolves (never rejects) after the final `done` event.
   */
  async send(prompt: string, onEvent: AgentEventListener, signal?: AbortSignal): Promise<AgentOutcome> {
    const emit = this.safeEmitter(onEvent);
    const usage = emptyUsage();
    const state: LoopState = { turns: 0, kept: 0, stopReason: null };
    const finish = (failure?: AgentFailure): AgentOutcome => {
      if (failure) {
        const message = redact(failure.message, this.options.apiKey);
        emit({ type: 'error', kind: failure.kind, message });
        emit({ type: 'done', stop_reason: state.stopReason });
        return { ok: false, stop_reason: state.stopReason, turns: state.turns, usage, error: { kind: failure.kind, message } };
      }
      emit({ type: 'done', stop_reason: state.stopReason });
      return { ok: true, stop_reason: state.stopReason, turns: state.turns, usage };
    };

    if (this.busy) {
      return finish({ kind: 'unknown', message: 'A message is still being answered: wait for it to finish or stop it, then send again.' });
    }
    if (!this.options.apiKey) return finish(missingKeyFailure());
    if (signal?.aborted) return finish(cancelledFailure());

    this.busy = true;
    const snapshot = [...this.messages];
    this.appendPrompt(prompt);
    try {
      await this.loop(emit, usage, state, signal);
      return finish();
    } catch (error) {
      const failure = error instanceof SendFailed ? error.failure : this.failureOf(error, signal);
      if (state.turns === 0 || (error instanceof SendFailed && error.rollback)) this.messages.splice(0, this.messages.length, ...snapshot);
      return finish(failure);
    } finally {
      this.busy = false;
    }
  }

  private async loop(
    emit: AgentEventListener,
    usage: AgentUsage,
    state: LoopState,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    for (;;) {
      if (signal?.aborted) throw new SendFailed(cancelledFailure());
      if (state.turns >= this.options.maxTurns) throw new SendFailed(maxTurnsFailure(this.options.maxTurns));
      const message = await this.requestTurn(emit, signal);
      state.turns += 1;
      state.stopReason = message.stop_reason;
      this.report(message, usage, emit);
      const toolUses = toolUsesOf(message);
      // An empty response never enters the history: the API would refuse the next request.
      const content = keptContent(message.content);
      const ending = turnEnding({
        stopReason: message.stop_reason,
        hasToolUses: toolUses.length > 0,
        empty: content.length === 0,
        earlierResponses: state.kept > 0,
        maxTokens: this.options.maxTokens,
      });
      if (content.length > 0) {
        this.messages.push({ role: 'assistant', content });
        state.kept += 1;
      }
      if (isCompactionPause(message)) {
        // The compaction block went into the history verbatim; Claude saves what must survive first.
        emit({ type: 'compaction', ...compactionReport(message, this.lastPromptTokens) });
        this.messages.push(saveToMemoryMessage());
        emit({ type: 'turn_end', stop_reason: message.stop_reason });
        continue;
      }
      if (ending.next === 'fail') {
        emit({ type: 'turn_end', stop_reason: message.stop_reason });
        throw new SendFailed(ending.failure, ending.rollback);
      }

      if (ending.next === 'answer_unrun') {
        // Cut off mid-call: answer the calls without running them and let the model go on.
        this.messages.push({ role: 'user', content: unrunToolResults(toolUses, message.stop_reason) });
        emit({ type: 'turn_end', stop_reason: message.stop_reason });
        continue;
      }
      if (ending.next === 'run_tools') {
        const batch = await runToolCalls(toolUses, this.tools, emit, signal, (m) => this.log.error(`[agent] ${m}`));
        this.messages.push({ role: 'user', content: batch.results });
        emit({ type: 'turn_end', stop_reason: message.stop_reason });
        if (batch.cancelled || signal?.aborted) throw new SendFailed(cancelledFailure());
        continue;
      }
      emit({ type: 'turn_end', stop_reason: message.stop_reason });
      // pause_turn: the API paused a long turn; sending the conversation back lets it continue.
      if (ending.next === 'continue') continue;
      return;
    }
  }

  /** One model response, streamed; requested again when the stream breaks mid-message. */
  private async requestTurn(emit: AgentEventListener, signal: AbortSignal | undefined): Promise<BetaMessage> {
    const streamRetries = this.options.streamRetries ?? DEFAULT_STREAM_RETRIES;
    for (let attempt = 0; ; attempt++) {
      const stream = this.sdk().beta.messages.stream(buildRequest(this.messages, this.options, this.tools), {
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

  private report(message: BetaMessage, total: AgentUsage, emit: AgentEventListener): void {
    const u = message.usage;
    const usage: AgentUsage = {
      input_tokens: u.input_tokens ?? 0,
      cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
      cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
      output_tokens: u.output_tokens ?? 0,
    };
    for (const key of Object.keys(total) as (keyof AgentUsage)[]) total[key] += usage[key];
    const prompt = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
    this.lastPromptTokens = isCompactionPause(message) ? Math.max(prompt, this.lastPromptTokens) : prompt;
    emit({ type: 'usage', usage });
    for (const edit of message.context_management?.applied_edits ?? []) {
      if (edit.type === 'clear_tool_uses_20250919') {
        emit({ type: 'context_edit', cleared_tool_uses: edit.cleared_tool_uses, cleared_input_tokens: edit.cleared_input_tokens });
      }
    }
  }

  /** Adds the prompt as a new user message, or to a trailing tool_result message left by a stopped send. */
  private appendPrompt(prompt: string): void {
    const text: BetaContentBlockParam = { type: 'text', text: prompt };
    const last = this.messages[this.messages.length - 1];
    if (last && last.role === 'user') {
      const content: BetaContentBlockParam[] =
        typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...(last.content as BetaContentBlockParam[])];
      this.messages[this.messages.length - 1] = { role: 'user', content: [...content, text] };
    } else {
      this.messages.push({ role: 'user', content: [text] });
    }
  }

  private failureOf(error: unknown, signal: AbortSignal | undefined): AgentFailure {
    if (signal?.aborted) return cancelledFailure();
    this.log.error(`[agent] request failed: ${this.describe(error)}`);
    return classifyError(error, this.options.model, this.maxRetries);
  }

  private get maxRetries(): number {
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

  private describe(error: unknown): string {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return redact(text, this.options.apiKey);
  }

  /** A listener that throws must not break the loop or leave the history half-written. */
  private safeEmitter(onEvent: AgentEventListener): AgentEventListener {
    return (event: AgentEvent) => {
      try {
        onEvent(event);
      } catch (error) {
        this.log.error(`[agent] event listener threw on ${event.type}: ${this.describe(error)}`);
      }
    };
  }
}


const silentLogger: AgentLogger = { debug() {}, info() {}, warn() {}, error() {} };
