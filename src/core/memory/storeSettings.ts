/**
 * The memory engine's settings a user chooses (size cap, quota, redaction, guards, create policy,
 * history and its retention), in one shape for every process that opens a store: the window's
 * engines are built from it, and the `claude-memory exec` / `mcp` processes the extension starts
 * get it as flags (`storeSettingsArgs`, read back by the CLI's `parseStoreCommandArgs`). Before,
 * the MCP server VS Code starts for the user got three of these and recorded and pruned the
 * shared store with default retention even when the user had turned history off.
 */
import { DEFAULT_MEMORY_ENGINE_OPTIONS } from './options';
import type { HistoryRetention } from './history/types';

export interface StoreSettings {
  maxFileBytes: number;
  quotaBytes: number;
  redactSecrets: boolean;
  /** The checklist and progress-log guards. */
  checklistGuard: boolean;
  createPolicy: 'error' | 'overwrite';
  history: HistoryRetention | false;
}

export const DEFAULT_STORE_SETTINGS: Readonly<StoreSettings> = Object.freeze({
  maxFileBytes: DEFAULT_MEMORY_ENGINE_OPTIONS.maxFileBytes,
  quotaBytes: DEFAULT_MEMORY_ENGINE_OPTIONS.quotaBytes,
  redactSecrets: DEFAULT_MEMORY_ENGINE_OPTIONS.redactSecrets,
  checklistGuard: true,
  createPolicy: DEFAULT_MEMORY_ENGINE_OPTIONS.createPolicy,
  history: DEFAULT_MEMORY_ENGINE_OPTIONS.history,
});

/** Command-line flags of `claude-memory exec` / `mcp` that give an engine exactly `s`. */
export function storeSettingsArgs(s: StoreSettings): string[] {
  const args = ['--max-file-bytes', String(s.maxFileBytes), '--quota-bytes', String(s.quotaBytes), '--create-policy', s.createPolicy];
  if (!s.redactSecrets) args.push('--no-redact');
  if (!s.checklistGuard) args.push('--no-guards');
  if (s.history === false) args.push('--no-history');
  else {
    args.push('--history-max-versions', String(s.history.maxVersionsPerFile));
    args.push('--history-max-days', String(s.history.maxDays));
    args.push('--history-max-bytes', String(s.history.maxBytes));
  }
  return args;
}
