/** The memory tool's wire shapes (memory_20250818) and the engine's result type. */
import type { Author } from './history/types';

export const MEMORY_TOOL = { type: 'memory_20250818', name: 'memory' } as const;
export const MEMORY_ROOT = '/memories';
/** The folder of a workspace (or CLI --workspace) that `/memories` maps to, unless configured otherwise. */
export const DEFAULT_STORE_FOLDER = '.claude-memories';

export type ViewInput = { command: 'view'; path: string; view_range?: [number, number] };
export type CreateInput = { command: 'create'; path: string; file_text: string };
export type StrReplaceInput = { command: 'str_replace'; path: string; old_str: string; new_str?: string };
export type InsertInput = { command: 'insert'; path: string; insert_line: number; insert_text: string };
export type DeleteInput = { command: 'delete'; path: string };
export type RenameInput = { command: 'rename'; old_path: string; new_path: string };
export type MemoryCommandInput = ViewInput | CreateInput | StrReplaceInput | InsertInput | DeleteInput | RenameInput;
export type MemoryCommandName = MemoryCommandInput['command'];

export type TextBlock = { type: 'text'; text: string };
export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
export type ImageBlock = { type: 'image'; source: { type: 'base64'; media_type: ImageMediaType; data: string } };
export type ResultContent = string | Array<TextBlock | ImageBlock>;

/** What a memory operation touched, in `/memories/...` form, for UIs (tree reveal, chat cards). */
export interface TouchedPath {
  kind: 'read' | 'write' | 'delete' | 'rename';
  path: string;
  /** For renames: the new `/memories/...` path. */
  newPath?: string;
  /** The history version the change was recorded as (when history is on). */
  version?: number;
}

export interface MemoryToolResult {
  is_error: boolean;
  /** Exactly what goes into the tool_result block's `content`. */
  content: ResultContent;
  touched?: TouchedPath;
}

/**
 * Anything that can run one memory tool call. The engine implements it; the agent loop and the
 * CLI depend only on this.
 */
export interface MemoryToolExecutor {
  /** `author`: who the call is by, for the store's history (executors without history ignore it). */
  execute(input: unknown, signal?: AbortSignal, author?: Author): Promise<MemoryToolResult>;
}

/** A change the agent's memory tool call would make to one protected file. */
export interface ProposedChange {
  command: MemoryCommandName;
  /** `/memories/...` path of the file whose content changes. */
  path: string;
  /** Text before the change; undefined when the file does not exist yet. */
  before: string | undefined;
  /** Text after the change; undefined when the file is deleted or moved away. */
  after: string | undefined;
}

/**
 * A rule on agent writes (e.g. the feature-checklist guard). The engine consults a guard only for
 * the exact `/memories/...` file paths it lists, including when such a file would be deleted,
 * overwritten or moved by a command on it or on a folder above it. A refusal changes nothing and
 * reaches the model as `is_error: true` with the guard's sentence.
 */
export interface WriteGuard {
  readonly paths: readonly string[];
  /** A model-facing refusal sentence, or undefined to allow the change. */
  check(change: ProposedChange): string | undefined;
}
