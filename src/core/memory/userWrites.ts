/**
 * Hand edits of the store (the Memory tree's new/rename/delete, Features view ticks, the
 * initializer): the user is the authority, so the agent-only rules (write guards, redaction, the
 * quota) do not apply, but everything that keeps the store whole does: canonical paths (never
 * the private `.meta` folder or a temp-file name), no symbolic links, atomic writes with the
 * changed-meanwhile check. The engine runs these through the same queue and store lock as the
 * agent's calls (MemoryEngine.update/createFile/...), so no writer keeps its own
 * read-modify-write. Failures are MemoryErrors carrying one plain sentence.
 */
import { MemoryError } from './errors';
import { messages } from './messages';
import { displayOf, parentOf, parseMemoryPath } from './paths';
import type { SafeStore } from './store';
import { decodeText, encodeText } from './text';

/** What an update function sees: the file's text (undefined when missing); it returns the new text, or undefined to leave it. */
export type TextUpdate = (text: string | undefined) => string | undefined;

/** A canonical store-relative path of an entry (not the root), or a MemoryError. */
export function userEntryRel(rel: string): string {
  const parsed = parseMemoryPath(displayOf(rel));
  if (parsed.isRoot || parsed.rel !== rel) throw new MemoryError(messages.outsideRoot(displayOf(rel)));
  return parsed.rel;
}

/** Read-modify-write of one text file; true when something was written. */
export async function updateText(store: SafeStore, rawRel: string, update: TextUpdate): Promise<boolean> {
  const rel = userEntryRel(rawRel);
  const inspection = await store.inspect(rel);
  if (inspection.kind === 'directory' || inspection.kind === 'other') throw new MemoryError(messages.notAFile(displayOf(rel)));
  if (inspection.kind === 'missing') {
    const text = update(undefined);
    if (text === undefined) return false;
    return createFileNow(store, rel, encodeText(text, false));
  }
  const raw = await store.readFile(rel);
  const decoded = decodeText(raw);
  if (decoded === undefined) throw new MemoryError(messages.notText(displayOf(rel)));
  const text = update(decoded.text);
  if (text === undefined || text === decoded.text) return false;
  await store.writeAtomic(rel, encodeText(text, decoded.bom), true, raw);
  return true;
}

/** A new file (missing folders made); false when something already exists there (left as it is). */
export async function createFileNow(store: SafeStore, rawRel: string, content: Uint8Array): Promise<boolean> {
  const rel = userEntryRel(rawRel);
  const inspection = await store.inspect(rel);
  if (inspection.kind !== 'missing') return false;
  if (inspection.blockedBy !== undefined) throw new MemoryError(messages.parentIsFile(displayOf(rel), displayOf(inspection.blockedBy)));
  await ensureFolder(store, parentOf(rel));
  // Exclusive at the file-system level: a file that appears meanwhile is never replaced.
  return store.writeNew(rel, content);
}

export async function createFolderNow(store: SafeStore, rawRel: string): Promise<void> {
  const rel = userEntryRel(rawRel);
  const inspection = await store.inspect(rel);
  if (inspection.kind === 'directory') return;
  if (inspection.kind !== 'missing') throw new MemoryError(messages.destinationExists(displayOf(rel)));
  if (inspection.blockedBy !== undefined) throw new MemoryError(messages.parentIsFile(displayOf(rel), displayOf(inspection.blockedBy)));
  await store.ensureDirectory(rel);
}

export async function deleteNow(store: SafeStore, rawRel: string): Promise<void> {
  const rel = userEntryRel(rawRel);
  if ((await store.inspect(rel)).kind === 'missing') throw new MemoryError(messages.pathMissing(displayOf(rel)));
  await store.delete(rel);
}

/** Never replaces an existing entry; a case-only rename of the same entry is left to the file system. */
export async function renameNow(store: SafeStore, rawFrom: string, rawTo: string): Promise<void> {
  const from = userEntryRel(rawFrom);
  const to = userEntryRel(rawTo);
  if ((await store.inspect(from)).kind === 'missing') throw new MemoryError(messages.pathMissing(displayOf(from)));
  if (to.toLowerCase() !== from.toLowerCase() && (await store.inspect(to)).kind !== 'missing') {
    throw new MemoryError(messages.destinationExists(displayOf(to)));
  }
  await ensureFolder(store, parentOf(to));
  await store.rename(from, to);
}

async function ensureFolder(store: SafeStore, rel: string): Promise<void> {
  if ((await store.inspect(rel)).kind === 'missing') await store.ensureDirectory(rel);
}
