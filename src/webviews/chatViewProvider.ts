/**
 * The `claudeMemory.chat` webview view. It holds no conversation state: the ChatController does.
 * Each time VS Code (re)creates the webview, a ChatPage waits for the script's `ready`, replays the
 * whole conversation as one snapshot, then forwards the controller's patches.
 */
import * as vscode from 'vscode';
import type { Logger } from '../platform/logger';
import type { ChatController } from './chatController';
import { ChatPage } from './chatPage';

export type { ChatActions } from './chatPage';

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private page: ChatPage | undefined;
  private focusRequested = false;
  private description: string | undefined;
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
