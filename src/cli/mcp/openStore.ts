/**
 * The engine `claude-memory mcp` serves, built exactly as `claude-memory exec` builds its own
 * (Node file system on <workspace>/.claude-memories, root created first, the same engine options:
 * size cap, redaction, no write guards). Kept to this one function so it can be pointed at the
 * CLI's shared engine factory (with the cross-process store lock) once that exists.
 */
import * as path from 'node:path';
import { MemoryEngine } from '../../core/memory';
import type { MemoryEngineOptions } from '../../core/memory/options';
import { NodeMemoryFileSystem } from '../../platform/node/nodeFileSystem';
import { STORE_FOLDER } from '../exec';

export interface CliStore {
  /** Absolute path of the store folder. */
  root: string;
  fs: NodeMemoryFileSystem;
  engine: MemoryEngine;
}

/** Throws the file system's error when the store folder cannot be created or used. */
export async function openCliStore(workspace: string, engineOptions: Partial<MemoryEngineOptions>): Promise<CliStore> {
  const root = path.join(workspace, STORE_FOLDER);
  const fs = new NodeMemoryFileSystem(root);
  // As exec: the root exists before the first call, so `view /memories` works.
  await fs.createDirectory('');
  return { root, fs, engine: new MemoryEngine(fs, engineOptions) };
}
