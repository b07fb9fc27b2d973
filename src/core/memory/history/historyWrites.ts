/**
 * The engine's history-driven writes: restore a version, undo a change, expire idle files. Like
 * userWrites.ts these run inside the engine's queue and store lock; each records its own version
 * (`restore`, or `delete` by `expiry`), so every one of them can be undone in turn.
 */
import { MemoryError } from '../errors';
import { messages } from '../messages';
import { displayOf, parentOf } from '../paths';
import { sameBytes, type SafeStore } from '../store';
import { deleteNow, renameNow, userEntryRel } from '../userWrites';
import { fileUse, fileUses, idleFiles, type ExpiredFile } from './expiry';
import { undoPlanOf } from './entries';
import type { HistoryRecorder } from './recorder';
import type { Author } from './types';

export const historyMessages = {
  off: 'History is off for this memory store.',
  versionGone: (version: number) => `Version ${version} is not in the history (it may have been pruned).`,
  cannotUndo: (version: number) => `Version ${version} cannot be undone: there is nothing to go back to.`,
  notThere: (path: string) => `${path} is not there any more.`,
};

/** The file at `rawRel` gets the content of `version` (made again if deleted); its new version, or undefined when it already held it. */
export async function restoreNow(store: SafeStore, recorder: HistoryRecorder, rawRel: string, version: number, author: Author): Promise<number | undefined> {
  const rel = userEntryRel(rawRel);
  const content = await recorder.history.content(version);
  if (content === undefined) throw new MemoryError(historyMessages.versionGone(version));
  const inspection = await store.inspect(rel);
  if (inspection.kind === 'directory' || inspection.kind === 'other') throw new MemoryError(messages.notAFile(displayOf(rel)));
  if (inspection.kind === 'missing' && inspection.blockedBy !== undefined) {
    throw new MemoryError(messages.parentIsFile(displayOf(rel), displayOf(inspection.blockedBy)));
  }
  const before = await recorder.capture(rel);
  if (before.length === 1 && sameBytes(before[0].bytes, content)) return undefined;
  if (inspection.kind === 'missing' && (await store.inspect(parentOf(rel))).kind === 'missing') await store.ensureDirectory(parentOf(rel));
  await store.writeAtomic(rel, content, inspection.kind === 'file', before[0]?.bytes);
  return recorder.written('restore', rel, before, author, version);
}

/** Undoes one version (see undoPlanOf); the version it recorded. */
export async function undoNow(store: SafeStore, recorder: HistoryRecorder, version: number, author: Author): Promise<number | undefined> {
  const undo = undoPlanOf(await recorder.history.list(), version);
  if (undo === undefined) throw new MemoryError(historyMessages.cannotUndo(version));
  const { plan } = undo;
  switch (plan.kind) {
    case 'restore':
      return restoreNow(store, recorder, plan.path, plan.version, author);
    case 'delete': {
      const before = await recorder.capture(plan.path);
      if (before.length === 0) return undefined;
      await deleteNow(store, plan.path);
      return recorder.deleted(plan.path, before, author);
    }
    case 'rename': {
      const before = await recorder.capture(plan.from);
      if (before.length === 0) throw new MemoryError(historyMessages.notThere(displayOf(plan.from)));
      await renameNow(store, plan.from, plan.to);
      return recorder.renamed(plan.from, plan.to, before, author);
    }
  }
}

/**
 * One expiry sweep: the idle files (checked again one by one under the lock, so a file used
 * meanwhile stays) are deleted as `delete` versions by `author`. With `dryRun` nothing changes.
 */
export async function expireNow(
  store: SafeStore,
  recorder: HistoryRecorder,
  options: { days: number; keep: readonly string[]; dryRun: boolean; now: number; author: Author },
  locked: <T>(task: () => Promise<T>) => Promise<T>,
): Promise<ExpiredFile[]> {
  const candidates = idleFiles(await fileUses(store, recorder.history, recorder.marks), options.days, options.now, options.keep);
  if (options.dryRun) return candidates;
  const expired: ExpiredFile[] = [];
  for (const candidate of candidates) {
    const done = await locked(async () => {
      const use = await fileUse(store, recorder.history, recorder.marks, candidate.rel);
      const still = use && idleFiles([use], options.days, options.now, options.keep)[0];
      if (still === undefined) return undefined;
      const before = await recorder.capture(still.rel);
      await deleteNow(store, still.rel);
      await recorder.deleted(still.rel, before, options.author);
      return still;
    });
    if (done !== undefined) expired.push(done);
  }
  return expired;
}
