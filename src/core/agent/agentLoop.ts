/**
 * One chat with Claude and the memory tool: the Messages API tool-use loop over the official SDK.
 *
 * - Requests: `client.beta.messages.stream()`; the SDK retries 408/409/429/5xx/529 and connection
 *   errors (maxRetries). A stream that breaks after it started is requested again (streamRetries):
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
 *
 * The streamed requests are turnRequests.ts's, the context meter, save request and reload
 * compactionCycle.ts's.
 */
import type { BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { cancelledFailure, classifyError, maxTurnsFailure, missingKeyFailure, redact, SendFailed } from './errors';
import type { AgentFailure } from './errors';
import { addUsage, emptyUsage } from './events';
import type { AgentEvent, AgentEventListener, AgentOutcome, AgentUsage } from './events';
import type { AgentLogger, AgentOptions } from './options';
import { PROGRESS_REMINDER, compactionBlocks, isCompactionPause, resumeMessage, textBlock } from './compaction';
import { CompactionCycle } from './compactionCycle';
import { MEMORY_ROOT } from '../memory/types';
import { sessionTools } from './memoryTool';
import { keptContent, turnEnding } from './stopReasons';
import type { AgentTool } from './tools';
import { runToolCalls, toolUsesOf, unrunToolResults } from './toolCalls';
import { TurnRequests } from './turnRequests';
import { appendUserText } from './userText';

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

export class AgentLoop {
  private readonly messages: BetaMessageParam[] = [];
  private busy = false;
  private readonly log: AgentLogger;
  /** Memory first, then AgentOptions.tools: what requests define and tool_use blocks name. */
  private readonly tools: readonly AgentTool[];
  private readonly requests: TurnRequests;
  private readonly cycle: CompactionCycle;

  constructor(private readonly options: AgentOptions) {
    this.log = options.logger ?? silentLogger;
    this.tools = sessionTools(options.memory, options.tools);
    this.requests = new TurnRequests(options, this.log);
    this.cycle = new CompactionCycle(options);
    if (options.conversation) this.messages.push(...options.conversation);
  }

  /** The conversation so far, as Messages API params (tool_use/tool_result pairs always complete). */
  get conversation(): readonly BetaMessageParam[] {
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
    const pendingBefore = this.cycle.pending;
    appendUserText(this.messages, prompt);
    this.cycle.attachPendingSave(this.messages, emit);
    try {
      await this.loop(emit, usage, state, signal);
      return finish();
    } catch (error) {
      const failure = error instanceof SendFailed ? error.failure : this.failureOf(error, signal);
      if (state.turns === 0 || (error instanceof SendFailed && error.rollback)) {
        this.messages.splice(0, this.messages.length, ...snapshot);
        // The prompt that carried the save request is gone: the request goes with the next one.
        this.cycle.restoreSaveRequest(pendingBefore);
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
      const message = await this.requests.request(this.messages, this.tools, emit, signal);
      state.turns += 1;
      state.stopReason = message.stop_reason;
      const meter = this.cycle.report(message, usage, emit);
      if (meter.compaction) state.compaction = state.compaction ? addUsage(state.compaction, meter.compaction) : meter.compaction;
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
      if (compacted) reload = await this.cycle.afterCompaction(message, meter, emit);
      if (isCompactionPause(message)) {
        emit({ type: 'turn_end', stop_reason: message.stop_reason });
        // A pause without a (successful) compaction: nothing to reload, just ask again.
        if (reload !== undefined) this.messages.push(resumeMessage(reload === '' ? undefined : reload));
        else if (toolUses.length > 0) this.messages.push({ role: 'user', content: unrunToolResults(toolUses, message.stop_reason) });
        continue;
      }
      if (!compacted) this.cycle.considerSave(meter.contextTokens);
      if (ending.next === 'fail') {
        emit({ type: 'turn_end', stop_reason: message.stop_reason });
        throw new SendFailed(ending.failure, ending.rollback);
      }

      if (ending.next === 'answer_unrun') {
        // Cut off mid-call: answer the calls without running them and let the model go on.
        this.messages.push({ role: 'user', content: [...unrunToolResults(toolUses, message.stop_reason), ...(reload ? [textBlock(reload)] : [])] });
        this.cycle.attachPendingSave(this.messages, emit);
        emit({ type: 'turn_end', stop_reason: message.stop_reason });
        continue;
      }
      if (ending.next === 'run_tools') {
        const batch = await runToolCalls(toolUses, this.tools, emit, signal, (m) => this.log.error(`[agent] ${m}`));
        // A compaction in a response with tool calls: the results first, then the reloaded state.
        this.messages.push({ role: 'user', content: [...batch.results, ...(reload ? [textBlock(reload)] : [])] });
        if (!batch.cancelled && !signal?.aborted) this.cycle.attachPendingSave(this.messages, emit);
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
        appendUserText(this.messages, PROGRESS_REMINDER);
        emit({ type: 'memory_prompt', kind: 'progress_reminder', label: 'Reminder · append to progress.md', text: PROGRESS_REMINDER });
        continue;
      }
      return;
    }
  }

  private failureOf(error: unknown, signal: AbortSignal | undefined): AgentFailure {
    if (signal?.aborted) return cancelledFailure();
    this.log.error(`[agent] request failed: ${this.requests.describe(error)}`);
    return classifyError(error, this.options.model, this.requests.maxRetries);
  }

  /** A listener that throws must not break the loop or leave the history half-written. */
  private safeEmitter(onEvent: AgentEventListener): AgentEventListener {
    return (event: AgentEvent) => {
      try {
        onEvent(event);
      } catch (error) {
        this.log.error(`[agent] event listener threw on ${event.type}: ${this.requests.describe(error)}`);
      }
    };
  }
}

const silentLogger: AgentLogger = { debug() {}, info() {}, warn() {}, error() {} };

function isProgressWrite(touched: { kind: string; path: string; newPath?: string } | undefined): boolean {
  if (!touched) return false;
  return (touched.kind === 'write' && touched.path === PROGRESS_PATH) || (touched.kind === 'rename' && touched.newPath === PROGRESS_PATH);
}
