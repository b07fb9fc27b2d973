import { userFacingReason } from '../../core/memory/errors';
import { displayOf } from '../../core/memory/paths';
import type { ExpiredFile } from '../../core/memory/history/expiry';
import { AUTHORS } from '../../core/memory/history/types';
import type { Logger } from '../../platform/logger';
import { NEVER_EXPIRING_FILES } from '../../core/session/memoryFiles';
import type { MemoryEngine } from '../../core/memory/engine';

/** What a sweep needs of a store (a MemoryStore; plain Node tests pass their own). */
export interface SweepableStore {
  readonly folder: { readonly name: string };
  readonly engine: MemoryEngine;
}

/** A file one sweep deleted, with the history version that recorded the delete. */
export interface SweptFile extends ExpiredFile {
  /** The `delete` version by `expiry` (undefined only if history lost it at once). */
  version: number | undefined;
}

export interface SweepResult {
  days: number;
  /** When the sweep started (ms since the epoch). */
  time: number;
  stores: Array<{ store: SweepableStore; files: SweptFile[] }>;
  /** Files deleted, all stores together. */
  count: number;
}

/**
 * One expiry sweep over `stores`: files unused for more than `days` (never pinned or checklist
 * files) are deleted by the engine as `delete` versions by `expiry`. A store that fails is
 * logged and skipped; the others are still swept.
 */
export async function sweepStores(stores: readonly SweepableStore[], days: number, log: Logger, now = Date.now()): Promise<SweepResult> {
  const result: SweepResult = { days, time: now, stores: [], count: 0 };
  for (const store of stores) {
    try {
      const before = (await store.engine.history()).at(-1)?.version ?? 0;
      const expired = await store.engine.expire({ days, keep: NEVER_EXPIRING_FILES });
      if (expired.length === 0) continue;
      const deletes = (await store.engine.history()).filter((e) => e.version > before && e.op === 'delete' && e.author.name === AUTHORS.expiry.name);
      const files = expired.map((f) => ({ ...f, version: deletes.filter((e) => e.path === f.rel).at(-1)?.version }));
      result.stores.push({ store, files });
      result.count += files.length;
      for (const f of files) {
        log.info(`${store.folder.name}: expired ${displayOf(f.rel)} (unused for ${f.idleDays} days, last used ${new Date(f.lastUsed).toISOString()}; version ${f.version ?? '?'})`);
      }
    } catch (e) {
      log.warn(`${store.folder.name}: expiry sweep failed: ${userFacingReason(e)}`);
    }
  }
  return result;
}

export interface RestoreOutcome {
  /** `/memories/...` paths that came back. */
  restored: string[];
  /** Files left as they are, with why. */
  skipped: Array<{ path: string; why: string }>;
}

/**
 * Undoes a sweep: each file it deleted comes back (an `undo` of its delete version, recorded as
 * the user's restore). A file written again since it expired is left alone: undoing the delete
 * would throw the newer content away.
 */
export async function restoreSwept(result: SweepResult, log: Logger): Promise<RestoreOutcome> {
  const outcome: RestoreOutcome = { restored: [], skipped: [] };
  for (const { store, files } of result.stores) {
    for (const file of files) {
      const path = displayOf(file.rel);
      try {
        if (file.version === undefined) throw new Error('its delete is not in the history');
        const plan = await store.engine.undoPlan(file.version);
        if (plan === undefined) throw new Error('there is nothing to go back to');
        if (plan.later > 0) throw new Error('it was changed again after it expired');
        await store.engine.undo(file.version, AUTHORS.user);
        outcome.restored.push(path);
        log.info(`${store.folder.name}: restored expired ${path}`);
      } catch (e) {
        const why = userFacingReason(e);
        outcome.skipped.push({ path, why });
        log.warn(`${store.folder.name}: could not restore expired ${path}: ${why}`);
      }
    }
  }
  return outcome;
}
