/**
 * Consults the configured WriteGuards before a command changes a file they protect, including
 * indirectly: deleting or moving a folder above it, or moving another file onto its path.
 *
 * Matching folds case and Unicode normalisation: on macOS and Windows `/memories/FEATURES.json`
 * is the protected file, so it must not slip past. On a case-sensitive disk this only means a
 * look-alike name is checked too; its content is read under the spelling the command used, so
 * an unrelated file or folder that does not hold the protected content is still allowed.
 */
import { MemoryError } from './errors';
import { displayOf, parseMemoryPath } from './paths';
import type { SafeStore } from './store';
import { decodeText } from './text';
import type { MemoryCommandName, ProposedChange, WriteGuard } from './types';

interface Guarded {
  /** Canonical `/memories/...` path as the guard listed it (what the guard is told). */
  display: string;
  /** Store-relative path as the guard spelled it. */
  rel: string;
  key: string;
  guards: WriteGuard[];
}

export class GuardChecker {
  private readonly byKey = new Map<string, Guarded>();

  constructor(
    guards: readonly WriteGuard[],
    private readonly store: SafeStore,
  ) {
    for (const guard of guards) {
      for (const path of guard.paths) {
        const rel = relOrUndefined(path);
        // A guard for the root or an unparsable path can match no file change: ignore it.
        if (rel === undefined || rel === '') continue;
        const key = foldKey(rel);
        const entry = this.byKey.get(key) ?? { display: displayOf(rel), rel, key, guards: [] };
        entry.guards.push(guard);
        this.byKey.set(key, entry);
      }
    }
  }

  get isEmpty(): boolean {
    return this.byKey.size === 0;
  }

  /** Whether a content change of `rel` is judged by any guard. */
  protects(rel: string): boolean {
    return this.byKey.has(foldKey(rel));
  }

  /** A content change of one file (create/overwrite, str_replace, insert). */
  async checkWrite(command: MemoryCommandName, rel: string, before: string | undefined, after: string): Promise<void> {
    const entry = this.byKey.get(foldKey(rel));
    if (entry) this.ask(entry, { command, path: entry.display, before, after });
  }

  /** Deleting `rel` removes every guarded file at or below it. */
  async checkDelete(rel: string): Promise<void> {
    for (const entry of this.byKey.values()) {
      const actual = spelledUnder(entry, rel);
      if (actual === undefined) continue;
      const before = await this.readText(actual);
      if (before !== undefined) this.ask(entry, { command: 'delete', path: entry.display, before, after: undefined });
    }
  }

  /** Moving `from` to `to`: guarded files leave from below `from` and may arrive below `to`. */
  async checkRename(from: string, to: string): Promise<void> {
    for (const entry of this.byKey.values()) {
      const leaving = spelledUnder(entry, from);
      if (leaving !== undefined) {
        const before = await this.readText(leaving);
        if (before !== undefined) this.ask(entry, { command: 'rename', path: entry.display, before, after: undefined });
      }
      const arriving = spelledUnder(entry, to);
      if (arriving !== undefined) {
        const after = await this.readText(from + arriving.slice(to.length));
        // The destination never exists (rename does not overwrite), so `before` is undefined.
        if (after !== undefined) this.ask(entry, { command: 'rename', path: entry.display, before: undefined, after });
      }
    }
  }

  private ask(entry: Guarded, change: ProposedChange): void {
    for (const guard of entry.guards) {
      const refusal = guard.check(change);
      if (refusal !== undefined) throw new MemoryError(refusal);
    }
  }

  private async readText(rel: string): Promise<string | undefined> {
    const inspection = await this.store.inspect(rel);
    if (inspection.kind !== 'file') return undefined;
    const bytes = await this.store.readFile(rel);
    return decodeText(bytes)?.text ?? new TextDecoder('utf-8').decode(bytes);
  }
}

function foldKey(rel: string): string {
  return rel.normalize('NFC').toLowerCase();
}

/**
 * When the guarded file is `ancestor` or lies below it (compared folded), its path with the
 * command's spelling of `ancestor` followed by the guard's spelling of the rest; else undefined.
 */
function spelledUnder(entry: Guarded, ancestor: string): string | undefined {
  const folded = foldKey(ancestor);
  if (entry.key === folded) return ancestor;
  if (folded !== '' && !entry.key.startsWith(folded + '/')) return undefined;
  // Folding never adds or removes a `/`, so segments line up.
  const depth = ancestor === '' ? 0 : ancestor.split('/').length;
  const rest = entry.rel.split('/').slice(depth).join('/');
  return ancestor === '' ? rest : `${ancestor}/${rest}`;
}

function relOrUndefined(path: string): string | undefined {
  try {
    return parseMemoryPath(path).rel;
  } catch {
    return undefined;
  }
}
