import * as vscode from 'vscode';
import type { MemoryExpiry } from '../../platform/memoryExpiry';
import type { MemoryNode } from '../memoryTree';
import type { TreeItemAnnotator } from '../memoryTree';
import { expiryLine, NEAR_EXPIRY_BADGE, PINNED_DESCRIPTION } from './expiryWords';

/**
 * A pinned memory file's context value (its menu offers Unpin instead of Pin). The other file
 * menus match both: `viewItem =~ /^memory(Pinned)?File$/`.
 */
export const PINNED_FILE_CONTEXT = 'memoryPinnedFile';

/** Marks pinned files in the Memory tree (pin icon, context value) and tells each file's expiry in its tooltip. */
export class ExpiryTreeMarks implements TreeItemAnnotator {
  readonly onDidChange: vscode.Event<void>;

  constructor(
    private readonly expiry: MemoryExpiry,
    private readonly now: () => number = Date.now,
  ) {
    this.onDidChange = expiry.onDidChange;
  }

  update(): Promise<void> {
    return this.expiry.refresh();
  }

  annotate(node: MemoryNode, item: vscode.TreeItem): void {
    if (node.kind !== 'file') return;
    const outlook = this.expiry.outlook(node.store, node.rel, this.now());
    if (outlook === undefined) return;
    if (outlook.kind === 'never' && outlook.why === 'pinned') {
      item.contextValue = PINNED_FILE_CONTEXT;
      // Tree descriptions do not render `$(pinned)`; the icon carries the pin (unless the
      // "touched by Claude" sparkle holds the icon for now) and the description says it.
      if (item.iconPath === vscode.ThemeIcon.File) item.iconPath = new vscode.ThemeIcon('pinned');
      item.description = [PINNED_DESCRIPTION, item.description].filter(Boolean).join(' · ');
    }
    const line = expiryLine(outlook);
    if (line !== undefined && item.tooltip instanceof vscode.MarkdownString) {
      const near = outlook.kind === 'expires' && outlook.near;
      // Our own words and a date, no markdown syntax in them (appendText would turn spaces into &nbsp;).
      item.tooltip.appendMarkdown(`\n\n${near ? `${NEAR_EXPIRY_BADGE} ${line}` : line}`);
    }
  }
}
