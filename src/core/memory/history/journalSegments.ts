/**
 * Where history's journal lives in a store: the segments `.meta/history/journal-<epoch>`, the
 * format before the journal (`v/<n>.json` records, `b/<sha256>` contents, `head`), read once to
 * migrate it, and the look-ups and deletes on them that allow for another process having been
 * there first.
 */
import { isFsError, FileType } from '../fileSystem';
import { META_FOLDER } from '../paths';
import type { SafeStore } from '../store';
import { parseEntry } from './entries';
import type { KeptVersion } from './journalIndex';
import type { HistoryEntry } from './types';

export const HISTORY_FOLDER = `${META_FOLDER}/history`;
export const SEGMENT = /^journal-(\d{6,15})$/;
/** The format before the journal: migrated once, then removed. */
const LEGACY = { versions: `${HISTORY_FOLDER}/v`, blobs: `${HISTORY_FOLDER}/b`, head: `${HISTORY_FOLDER}/head` };

export function segmentFile(epoch: number): string {
  return `${HISTORY_FOLDER}/journal-${String(epoch).padStart(6, '0')}`;
}

export async function listHistoryFolder(store: SafeStore): Promise<[string, FileType][]> {
  try {
    return await store.fs.readDirectory(HISTORY_FOLDER);
  } catch (e) {
    if (isFsError(e, 'FileNotFound') || isFsError(e, 'FileNotADirectory')) return [];
    throw e;
  }
}

export async function exists(store: SafeStore, rel: string): Promise<boolean> {
  const fs = store.fs;
  // Where the adapter can, without an error to build and throw for the usual answer (missing).
  if (fs.lstatChain !== undefined) return (await fs.lstatChain(rel)).length === rel.split('/').length + 1;
  try {
    await fs.stat(rel);
    return true;
  } catch (e) {
    if (isFsError(e, 'FileNotFound') || isFsError(e, 'FileNotADirectory')) return false;
    throw e;
  }
}

/** Another process may have removed the same file first. */
export async function deleteIfThere(store: SafeStore, rel: string): Promise<void> {
  try {
    await store.delete(rel);
  } catch (e) {
    if ((await store.inspect(rel)).kind !== 'missing') throw e;
  }
}

/**
 * Every readable version of the format before the journal, oldest first, with the last version
 * number it used (a version whose content was pruned meanwhile was already gone).
 */
export async function readLegacyVersions(store: SafeStore): Promise<{ kept: KeptVersion[]; last: number }> {
  const head = await readLegacyHead(store);
  const names = (await store.inspect(LEGACY.versions)).kind === 'directory' ? await store.readDirectory(LEGACY.versions) : [];
  const numbers = names
    .filter(([name, type]) => type === FileType.File && /^\d{12}\.json$/.test(name))
    .map(([name]) => Number(name.slice(0, 12)))
    .sort((a, b) => a - b);
  const kept: KeptVersion[] = [];
  const blobs = new Map<string, Uint8Array>();
  for (const v of numbers) {
    let entry: HistoryEntry | undefined;
    try {
      entry = parseEntry(JSON.parse(new TextDecoder().decode(await store.readFile(`${LEGACY.versions}/${String(v).padStart(12, '0')}.json`))));
    } catch {
      entry = undefined;
    }
    if (entry === undefined) continue;
    let bytes = blobs.get(entry.blob);
    if (bytes === undefined) {
      try {
        bytes = await store.readFile(`${LEGACY.blobs}/${entry.blob}`);
      } catch {
        continue; // Its content was pruned meanwhile: the version was already gone.
      }
      blobs.set(entry.blob, bytes);
    }
    const known = bytes;
    kept.push({ entry, bytes: () => known });
  }
  return { kept, last: Math.max(head, kept.at(-1)?.entry.version ?? 0) };
}

async function readLegacyHead(store: SafeStore): Promise<number> {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(await store.readFile(LEGACY.head))) as { last?: unknown };
    return Number.isSafeInteger(parsed.last) ? (parsed.last as number) : 0;
  } catch {
    return 0;
  }
}

export async function removeLegacy(store: SafeStore): Promise<void> {
  for (const rel of [LEGACY.versions, LEGACY.blobs, LEGACY.head]) await deleteIfThere(store, rel);
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
