/**
 * The memory engine: runs memory_20250818 tool calls against a MemoryFileSystem. All calls are
 * serialized; every expected failure is a MemoryError and becomes `{is_error: true, content}`
 * here and only here; unexpected errors go to `onInternalError` and reach the model as one
 * generic sentence (never a stack or host path).
 */
import { COMMAND_HANDLERS } from './commands';
import type { CommandContext, CommandHandler } from './context';
import { isMemoryError } from './errors';
import type { MemoryFileSystem } from './fileSystem';
import { parseInput } from './input';
import { messages } from './messages';
import { SerialQueue } from './mutex';
import { resolveMemoryEngineOptions, type MemoryEngineOptions } from './options';
import { QuotaTracker } from './quota';
import { SafeStore } from './store';
import type { MemoryCommandInput, MemoryCommandName, MemoryToolExecutor, MemoryToolResult } from './types';
import { GuardChecker } from './writeGuards';

export class MemoryEngine implements MemoryToolExecutor {
  readonly options: Readonly<MemoryEngineOptions>;
  private readonly store: SafeStore;
  private readonly queue = new SerialQueue();
  private readonly quota: QuotaTracker;
  private readonly context: CommandContext;

  constructor(fs: MemoryFileSystem, options?: Partial<MemoryEngineOptions>) {
    this.options = resolveMemoryEngineOptions(options);
    this.store = new SafeStore(fs);
    this.quota = new QuotaTracker(() => this.store.sizeOf(''), this.options.quotaBytes, this.options.quotaRecheckMs, this.options.now);
    this.context = {
      store: this.store,
      options: this.options,
      quota: this.quota,
      guards: new GuardChecker(this.options.writeGuards, this.store),
    };
  }

  /** Creates the store root if it is missing (also done before every call). */
  ensureRoot(): Promise<void> {
    return this.queue.run(() => this.ensureRootNow());
  }

  /** Number of full store measurements the quota needed so far (for tests and benchmarks). */
  get quotaMeasurements(): number {
    return this.quota.measurements;
  }

  execute(input: unknown, signal?: AbortSignal): Promise<MemoryToolResult> {
    if (signal?.aborted) return Promise.resolve(cancelled());
    return this.queue.run(async () => {
      // Aborted while waiting for its turn: still nothing has run.
      if (signal?.aborted) return cancelled();
      return this.run(input);
    });
  }

  private async run(input: unknown): Promise<MemoryToolResult> {
    let command: MemoryCommandName | undefined;
    try {
      const parsed = parseInput(input);
      command = parsed.command;
      await this.ensureRootNow();
      const handler = COMMAND_HANDLERS[parsed.command] as CommandHandler<MemoryCommandName> as (
        ctx: CommandContext,
        input: MemoryCommandInput,
      ) => Promise<MemoryToolResult>;
      return await handler(this.context, parsed);
    } catch (e) {
      if (isMemoryError(e)) return { is_error: true, content: e.modelText };
      this.quota.invalidate();
      try {
        this.options.onInternalError(e);
      } catch {
        // A failing logger must not turn into an unhandled rejection.
      }
      return { is_error: true, content: messages.internal(command ?? 'unknown') };
    }
  }

  private async ensureRootNow(): Promise<void> {
    const root = await this.store.inspect('');
    if (root.kind === 'missing') await this.store.ensureDirectory('');
  }
}

function cancelled(): MemoryToolResult {
  return { is_error: true, content: messages.cancelled };
}
