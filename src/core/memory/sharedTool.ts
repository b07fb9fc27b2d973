/**
 * The workspace memory as a tool for agents other than our own chat: the MCP server
 * (`claude-memory mcp`) and the VS Code Language Model tool offer the same name, input schema
 * and description, and run the input through the same MemoryEngine. Claude's own memory tool is
 * the built-in `memory_20250818` type, which other agents do not know, so they get its commands
 * spelled out as a JSON Schema. The Language Model tool's copy in package.json
 * (contributes.languageModelTools) must stay equal to this; a unit test compares them.
 */
import { parseMemoryPath } from './paths';

/**
 * Not `memory`: Copilot ships a tool of that name, and MCP clients show tools of every server
 * side by side.
 */
export const SHARED_TOOL_NAME = 'workspace_memory';

/** Short name users type after `#` in VS Code chat. */
export const SHARED_TOOL_REFERENCE_NAME = 'workspaceMemory';

/** Teaches the protocol in a few lines: look first, keep it tidy, paths under /memories. */
export const SHARED_TOOL_DESCRIPTION = [
  "The project's shared memory: a folder of plain files (`/memories`) kept in the workspace and shared by every agent that works on it (Claude, Copilot and other MCP clients).",
  'ALWAYS `view` `/memories` before starting a task, to pick up earlier progress, decisions and notes. Record progress, findings and next steps as you go: your context may be reset at any moment and whatever is not in memory is lost.',
  'Keep it up to date, coherent and organized: prefer editing existing files (`str_replace`, `insert`) to creating new ones; rename or delete files that are no longer relevant. Never store secrets.',
  'Commands: view (a folder listing or a file with line numbers; optional view_range [start, end]), create (path, file_text), str_replace (path, old_str, new_str), insert (path, insert_line, insert_text; 0 inserts at the top), delete (path), rename (old_path, new_path). Every path starts with `/memories`.',
].join('\n');

/** JSON Schema of the tool input: the memory tool's commands and their parameters. */
export const SHARED_TOOL_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    command: {
      type: 'string',
      enum: ['view', 'create', 'str_replace', 'insert', 'delete', 'rename'],
      description: 'The operation to run.',
    },
    path: {
      type: 'string',
      description: 'view, create, str_replace, insert, delete: the file or folder, e.g. /memories/progress.md.',
    },
    view_range: {
      type: 'array',
      items: { type: 'integer' },
      minItems: 2,
      maxItems: 2,
      description: 'view of a file: [start_line, end_line], 1-based; end_line -1 means the end of the file.',
    },
    file_text: { type: 'string', description: 'create: the whole content of the new file.' },
    old_str: { type: 'string', description: 'str_replace: text that occurs exactly once in the file.' },
    new_str: { type: 'string', description: 'str_replace: the replacement (omit to delete old_str).' },
    insert_line: { type: 'integer', minimum: 0, description: 'insert: the line after which the text goes (0 = at the top).' },
    insert_text: { type: 'string', description: 'insert: the lines to insert.' },
    old_path: { type: 'string', description: 'rename: the file or folder to move.' },
    new_path: { type: 'string', description: 'rename: where it goes; must not exist yet.' },
  },
  required: ['command'],
} as const;

/** What a write would change, for a confirmation before it runs; undefined for reads. */
export interface PlannedWrite {
  /** The command as given (a non-string becomes `(no command)`). */
  command: string;
  /** `/memories/...` paths as the caller gave them, canonical when they parse. */
  paths: string[];
}

/**
 * The files a tool input would change, read without running it (the engine validates it fully
 * when it runs). Anything that is not a recognisable read counts as a write, so a malformed
 * input is confirmed rather than slipped through.
 */
export function plannedWrite(input: unknown): PlannedWrite | undefined {
  const record = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  const command = record.command;
  if (command === 'view') return undefined;
  const name = typeof command === 'string' ? command.slice(0, 40) : '(no command)';
  const params = name === 'rename' ? ['old_path', 'new_path'] : ['path'];
  return { command: name, paths: params.map((p) => canonicalOrRaw(record[p])) };
}

function canonicalOrRaw(value: unknown): string {
  if (typeof value !== 'string') return '(no path given)';
  try {
    return parseMemoryPath(value).display;
  } catch {
    // Shown to the user as given (shortened); the engine refuses it when the call runs.
    return value.length > 120 ? `${value.slice(0, 120)}…` : value;
  }
}
