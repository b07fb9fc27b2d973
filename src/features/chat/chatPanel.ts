/**
 * "Open Chat in Editor": the same conversation in an editor-area panel beside the code. One
 * controller, two pages: a message sent in either shows in both.
 */
import { PANEL_TYPES } from '../../platform/ids';
import * as vscode from 'vscode';
import type { Logger } from '../../platform/logger';
import type { ChatController } from './chatController';
import { ChatPage } from './chatPage';

export class ChatPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private page: ChatPage | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: ChatController,
    private readonly route: (raw: unknown) => Promise<void>,
    private readonly log: Logger,
  ) {}

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /** True while the editor panel is on screen. */
  get visible(): boolean {
    return this.panel?.visible ?? false;
  }

  get isReady(): boolean {
    return this.page?.isReady ?? false;
  }

  /** Shows the panel (creating it beside the active editor) with the keyboard in its input. */
  open(): void {
    if (this.panel) {
      this.panel.reveal();
      this.page?.focusInput();
      return;
    }
    const panel = vscode.window.createWebviewPanel(PANEL_TYPES.chat, 'Claude Chat', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, {});
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'icons', 'claude-chat.svg');
    const page = new ChatPage(panel.webview, this.extensionUri, this.controller, this.route, this.log);
    this.panel = panel;
    this.page = page;
    page.focusInput();
    panel.onDidChangeViewState(() => {
      if (!panel.visible) page.hidden();
    });
    panel.onDidDispose(() => {
      page.dispose();
      if (this.panel === panel) {
        this.panel = undefined;
        this.page = undefined;
      }
    });
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
