/**
 * How a chat's entry list follows the extension's patches: the one function the webview's model,
 * the extension's tests and anyone else who keeps a copy of the conversation apply them with.
 * Pure: the list and the entries passed in are never changed; what changed is new.
 */
import { MAX_CARD_OUTPUT_CHARS, type ChatEntry, type ExtensionToWebview } from './protocol';

/**
 * The list after `patch`: a snapshot replaces it, `entry` adds an entry or replaces the one with
 * its id, `text` appends to an assistant entry's markdown, `output` to a tool card's output (only
 * its last MAX_CARD_OUTPUT_CHARS are kept, as the extension keeps them), `remove` drops an entry.
 * Other messages (status, draft, changes, focus) and patches for an unknown id return the list as it was.
 */
export function applyChatPatch(entries: readonly ChatEntry[], patch: ExtensionToWebview): readonly ChatEntry[] {
  switch (patch.type) {
    case 'snapshot':
      return patch.snapshot.entries.slice();
    case 'entry': {
      const i = indexOfEntry(entries, patch.entry.id);
      return i < 0 ? [...entries, patch.entry] : replaced(entries, i, patch.entry);
    }
    case 'text': {
      const i = indexOfEntry(entries, patch.id);
      const entry = entries[i];
      return entry?.kind === 'assistant' ? replaced(entries, i, { ...entry, markdown: entry.markdown + patch.text }) : entries;
    }
    case 'output': {
      const i = indexOfEntry(entries, patch.id);
      const entry = entries[i];
      if (entry?.kind !== 'tool') return entries;
      const all = `${entry.output ?? ''}${patch.text}`;
      return replaced(entries, i, { ...entry, output: all.length > MAX_CARD_OUTPUT_CHARS ? all.slice(-MAX_CARD_OUTPUT_CHARS) : all });
    }
    case 'remove':
      return indexOfEntry(entries, patch.id) < 0 ? entries : entries.filter((e) => e.id !== patch.id);
    default:
      return entries;
  }
}

/** Where the entry with `id` is; -1 when it is not. From the end: streamed patches are for the last entries. */
export function indexOfEntry(entries: readonly ChatEntry[], id: string): number {
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i].id === id) return i;
  return -1;
}

function replaced(entries: readonly ChatEntry[], i: number, entry: ChatEntry): ChatEntry[] {
  const next = entries.slice();
  next[i] = entry;
  return next;
}
