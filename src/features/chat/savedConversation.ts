/** A conversation as Chat History stores it: its shape, its chunked rows, reading it back, and a reload's interruption. */
import type { RowSplitter } from '../../core/session/chatArchive';
import { parseSummaryState, type SummaryState } from './shared/changeSummary';
import { isEntry, type ChatEntry, type TokenUsage } from './shared/protocol';
import { INTERRUPTED_CARD } from './transcriptWords';

/** A conversation as the chat saves it (Chat History, kept across window reloads). */
export interface SavedConversation {
  entries: ChatEntry[];
  totals: TokenUsage;
  requests: number;
  costUsd: number | undefined;
  /** Saved while an answer ran: its model and its usage so far (restore ends it as stopped). */
  send?: { model: string; usage: TokenUsage; requests: number };
  /** The change summary's base and the rows kept or undone (shared/changeSummary.ts). */
  changes?: SummaryState;
}

function isUsage(value: unknown): value is TokenUsage {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return ['input_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens', 'output_tokens'].every((k) => typeof v[k] === 'number');
}

/** A saved conversation's rows are stored in chunks (ChatArchive): only the last ones change. */
export const savedConversationRows: RowSplitter<SavedConversation> = {
  split: ({ entries, ...rest }) => ({ rows: entries, rest }),
  join: (rest, rows) => (typeof rest === 'object' && rest !== null ? { ...rest, entries: rows } : undefined),
};

/** Reads a saved conversation back from storage; undefined when it is not one. */
export function parseSavedConversation(value: unknown): SavedConversation | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (!Array.isArray(v.entries) || !v.entries.every((e) => isEntry(e) && /^e\d+$/.test(e.id)) || !isUsage(v.totals) || typeof v.requests !== 'number') return undefined;
  const send = v.send as Record<string, unknown> | undefined;
  const changes = parseSummaryState(v.changes);
  const validSend = typeof send === 'object' && send !== null && typeof send.model === 'string' && isUsage(send.usage) && typeof send.requests === 'number';
  return {
    entries: v.entries as ChatEntry[],
    totals: v.totals,
    requests: v.requests,
    costUsd: typeof v.costUsd === 'number' ? v.costUsd : undefined,
    ...(validSend ? { send: { model: send.model as string, usage: send.usage as TokenUsage, requests: send.requests as number } } : {}),
    ...(changes !== undefined ? { changes } : {}),
  };
}

/** A row of an answer that was running when the window reloaded, as Stop would have left it. */
export function interruptedEntry(entry: ChatEntry): ChatEntry {
  if (entry.kind === 'assistant' && entry.streaming) return { ...entry, streaming: false };
  if (entry.kind !== 'tool') return entry;
  const { approval, network, ...rest } = entry;
  // A host question left waiting was refused without an answer: blocked, never the user's denial.
  const hosts = network ? { network: network.map((n) => (n.state === 'pending' ? { ...n, state: 'blocked' as const } : n)) } : {};
  const keep = { ...(approval && approval.state !== 'pending' ? { approval } : {}), ...hosts };
  return entry.status === 'running' ? { ...rest, ...keep, status: 'error', summary: INTERRUPTED_CARD } : { ...rest, ...keep };
}
