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
import { addUsage, emptyUsage } from './events';
import type { AgentEvent, AgentEventListener, AgentOutcome, AgentUsage } from './events';
import type { AgentLogger, AgentOptions } from './options';
import { retryReporter } from './apiRetries';
import {
  COMPACTION_TRIGGER_TOKENS,
  DEFAULT_SAVE_THRESHOLD,
  PROGRESS_REMINDER,
  compactionBlocks,
  compactionLine,
  compactionReport,
  isCompactionPause,
  reloadFromMemory,
  resumeMessage,
  responseUsage,
  saveRequestText,
  textBlock,
} from './compaction';
import type { MemoryFileReader } from './compaction';
import { MEMORY_ROOT } from '../memory/types';
import type { MemoryToolExecutor } from '../memory/types';
import { sessionTools } from './memoryTool';
import { buildRequest } from './request';
import { keptContent, turnEnding } from './stopReasons';
import type { AgentTool } from './tools';
import { runToolCalls, toolUsesOf, unrunToolResults } from './toolCalls';

const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_STREAM_RETRIES = 2;

/** Per-send options. */
export interface SendOptions {
  /**
   * A Resume session: when the answer ends without a new /memories/progress.md entry in this send,
   * Claude gets one reminder to append it before it stops.
   */
  requireProgressEntry?: boolean;
}

const PROGRESS_PATH = `${MEMORY_ROOT}/progress.md`;

