/**
 * The `claudeMemory.chat` webview view. It holds no conversation state: the ChatController does.
 * Each time VS Code (re)creates the webview, a ChatPage waits for the script's `ready`, replays the
 * whole conversation as one snapshot, then forwards the controller's patches.
 */
import * as vscode from 'vscode';
import type { Logger } from '../../platform/logger';
import type { ChatController } from './chatController';
import { ChatPage } from './chatPage';

export type { ChatActions } from './chatPage';

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private page: ChatPage | undefined;
  private focusRequested = false;
  private description: string | undefined;
  private badge: vscode.ViewBadge | undefined;
  private viewDisposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: ChatController,
    private readonly route: (raw: unknown) => Promise<void>,
    private readonly log: Logger,
  ) {}

  /** True once the current webview has said `ready` (for tests and for focus requests). */
  get isReady(): boolean {
    return this.page?.isReady ?? false;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.disposeView();
    this.view = view;
    view.description = this.description;
    view.badge = shownBadge(this.badge);
    const page = new ChatPage(view.webview, this.extensionUri, this.controller, this.route, this.log);
    this.page = page;
    if (this.focusRequested) {
      this.focusRequested = false;
      page.focusInput();
    }
    this.viewDisposables.push(
      page,
      view.onDidChangeVisibility(() => {
        if (!view.visible) page.hidden();
      }),
      view.onDidDispose(() => {
        if (this.view !== view) return;
        this.view = undefined;
        this.disposeView();
      }),
    );
  }

  /** The text next to the view's title (folder, cost), now and for later views. */
  setDescription(description: string | undefined): void {
    this.description = description;
    if (this.view) this.view.description = description;
  }

  /** True while the view is on screen (its webview may still be loading). */
  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  /** The badge on the view (and on its container in the activity bar), now and for later views. */
  setBadge(badge: vscode.ViewBadge | undefined): void {
    this.badge = badge;
    if (this.view) this.view.badge = shownBadge(badge);
  }

  /** The badge set last (for tests). */
  get currentBadge(): vscode.ViewBadge | undefined {
    return this.badge;
  }

  /** Asks the webview to focus its input, now or once it is ready. */
  focusInput(): void {
    if (this.page) this.page.focusInput();
    else this.focusRequested = true;
  }

  dispose(): void {
    this.disposeView();
  }

  private disposeView(): void {
    for (const d of this.viewDisposables) d.dispose();
    this.viewDisposables = [];
    this.page = undefined;
  }
}

/**
 * VS Code 1.103's webview views never take a badge away once set to undefined (the pane's
 * updateBadge has no "else clear"), so "no badge" is sent as a count of 0, which the activity bar
 * does not draw.
 */
function shownBadge(badge: vscode.ViewBadge | undefined): vscode.ViewBadge {
  return badge ?? { value: 0, tooltip: '' };
}
