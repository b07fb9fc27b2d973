/**
 * Consults the configured WriteGuards before a command changes a file they protect, including
 * indirectly: deleting or moving a folder above it, or moving another file onto its path.
 */
import { MemoryError } from './errors';
import { displayOf, isSameOrInside, parseMemoryPath } from './paths';
import type { SafeStore } from './store';
import { decodeText } from './text';
import type { MemoryCommandName, ProposedChange, WriteGuard } from './types';

export class GuardChecker {
  /** Store-relative guarded path → the guards that listed it. */
  private readonly byRel = new Map<string, WriteGuard[]>();

  constructor(
    guards: readonly WriteGuard[],
    private readonly store: SafeStore,
  ) {
    for (const guard of guards) {
      for (const path of guard.paths) {
        const rel = relOrUndefined(path);
        // A guard for the root or an unparsable path can match no file change: ignore it.
        if (rel === undefined || rel === '') continue;
        this.byRel.set(rel, [...(this.byRel.get(rel) ?? []), guard]);
      }
    }
  }

  get isEmpty(): boolean {
    return this.byRel.size === 0;
  }

  /** A content change of one file (create/overwrite, str_replace, insert). */
  async checkWrite(command: MemoryCommandName, rel: string, before: string | undefined, after: string): Promise<void> {
    this.run(command, rel, before, after);
  }

  /** Deleting `rel` removes every guarded file at or below it. */
  async checkDelete(rel: string): Promise<void> {
    for (const guarded of this.byRel.keys()) {
      if (!isSameOrInside(guarded, rel)) continue;
      const before = await this.readText(guarded);
      if (before !== undefined) this.run('delete', guarded, before, undefined);
    }
  }

  /** Moving `from` to `to`: guarded files leave from below `from` and may arrive below `to`. */
  async checkRename(from: string, to: string): Promise<void> {
    for (const guarded of this.byRel.keys()) {
      if (isSameOrInside(guarded, from)) {
        const before = await this.readText(guarded);
        if (before !== undefined) this.run('rename', guarded, before, undefined);
      }
      if (isSameOrInside(guarded, to)) {
        const source = from + guarded.slice(to.length);
        const after = await this.readText(source);
        // The destination never exists (rename does not overwrite), so `before` is undefined.
        if (after !== undefined) this.run('rename', guarded, undefined, after);
      }
    }
  }

  private run(command: MemoryCommandName, rel: string, before: string | undefined, after: string | undefined): void {
    const guards = this.byRel.get(rel);
    if (!guards) return;
    const change: ProposedChange = { command, path: displayOf(rel), before, after };
    for (const guard of guards) {
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

function relOrUndefined(path: string): string | undefined {
  try {
    return parseMemoryPath(path).rel;
  } catch {
    return undefined;
  }
}
