/**
 * "Read 3 memory files: progress.md, startup.md, features.json": what Claude loaded from memory
 * while answering the first message of a conversation, like a start-up note. Derived from the
 * agent's events: memory `view` calls that showed a file (not a directory listing) and succeeded.
 */
import { MEMORY_ROOT } from '../memory/types';
import type { AgentEvent } from './events';

/** Names spelled out in the note; the rest are counted ("and 2 more") and listed on expanding it. */
const NAMED_IN_NOTE = 5;

/** The `/memories/...` path of a file this event shows Claude read, or undefined. */
export function memoryFileReadOf(event: AgentEvent): string | undefined {
  if (event.type !== 'tool_end' || event.is_error) return undefined;
  if ((event.tool ?? 'memory') !== 'memory' || event.command !== 'view') return undefined;
  if (event.detail?.kind !== 'memoryRead' || event.detail.target !== 'file') return undefined;
  return event.touched?.path ?? event.path;
}

/** A path as the note names it: relative to `/memories` ("progress.md", "notes/todo.md"). */
export function memoryNoteName(path: string): string {
  return path.startsWith(`${MEMORY_ROOT}/`) ? path.slice(MEMORY_ROOT.length + 1) : path;
}

/** The note's sentence for the files read (in the order first read, each once). */
export function memoryReadsNote(paths: readonly string[]): string {
  const names = [...new Set(paths)].map(memoryNoteName);
  const count = `Read ${names.length} memory ${names.length === 1 ? 'file' : 'files'}`;
  if (names.length === 0) return `${count}.`;
  const shown = names.slice(0, NAMED_IN_NOTE).join(', ');
  const more = names.length - NAMED_IN_NOTE;
  return `${count}: ${shown}${more > 0 ? ` and ${more} more` : ''}`;
}
