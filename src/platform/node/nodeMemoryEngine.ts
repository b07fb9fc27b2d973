/**
 * The one way a Node process (`claude-memory exec`, `run`, `mcp`, `history`, `restore`, `expire`) builds its
 * memory engine, so they cannot drift: the Node adapter, the cross-process store lock in
 * `<store>/.meta`, and the checklist guards unless turned off.
 */
import { MemoryEngine } from '../../core/memory/engine';
import type { MemoryEngineOptions } from '../../core/memory/options';
import { createChecklistGuards } from '../../core/session/guards';
import { NodeMemoryFileSystem } from './nodeFileSystem';
import { NodeStoreLock, type NodeStoreLockOptions } from './nodeStoreLock';

export interface NodeMemoryEngineOptions extends Partial<Omit<MemoryEngineOptions, 'storeLock' | 'writeGuards'>> {
  /** The checklist and progress-log guards (default on, like the extension's default setting). */
  guards?: boolean;
  lock?: NodeStoreLockOptions;
}

export interface NodeMemory {
  fs: NodeMemoryFileSystem;
  lock: NodeStoreLock;
  engine: MemoryEngine;
}

export function createNodeMemoryEngine(storeDir: string, options: NodeMemoryEngineOptions = {}): NodeMemory {
  const { guards = true, lock: lockOptions, ...engineOptions } = options;
  const fs = new NodeMemoryFileSystem(storeDir);
  const lock = new NodeStoreLock(storeDir, lockOptions);
  const engine = new MemoryEngine(fs, { ...engineOptions, storeLock: lock, writeGuards: guards ? createChecklistGuards() : [] });
  return { fs, lock, engine };
}
