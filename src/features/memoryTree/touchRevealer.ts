import type * as vscode from 'vscode';
import type { Logger } from '../../platform/logger';
import type { MemoryTouch } from '../../platform/memoryActivity';
import type { MemoryStore, MemoryStores } from '../../platform/memoryStores';
import type { MemoryNode } from './memoryTreeNodes';
import type { MemoryTreeProvider } from './memoryTreeProvider';

/** A reveal overlapped by redraws is done again at most this often (each after the redraw, never on a timer). */
const MAX_REVEALS = 3;

/** What the revealer needs of the tree's provider, its view and the stores (fakes in unit tests). */
export type RevealerTree = Pick<MemoryTreeProvider, 'markedTouch' | 'noteTouch' | 'redrawTouched' | 'nodeForMemoryPath' | 'whenIdle' | 'onDidRefresh'>;
export type RevealerView = Pick<vscode.TreeView<MemoryNode>, 'visible' | 'reveal'>;
export type RevealerStores = Pick<MemoryStores, 'forFolder' | 'writePending'>;

/**
 * Marks the file the agent touched at once and, when the view is shown, scrolls it into view
 * (expanding its folders) without selecting it or taking focus: the selection stays the user's,
 * so the tree's New File / Rename / Delete never act on a place the agent chose.
 *
 * A reveal waits until the tree was told to redraw for the change that made the file: VS Code's
 * reveal then waits for that redraw itself and finds the new listing, where a reveal overlapping a
 * redraw fails ("Element ... is already registered"). A burst of touches while it waits is one
 * reveal, of the last touch, so the view does not jump around.
 */
export class TouchRevealer implements vscode.Disposable {
  private revealed: MemoryNode | undefined;
  /** The touch to reveal once the tree is drawn (a later touch replaces it). */
  private waiting: MemoryTouch | undefined;
  private disposed = false;
  /** How many times the tree was told to redraw whole (a reveal overlapped by one is done again). */
  private refreshes = 0;
  private readonly subscription: vscode.Disposable;

  /** The node of the last successful reveal (for tests and diagnostics). */
  get lastRevealed(): MemoryNode | undefined {
    return this.revealed;
  }

  constructor(
    private readonly provider: RevealerTree,
    private readonly view: RevealerView,
    private readonly stores: RevealerStores,
    private readonly log: Logger,
  ) {
    this.subscription = provider.onDidRefresh(() => this.refreshes++);
  }

  onTouch(touch: MemoryTouch): void {
    const before = this.provider.markedTouch;
    this.provider.noteTouch(touch);
    // A touch that wrote is followed by the store's change signal, whose refresh shows the mark
    // too; otherwise (a read, or the signal came first) only the rows the mark moved between redraw.
    const store = this.stores.forFolder(touch.folder);
    if (store === undefined || !this.stores.writePending(store)) void this.provider.redrawTouched(before);
    if (touch.kind === 'delete') return;
    const queued = this.waiting !== undefined;
    this.waiting = touch;
    if (!queued) void this.revealLastTouch();
  }

  dispose(): void {
    this.disposed = true;
    this.waiting = undefined;
    this.subscription.dispose();
  }

  /**
   * Shows and selects an entry the user just created from the tree or the palette (the editor
   * keeps the focus), once the tree shows the write. Resolves to true once it is revealed.
   */
  async revealCreated(store: MemoryStore, memoryPath: string): Promise<boolean> {
    await this.drawn(store);
    return !this.disposed && (await this.revealNode(store, memoryPath, true));
  }

  /** Waits for the tree to be drawn for the waiting touch (and any that replaced it meanwhile), then reveals the last. */
  private async revealLastTouch(): Promise<void> {
    let touch = this.waiting;
    while (touch) {
      await this.drawn(this.stores.forFolder(touch.folder));
      if (this.waiting === touch) break;
      touch = this.waiting;
    }
    this.waiting = undefined;
    const store = touch && this.stores.forFolder(touch.folder);
    if (!touch || !store || this.disposed || !this.view.visible) return;
    await this.revealNode(store, touch.newPath ?? touch.path, false);
  }

  /**
   * Resolves once the tree was told to redraw for every change to `store` known now: when this
   * window's engine wrote and the store's change signal is still to come, the refresh that signal
   * brings; and the annotators' updates of changes already signalled.
   */
  private async drawn(store: MemoryStore | undefined): Promise<void> {
    while (store && this.stores.writePending(store) && !this.disposed) await this.nextRefresh();
    await this.provider.whenIdle();
  }

  private nextRefresh(): Promise<void> {
    return new Promise((resolve) => {
      const listener = this.provider.onDidRefresh(() => {
        listener.dispose();
        resolve();
      });
    });
  }

  private async revealNode(store: MemoryStore, memoryPath: string, select: boolean): Promise<boolean> {
    // A redraw told of while the reveal runs can undo it (VS Code finds the element no more, or
    // drops the selection): then it is revealed again once that redraw is out.
    for (let attempt = 1; ; attempt++) {
      const refreshes = this.refreshes;
      const node = await this.provider.nodeForMemoryPath(store, memoryPath);
      if (!node || node.kind === 'root' || this.disposed) return false;
      try {
        await this.view.reveal(node, { select, focus: false, expand: node.kind === 'folder' ? 1 : false });
      } catch (e) {
        // Also when the file is gone again by the time the tree looks (a later call deleted it).
        this.log.debug(`reveal of ${memoryPath} failed: ${String(e)}`);
        return false;
      }
      if (this.refreshes === refreshes || attempt === MAX_REVEALS) {
        this.revealed = node;
        return true;
      }
      await this.provider.whenIdle();
      // An agent's touch is revealed only while the view is shown: a reveal would bring the
      // Memory view to the front over the chat the user went to meanwhile.
      if (!select && !this.view.visible) return false;
    }
  }
}
