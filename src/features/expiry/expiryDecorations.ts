import * as vscode from 'vscode';
import type { MemoryExpiry } from '../../platform/memoryExpiry';
import { expiryLine, NEAR_EXPIRY_BADGE } from './expiryWords';

/**
 * A badge on memory files close to expiry, wherever VS Code shows their Uri (the Memory tree,
 * whose items carry it as resourceUri; the Explorer; editor tabs). `update()` re-judges every
 * known file at the current time and tells VS Code only about the files whose badge changed.
 */
export class ExpiryDecorationProvider implements vscode.FileDecorationProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri[]>();
  readonly onDidChangeFileDecorations = this.emitter.event;
  /** The files that carry the badge now (by Uri string), with their tooltip. */
  private near = new Map<string, { uri: vscode.Uri; tooltip: string }>();

  constructor(
    private readonly expiry: MemoryExpiry,
    private readonly now: () => number = Date.now,
  ) {}

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const entry = this.near.get(uri.toString());
    if (entry === undefined) return undefined;
    const decoration = new vscode.FileDecoration(NEAR_EXPIRY_BADGE, entry.tooltip, new vscode.ThemeColor('list.warningForeground'));
    // The folders above a file close to expiry are not close to anything.
    decoration.propagate = false;
    return decoration;
  }

  /** Re-judges every known file now; fires for the Uris whose badge came, went or changed. */
  update(): void {
    const next = new Map<string, { uri: vscode.Uri; tooltip: string }>();
    const now = this.now();
    for (const { store, rel } of this.expiry.files()) {
      const outlook = this.expiry.outlook(store, rel, now);
      if (outlook?.kind !== 'expires' || !outlook.near) continue;
      const uri = store.fs.uriOf(rel);
      next.set(uri.toString(), { uri, tooltip: expiryLine(outlook) ?? '' });
    }
    const changed = new Map<string, vscode.Uri>();
    for (const [key, entry] of [...next, ...this.near]) {
      if (next.get(key)?.tooltip !== this.near.get(key)?.tooltip) changed.set(key, entry.uri);
    }
    this.near = next;
    if (changed.size > 0) this.emitter.fire([...changed.values()]);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
