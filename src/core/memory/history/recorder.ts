/**
 * Turns the engine's changes into history versions. The engine captures the files a command
 * will touch before it runs (their bytes) and hands them back afterwards with what happened;
 * everything here runs inside the engine's locked section. A content the history has not seen
 * (the user edited the file by hand, or it predates history) is first recorded as the user's
 * `edit`, so that every agent change can be undone to exactly what was there before it.
 * Recording never fails the change itself: the file is already written, so a history failure is
 * reported through `onError` and the change stands.
 */
import { joinRel } from '../paths';
import type { SafeStore } from '../store';
import { liveFiles } from './entries';
import type { MemoryHistory } from './historyStore';
import type { StoreMarks } from './marks';
import { sha256HexSync } from './sha256';
import { AUTHORS, type Author, type HistoryOp } from './types';

export interface Captured {
  rel: string;
  bytes: Uint8Array;
}

export class HistoryRecorder {
  /** Captured arrays are never changed after they are read: a hash per array holds. */
  private readonly hashes = new WeakMap<Uint8Array, string>();

  constructor(
    private readonly store: SafeStore,
    readonly history: MemoryHistory,
    readonly marks: StoreMarks,
    private readonly onError: (e: unknown) => void,
  ) {}

  /** The regular files at or below `rel` with their bytes (links skipped, never followed). */
  async capture(rel: string): Promise<Captured[]> {
    const inspection = await this.store.inspect(rel);
    if (inspection.kind === 'file') return [{ rel, bytes: await this.store.readFile(rel) }];
    if (inspection.kind !== 'directory') return [];
    const out: Captured[] = [];
    await this.store.walk(rel, async (entry) => {
      if (entry.type === 'file') out.push({ rel: entry.rel, bytes: await this.store.readFile(entry.rel) });
    });
    return out;
  }

  /** After a write of `rel` (create, str_replace, insert, a hand edit, a restore): its new version. */
  async written(op: HistoryOp, rel: string, before: readonly Captured[], author: Author, restoredFrom?: number): Promise<number | undefined> {
    return this.guard(async () => {
      for (const file of before) await this.baseline(file);
      // What this command just wrote is known; anything else is looked at on disk.
      let content = this.store.justWritten(rel);
      if (content === undefined) {
        const inspection = await this.store.inspect(rel);
        if (inspection.kind !== 'file') return undefined;
        content = await this.store.readFile(rel);
      }
      const entry = await this.history.record({ op, path: rel, author, content, ...(restoredFrom !== undefined ? { restoredFrom } : {}) });
      return entry.version;
    });
  }

  /** After a delete: one `delete` version per file that was there, holding what it held. */
  async deleted(rel: string, before: readonly Captured[], author: Author): Promise<number | undefined> {
    return this.guard(async () => {
      let last: number | undefined;
      for (const file of before) last = (await this.history.record({ op: 'delete', path: file.rel, author, content: file.bytes, sha256: this.shaOf(file.bytes) })).version;
      await this.marks.removed(rel);
      return last;
    });
  }

  /** After a rename of `from` to `to`: one `rename` version per file moved. */
  async renamed(from: string, to: string, before: readonly Captured[], author: Author): Promise<number | undefined> {
    return this.guard(async () => {
      let last: number | undefined;
      for (const file of before) {
        const path = file.rel === from ? to : joinRel(to, file.rel.slice(from.length + 1));
        last = (await this.history.record({ op: 'rename', path, oldPath: file.rel, author, content: file.bytes, sha256: this.shaOf(file.bytes) })).version;
      }
      await this.marks.moved(from, to);
      return last;
    });
  }

  /**
   * A change seen from outside (the editor, git, a sync tool): the file's content, when history
   * does not have it yet, becomes the user's `edit`; a file history knows that is gone becomes
   * the user's `delete` with the last content history had. A folder's notice does both for what
   * is below it: the file watcher drops a file's "added" and "deleted" when both fall in one of
   * its batches (a file created and removed at once), so the folder's own event may be the only
   * one left. Returns the newest version made, if any.
   */
  async noticed(rel: string): Promise<number | undefined> {
    return this.guard(async () => {
      const inspection = await this.store.inspect(rel);
      if (inspection.kind === 'file') return this.baseline({ rel, bytes: await this.store.readFile(rel) });
      let last: number | undefined;
      if (inspection.kind === 'directory') {
        await this.store.walk(rel, async (entry) => {
          if (entry.type === 'file') last = (await this.baseline({ rel: entry.rel, bytes: await this.store.readFile(entry.rel) })) ?? last;
        });
      } else if (inspection.kind !== 'missing') return undefined;
      return (await this.goneBelow(rel)) ?? last;
    });
  }

  /** Records the user's `delete` of every file at or below `rel` that history has as live and that is gone. */
  private async goneBelow(rel: string): Promise<number | undefined> {
    let last: number | undefined;
    for (const [path, entry] of liveFiles(await this.history.list())) {
      if (rel !== '' && path !== rel && !path.startsWith(`${rel}/`)) continue;
      if ((await this.store.inspect(path)).kind !== 'missing') continue;
      const content = await this.history.content(entry.version);
      if (content === undefined) continue;
      last = (await this.history.record({ op: 'delete', path, author: AUTHORS.user, content })).version;
    }
    return last;
  }

  /** Records the user's `edit` when history's newest version of the file holds other bytes. */
  private async baseline(file: Captured): Promise<number | undefined> {
    const latest = await this.history.latest(file.rel);
    const sha256 = this.shaOf(file.bytes);
    if (latest !== undefined && latest.op !== 'delete' && latest.sha256 === sha256) return undefined;
    return (await this.history.record({ op: 'edit', path: file.rel, author: AUTHORS.user, content: file.bytes, sha256 })).version;
  }

  /** SHA-256 of captured bytes, computed once per array (a delete or rename hashes what its baseline hashed). */
  private shaOf(bytes: Uint8Array): string {
    let sha256 = this.hashes.get(bytes);
    if (sha256 === undefined) {
      sha256 = sha256HexSync(bytes);
      this.hashes.set(bytes, sha256);
    }
    return sha256;
  }

  private async guard<T>(task: () => Promise<T>): Promise<T | undefined> {
    try {
      return await task();
    } catch (e) {
      this.onError(e);
      return undefined;
    }
  }
}
