import type * as vscode from 'vscode';

/**
 * How long after this window changed a place its file watcher's report of that change counts as
 * the echo of it. Watchers report within tens to a few hundred milliseconds; an echo that comes
 * later is simply one more refresh.
 */
const ECHO_MS = 2_000;

/** What a noted place covers: itself, or everything below it too (a delete, a rename). */
export type OwnChangeScope = 'place' | 'subtree';

interface Entry {
  readonly at: number;
  readonly scope: OwnChangeScope;
  /** Whether the engine's write signal for this change has fired (only then is the echo redundant). */
  signalled: boolean;
}

/**
 * The places in one store this window's engine changed lately, so that the file watcher's report of
 * the same change does not set off every view a second time. An echo is dropped only after the
 * engine's own write signal fired for it: a change of ours that no signal announced still refreshes.
 * Pure bookkeeping over URI strings (no vscode calls), so it is tested in plain Node.
 */
export class OwnWrites {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  /** This window is about to change `uri` (a file or folder of the store). */
  note(uri: vscode.Uri | string, scope: OwnChangeScope = 'place'): void {
    this.prune();
    this.entries.set(key(uri), { at: this.now(), scope, signalled: false });
  }

  /** The engine's write signal fired: every change noted so far has been announced. */
  signalled(): void {
    for (const entry of this.entries.values()) entry.signalled = true;
  }

  /**
   * Whose change a watcher report is about: one of ours already announced by the write signal,
   * one of ours whose signal is still to come (the watcher can be quicker than the signal), or
   * undefined (someone else's, or ours too long ago to tell).
   */
  whose(uri: vscode.Uri | string): 'announced' | 'unannounced' | undefined {
    this.prune();
    const k = key(uri);
    let found: 'announced' | 'unannounced' | undefined;
    for (const [place, entry] of this.entries) {
      const covers = place === k || (entry.scope === 'subtree' && k.startsWith(place + '/'));
      if (!covers) continue;
      if (entry.signalled) return 'announced';
      found = 'unannounced';
    }
    return found;
  }

  private prune(): void {
    const oldest = this.now() - ECHO_MS;
    for (const [k, entry] of this.entries) if (entry.at < oldest) this.entries.delete(k);
  }
}

function key(uri: vscode.Uri | string): string {
  return (typeof uri === 'string' ? uri : uri.toString()).replace(/\/+$/, '');
}
