/** What every command handler receives, and the typed handler map over the command union. */
import type { MemoryEngineOptions } from './options';
import type { QuotaTracker } from './quota';
import type { SafeStore } from './store';
import type { MemoryCommandInput, MemoryCommandName, MemoryToolResult } from './types';
import type { GuardChecker } from './writeGuards';

export interface CommandContext {
  readonly store: SafeStore;
  readonly options: MemoryEngineOptions;
  readonly quota: QuotaTracker;
  readonly guards: GuardChecker;
}

export type CommandHandler<K extends MemoryCommandName> = (
  ctx: CommandContext,
  input: Extract<MemoryCommandInput, { command: K }>,
) => Promise<MemoryToolResult>;

export type CommandHandlers = { readonly [K in MemoryCommandName]: CommandHandler<K> };
