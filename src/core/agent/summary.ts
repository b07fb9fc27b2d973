/** One human line per memory tool call, for chat cards and the CLI's stderr. */
import type { MemoryToolResult, ResultContent } from '../memory/types';
import type { MemoryChange, ToolCallDetail } from './tools';

export interface ToolCallLabel {
  command: string;
  /** `/memories/...` path the call names (`old_path` for rename). */
  path?: string;
}

/** Reads the command and path out of a tool_use input without trusting its shape. */
export function labelToolCall(input: unknown): ToolCallLabel {
  const record = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const command = typeof record.command === 'string' ? record.command : 'unknown';
  const path = typeof record.path === 'string' ? record.path : typeof record.old_path === 'string' ? record.old_path : undefined;
  return path === undefined ? { command } : { command, path };
}

const DIRECTORY_HEADER = "Here're the files and directories";

/** True when a successful `view` result is a directory listing (the spec's header), not a file. */
export function isDirectoryListing(content: ResultContent): boolean {
  return firstText(content).startsWith(DIRECTORY_HEADER);
}

export function summarizeToolCall(input: unknown, result: MemoryToolResult): string {
  if (result.is_error) return firstLine(result.content) || 'the memory tool call failed';
  const { command, path } = labelToolCall(input);
  const where = path ?? '/memories';
  const record = input as Record<string, unknown>;
  switch (command) {
    case 'view': {
      const text = firstText(result.content);
      if (isDirectoryListing(result.content)) {
        // Header, the directory's own line, then one line per entry.
        const entries = Math.max(0, text.split('\n').filter((l) => l.length > 0).length - 2);
        return `viewed ${where} (${entries} ${entries === 1 ? 'entry' : 'entries'})`;
      }
      return `viewed ${where}`;
    }
    case 'create':
      return `created ${where}`;
    case 'str_replace':
      return `edited ${where}`;
    case 'insert':
      return `inserted into ${where} at line ${String(record.insert_line)}`;
    case 'delete':
      return `deleted ${where}`;
    case 'rename':
      return `renamed ${where} to ${String(record.new_path)}`;
    default:
      return `${command} ${where}`;
  }
}

function firstText(content: ResultContent): string {
  if (typeof content === 'string') return content;
  const text = content.find((b) => b.type === 'text');
  return text && text.type === 'text' ? text.text : '';
}

function firstLine(content: ResultContent): string {
  return firstText(content).split('\n')[0].trim();
}

/**
 * What a successful memory write changed, read from its input without trusting its shape: the
 * chat's card shows it (a diff for str_replace, the text for create and insert, both paths for
 * rename). Undefined for reads, deletes and inputs of another shape.
 */
export function memoryChangeOf(input: unknown): ToolCallDetail | undefined {
  const r = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const str = (key: string) => (typeof r[key] === 'string' ? (r[key] as string) : undefined);
  let change: MemoryChange | undefined;
  switch (r.command) {
    case 'create': {
      const text = str('file_text');
      if (text !== undefined) change = { type: 'create', text };
      break;
    }
    case 'str_replace': {
      const old = str('old_str');
      if (old !== undefined) change = { type: 'str_replace', old, new: str('new_str') ?? '' };
      break;
    }
    case 'insert': {
      const text = str('insert_text');
      if (text !== undefined && typeof r.insert_line === 'number') change = { type: 'insert', line: r.insert_line, text };
      break;
    }
    case 'rename': {
      const from = str('old_path');
      const to = str('new_path');
      if (from !== undefined && to !== undefined) change = { type: 'rename', from, to };
      break;
    }
  }
  return change ? { kind: 'memory', change } : undefined;
}
