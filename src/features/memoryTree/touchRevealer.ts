import type * as vscode from 'vscode';
import type { Logger } from '../../platform/logger';
import type { MemoryTouch } from '../../platform/memoryActivity';
import type { MemoryStore, MemoryStores } from '../../platform/memoryStores';
import type { MemoryNode } from './memoryTreeNodes';
import type { MemoryTreeProvider } from './memoryTreeProvider';

/**
 * Waits this long after the last touch before revealing: a tool call's write also triggers a
 * watcher refresh (~100–250 ms later), and VS Code's tree fails a reveal that overlaps a refresh
 * of the same level ("Element ... is already registered"). One reveal per burst of tool calls
 * also keeps the view from jumping around.
 */
const REVEAL_DELAY_MS = 400;
/** A reveal that still collided with a refresh is tried once more after this pause. */
const RETRY_DELAY_MS = 700;

/**
 * Marks the file the agent touched at once and, when the view is shown, scrolls it into view
 * (expanding its folders) without selecting it or taking focus: the selection stays the user's,
 * so the tree's New File / Rename / Delete never act on a place the agent chose.
 */
export class TouchRevealer implements vscode.Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private revealed: MemoryNode | undefined;

  /** The node of the last successful reveal (for tests and diagnostics). */
  get lastRevealed(): MemoryNode | undefined {
    return this.revealed;
  }

  constructor(
    private readonly provider: MemoryTreeProvider,
    private readonly view: vscode.TreeView<MemoryNode>,
    private readonly stores: MemoryStores,
    private readonly log: Logger,
  ) {}

  onTouch(touch: MemoryTouch): void {
    const before = this.provider.markedTouch;
    this.provider.noteTouch(touch);
    // A touch that wrote is followed by the store's change signal, whose refresh shows the mark
    // too; otherwise (a read, or the signal came first) only the rows the mark moved between redraw.
    const store = this.stores.forFolder(touch.folder);
    if (store === undefined || !this.stores.writePending(store)) void this.provider.redrawTouched(before);
    if (touch.kind === 'delete') return;
    this.schedule(() => void this.reveal(touch, 1), REVEAL_DELAY_MS);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(run: () => void, delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      run();
    }, delay);
  }

  /**
   * Shows and selects an entry the user just created from the tree or the palette (the editor
   * keeps the focus). Resolves to true once it is revealed; the same delay and retry as for the
   * agent's touches keep it clear of the refresh the write sets off.
   */
  async revealCreated(store: MemoryStore, memoryPath: string): Promise<boolean> {
    for (const delay of [REVEAL_DELAY_MS, RETRY_DELAY_MS]) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (await this.revealNode(store, memoryPath, true)) return true;
    }
    return false;
  }

  private async reveal(touch: MemoryTouch, attempt: number): Promise<void> {
    const store = this.stores.forFolder(touch.folder);
    if (!this.view.visible || !store) return;
    const revealed = await this.revealNode(store, touch.newPath ?? touch.path, false);
    if (!revealed && attempt === 1) this.schedule(() => void this.reveal(touch, 2), RETRY_DELAY_MS);
  }

  private async revealNode(store: MemoryStore, memoryPath: string, select: boolean): Promise<boolean> {
    const node = await this.provider.nodeForMemoryPath(store, memoryPath);
    if (!node || node.kind === 'root') return false;
    try {
      await this.view.reveal(node, { select, focus: false, expand: node.kind === 'folder' ? 1 : false });
      this.revealed = node;
      return true;
    } catch (e) {
      // Also when the file is gone again by the time the tree looks (a later call deleted it).
      this.log.debug(`reveal of ${memoryPath} failed: ${String(e)}`);
      return false;
    }
  }
}
