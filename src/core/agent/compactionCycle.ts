/**
 * A session's compaction cycle: the context meter of each response, the request to save state
 * to memory once the context nears the compaction trigger (once per cycle, carried by the next
 * user turn), and the state read back from memory after the API compacted.
 */
import type { BetaMessage, BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import {
  COMPACTION_TRIGGER_TOKENS,
  DEFAULT_SAVE_THRESHOLD,
  compactionLine,
  compactionReport,
  isCompactionPause,
  reloadFromMemory,
  responseUsage,
  saveRequestText,
} from './compaction';
import type { MemoryFileReader } from './compaction';
import { addUsage } from './events';
import type { AgentEventListener, AgentUsage } from './events';
import type { AgentOptions } from './options';
import { MEMORY_ROOT } from '../memory/types';
import type { MemoryToolExecutor } from '../memory/types';
import { appendUserText } from './userText';

export type Meter = ReturnType<typeof responseUsage> & { previousContext?: number };

export class CompactionCycle {
  /** Context size of the last answered request (its last `message` iteration's prompt). */
  private lastPromptTokens = 0;
  /** The save request went out in this compaction cycle (reset when the API compacts). */
  private saveAsked = false;
  /** The save request waits for the next user turn (tool results or the next prompt). */
  private pendingSave: string | undefined;

  constructor(private readonly options: AgentOptions) {}

  /** The save request waiting for the next user turn, if any. */
  get pending(): string | undefined {
    return this.pendingSave;
  }

  /**
   * A send was taken back: when the prompt it took out carried the save request (`pendingBefore`
   * waited before it), the request goes with the next one.
   */
  restoreSaveRequest(pendingBefore: string | undefined): void {
    if (pendingBefore !== undefined && this.saveAsked) {
      this.pendingSave = pendingBefore;
      this.saveAsked = false;
    }
  }

  /**
   * The meter: the top-level usage plus every `compaction` entry of `usage.iterations` (which the
   * top level leaves out); the context size from the last `message` iteration.
   */
  report(message: BetaMessage, total: AgentUsage, emit: AgentEventListener): Meter {
    const meter: Meter = responseUsage(message);
    Object.assign(total, addUsage(total, meter.total));
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
  async afterCompaction(message: BetaMessage, meter: Meter, emit: AgentEventListener): Promise<string | undefined> {
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
  considerSave(contextTokens: number): void {
    if (!this.options.compaction || this.saveAsked || this.pendingSave !== undefined) return;
    const trigger = this.options.compactionTrigger ?? COMPACTION_TRIGGER_TOKENS;
    const fraction = this.options.compactionSaveThreshold ?? DEFAULT_SAVE_THRESHOLD;
    if (!(fraction > 0) || contextTokens < trigger * Math.min(fraction, 1)) return;
    this.pendingSave = saveRequestText(contextTokens, trigger);
  }

  /** Adds a waiting save request to the last user message (after its tool results). */
  attachPendingSave(messages: BetaMessageParam[], emit: AgentEventListener): void {
    const text = this.pendingSave;
    const last = messages[messages.length - 1];
    if (text === undefined || !last || last.role !== 'user') return;
    this.pendingSave = undefined;
    this.saveAsked = true;
    appendUserText(messages, text);
    emit({ type: 'memory_prompt', kind: 'save', label: 'Save state to memory · context nearly full', text });
  }


  private memoryReader(): MemoryFileReader {
    return this.options.readMemoryFile ?? viewReader(this.options.memory);
  }
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
