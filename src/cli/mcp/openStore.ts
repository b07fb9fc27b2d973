/**
 * The engine `claude-memory mcp` serves: built by the same factory as `claude-memory exec` and
 * `run` (Node file system on <workspace>/.claude-memories, the cross-process store lock, the
 * checklist guards unless turned off, exec's size cap and redaction options), root created first.
 */
import * as path from 'node:path';
import type { MemoryEngine } from '../../core/memory';
import type { NodeMemoryFileSystem } from '../../platform/node/nodeFileSystem';
import { createNodeMemoryEngine, type NodeMemoryEngineOptions } from '../../platform/node/nodeMemoryEngine';
import { STORE_FOLDER } from '../exec';

export interface CliStore {
  /** Absolute path of the store folder. */
  root: string;
  fs: NodeMemoryFileSystem;
  engine: MemoryEngine;
}

/** Throws the file system's error when the store folder cannot be created or used. */
export async function openCliStore(workspace: string, engineOptions: NodeMemoryEngineOptions): Promise<CliStore> {
  const root = path.join(workspace, STORE_FOLDER);
  const { fs, engine } = createNodeMemoryEngine(root, engineOptions);
  // As exec: the root exists before the first call, so `view /memories` works.
  await fs.createDirectory('');
  return { root, fs, engine };
}