interface LoopState {
  /** Model responses completed in this send. */
  turns: number;
  /** This send wrote to progress.md (a successful memory write on it). */
  progressWritten: boolean;
  /** The end-of-session reminder went out. */
  reminded: boolean;
  compaction: AgentUsage | undefined;
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
  /** Context size of the last answered request (its last `message` iteration's prompt). */
  private lastPromptTokens = 0;
  /** The save request went out in this compaction cycle (reset when the API compacts). */
  private saveAsked = false;
  /** The save request waits for the next user turn (tool results or the next prompt). */
  private pendingSave: string | undefined;

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
  async send(prompt: string, onEvent: AgentEventListener, signal?: AbortSignal, sendOptions: SendOptions = {}): Promise<AgentOutcome> {
    const state: LoopState = { turns: 0, kept: 0, stopReason: null, progressWritten: false, reminded: !sendOptions.requireProgressEntry, compaction: undefined };
    const safe = this.safeEmitter(onEvent);
    const emit: AgentEventListener = (event) => {
      if (event.type === 'tool_end' && !event.is_error && (event.tool ?? 'memory') === 'memory' && isProgressWrite(event.touched)) state.progressWritten = true;
      safe(event);
    };
    const usage = emptyUsage();
    const finish = (failure?: AgentFailure): AgentOutcome => {
      const compaction = state.compaction ? { compaction_usage: state.compaction } : {};
      if (failure) {
        const message = redact(failure.message, this.options.apiKey);
        emit({ type: 'error', kind: failure.kind, message });
        emit({ type: 'done', stop_reason: state.stopReason });
        return { ok: false, stop_reason: state.stopReason, turns: state.turns, usage, ...compaction, error: { kind: failure.kind, message } };
      }
      emit({ type: 'done', stop_reason: state.stopReason });
      return { ok: true, stop_reason: state.stopReason, turns: state.turns, usage, ...compaction };
    };

    if (this.busy) {
      return finish({ kind: 'unknown', message: 'A message is still being answered: wait for it to finish or stop it, then send again.' });
    }
    if (!this.options.apiKey) return finish(missingKeyFailure());
    if (signal?.aborted) return finish(cancelledFailure());

    this.busy = true;
    const snapshot = [...this.messages];
    const pendingBefore = this.pendingSave;
    this.appendPrompt(prompt);
    this.attachPendingSave(emit);
    try {
      await this.loop(emit, usage, state, signal);
      return finish();
    } catch (error) {
      const failure = error instanceof SendFailed ? error.failure : this.failureOf(error, signal);
      if (state.turns === 0 || (error instanceof SendFailed && error.rollback)) {
        this.messages.splice(0, this.messages.length, ...snapshot);
        // The prompt that carried the save request is gone: the request goes with the next one.
        if (pendingBefore !== undefined && this.saveAsked) {
          this.pendingSave = pendingBefore;
          this.saveAsked = false;
        }
      }
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
      const meter = this.report(message, usage, emit, state);
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
      // The compaction block went into the history verbatim (kept content); the API drops what
      // came before it. The client reloads the saved state into the turn that resumes.
      const compacted = compactionBlocks(message.content).length > 0;
      let reload: string | undefined;
      if (compacted) reload = await this.afterCompaction(message, meter, emit);
      if (isCompactionPause(message)) {
        emit({ type: 'turn_end', stop_reason: message.stop_reason });
        // A pause without a (successful) compaction: nothing to reload, just ask again.
        if (reload !== undefined) this.messages.push(resumeMessage(reload === '' ? undefined : reload));
        else if (toolUses.length > 0) this.messages.push({ role: 'user', content: unrunToolResults(toolUses, message.stop_reason) });
        continue;
      }
      if (!compacted) this.considerSave(meter.contextTokens);
      if (ending.next === 'fail') {
        emit({ type: 'turn_end', stop_reason: message.stop_reason });
        throw new SendFailed(ending.failure, ending.rollback);
      }

      if (ending.next === 'answer_unrun') {
        // Cut off mid-call: answer the calls without running them and let the model go on.
        this.messages.push({ role: 'user', content: [...unrunToolResults(toolUses, message.stop_reason), ...(reload ? [textBlock(reload)] : [])] });
        this.attachPendingSave(emit);
        emit({ type: 'turn_end', stop_reason: message.stop_reason });
        continue;
      }
      if (ending.next === 'run_tools') {
        const batch = await runToolCalls(toolUses, this.tools, emit, signal, (m) => this.log.error(`[agent] ${m}`));
        // A compaction in a response with tool calls: the results first, then the reloaded state.
        this.messages.push({ role: 'user', content: [...batch.results, ...(reload ? [textBlock(reload)] : [])] });
        if (!batch.cancelled && !signal?.aborted) this.attachPendingSave(emit);
        emit({ type: 'turn_end', stop_reason: message.stop_reason });
        if (batch.cancelled || signal?.aborted) throw new SendFailed(cancelledFailure());
        continue;
      }
      emit({ type: 'turn_end', stop_reason: message.stop_reason });
      // pause_turn: the API paused a long turn; sending the conversation back lets it continue.
      if (ending.next === 'continue') continue;
      if (reload) {
        // Compacted in a finished answer: the reloaded state waits at the start of the next turn.
        this.messages.push({ role: 'user', content: [textBlock(reload)] });
      }
      if (!state.reminded && !state.progressWritten && state.turns < this.options.maxTurns) {
        // A Resume session that recorded nothing: one reminder, then Claude stops.
        state.reminded = true;
        this.pushUserText(PROGRESS_REMINDER);
        emit({ type: 'memory_prompt', kind: 'progress_reminder', label: 'Reminder · append to progress.md', text: PROGRESS_REMINDER });
        continue;
      }
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

  /**
   * The meter: the top-level usage plus every `compaction` entry of `usage.iterations` (which the
   * top level leaves out); the context size from the last `message` iteration.
   */
  private report(message: BetaMessage, total: AgentUsage, emit: AgentEventListener, state: LoopState): Meter {
    const meter: Meter = responseUsage(message);
    Object.assign(total, addUsage(total, meter.total));
    if (meter.compaction) state.compaction = state.compaction ? addUsage(state.compaction, meter.compaction) : meter.compaction;
    const previous = this.lastPromptTokens;
    // A pause has no message iteration: its context is the summary, known after the next request.
    if (!isCompactionPause(message)) this.lastPromptTokens = meter.contextTokens;
    emit({
      type: 'usage',
      usage: meter.total,
      ...(meter.compaction ? { compaction: meter.compaction } : {}),
      context_tokens: isCompactionPause(message) ? 0 : meter.contextTokens,
    });
    meter.previousContext = previous;
    for (const edit of message.context_management?.applied_edits ?? []) {
      if (edit.type === 'clear_tool_uses_20250919') {
        emit({ type: 'context_edit', cleared_tool_uses: edit.cleared_tool_uses, cleared_input_tokens: edit.cleared_input_tokens });
      }
    }
    return meter;
  }

  /**
   * After a response with a compaction block: reports it and reads the saved state back from
   * memory. Resolves to the reload text ('' when memory holds none of the files), or undefined
   * when the summary failed (nothing was compacted, nothing to reload).
   */
  private async afterCompaction(message: BetaMessage, meter: Meter, emit: AgentEventListener): Promise<string | undefined> {
    const report = compactionReport(message, meter, meter.previousContext ?? this.lastPromptTokens);
    if (report.failed) {
      emit({ type: 'compaction', ...report, reloaded: [], line: compactionLine(report, []) });
      return undefined;
    }
    // A new cycle: the next time the context nears the trigger, Claude is asked to save again.
    this.saveAsked = false;
    this.pendingSave = undefined;
    const reloaded = this.options.compaction === false ? { text: undefined, parts: [] } : await reloadFromMemory(this.memoryReader());
    emit({ type: 'compaction', ...report, reloaded: reloaded.parts, line: compactionLine(report, reloaded.parts) });
    return reloaded.text ?? '';
  }

  /** Past the save threshold, once per compaction cycle: the next user turn carries the save request. */
  private considerSave(contextTokens: number): void {
    if (!this.options.compaction || this.saveAsked || this.pendingSave !== undefined) return;
    const trigger = this.options.compactionTrigger ?? COMPACTION_TRIGGER_TOKENS;
    const fraction = this.options.compactionSaveThreshold ?? DEFAULT_SAVE_THRESHOLD;
    if (!(fraction > 0) || contextTokens < trigger * Math.min(fraction, 1)) return;
    this.pendingSave = saveRequestText(contextTokens, trigger);
  }

  /** Adds a waiting save request to the last user message (after its tool results). */
  private attachPendingSave(emit: AgentEventListener): void {
    const text = this.pendingSave;
    const last = this.messages[this.messages.length - 1];
    if (text === undefined || !last || last.role !== 'user') return;
    this.pendingSave = undefined;
    this.saveAsked = true;
    this.pushUserText(text);
    emit({ type: 'memory_prompt', kind: 'save', label: 'Save state to memory · context nearly full', text });
  }

  /** Appends a text block to the trailing user message, or adds a user message. */
  private pushUserText(text: string): void {
    const last = this.messages[this.messages.length - 1];
    if (last && last.role === 'user') {
      const content: BetaContentBlockParam[] =
        typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...(last.content as BetaContentBlockParam[])];
      content.push({ type: 'text', text });
      this.messages[this.messages.length - 1] = { role: 'user', content };
    } else {
      this.messages.push({ role: 'user', content: [{ type: 'text', text }] });
    }
  }

  private memoryReader(): MemoryFileReader {
    return this.options.readMemoryFile ?? viewReader(this.options.memory);
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

type Meter = ReturnType<typeof responseUsage> & { previousContext?: number };

function isProgressWrite(touched: { kind: string; path: string; newPath?: string } | undefined): boolean {
  if (!touched) return false;
  return (touched.kind === 'write' && touched.path === PROGRESS_PATH) || (touched.kind === 'rename' && touched.newPath === PROGRESS_PATH);
}

/** Reads a store file through the memory tool's `view` (line numbers taken off); undefined when it is missing. */
function viewReader(memory: MemoryToolExecutor): MemoryFileReader {
  return async (name) => {
    const result = await memory.execute({ command: 'view', path: `${MEMORY_ROOT}/${name}` });
    if (result.is_error) return undefined;
    const text = typeof result.content === 'string' ? result.content : result.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
    const lines: string[] = [];
    for (const line of text.split('\n')) {
      const match = /^ *\d+\t(.*)$/.exec(line);
      if (match) lines.push(match[1]);
    }
    return lines.join('\n');
  };
}
