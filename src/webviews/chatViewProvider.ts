/**
 * The `claudeMemory.chat` webview view. It holds no conversation state: the ChatController does.
 * Each time VS Code (re)creates the webview, the provider waits for the script's `ready`, replays
 * the whole conversation as one snapshot, then forwards the controller's patches.
 */
import * as vscode from 'vscode';
import type { ApprovalDecision } from '../core/agent/tools';
import type { Logger } from '../platform/logger';
import { buildChatHtml } from './chatHtml';
import type { ChatController } from './chatController';
import { parseWebviewMessage, type CodeAction, type ExtensionToWebview, type WebviewToExtension } from './protocol';

/** What the webview's buttons do; implemented by registerChat so the commands share the code. */
export interface ChatActions {
  send(text: string): void;
  stop(): void;
  retry(): void;
  /** Opens a tool card's `/memories` path in the memory of the folder the card's call ran in. */
  openMemory(entryId: string, path: string): Promise<void>;
  setApiKey(): void;
  getApiKey(): void;
  openSettings(): void;
  manageTrust(): void;
  openFolder(): void;
  reopenPrevious(): Promise<void>;
  removeAttachment(id: string): void;
  code(action: CodeAction, code: string, language: string | undefined): Promise<void>;
  approve(entryId: string, decision: ApprovalDecision): void;
  openDiff(entryId: string): Promise<void>;
  undoEdit(entryId: string): Promise<void>;
}

type Handlers = { [K in WebviewToExtension['type']]: (message: Extract<WebviewToExtension, { type: K }>) => void | Promise<void> };

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private focusWhenReady = false;
  private description: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly handlers = this.createHandlers();
  private viewDisposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: ChatController,
    private readonly actions: ChatActions,
    private readonly log: Logger,
  ) {
    this.disposables.push(controller.onPatch((patch) => this.post(patch)));
  }

  /** True once the current webview has said `ready` (for tests and for focus requests). */
  get isReady(): boolean {
    return this.ready;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.disposeView();
    this.view = view;
    this.ready = false;
    view.description = this.description;
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [media] };
    this.viewDisposables.push(
      view.webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw)),
      // A hidden webview view loses its page (no retainContextWhenHidden); shown again, the
      // script reloads and says `ready` again. Until then nothing posted would arrive.
      view.onDidChangeVisibility(() => {
        if (this.view === view && !view.visible) this.ready = false;
      }),
      view.onDidDispose(() => {
        if (this.view !== view) return;
        this.view = undefined;
        this.ready = false;
        this.disposeView();
      }),
    );
    const asUri = (...path: string[]) => view.webview.asWebviewUri(vscode.Uri.joinPath(media, ...path)).toString();
    view.webview.html = buildChatHtml({
      cspSource: view.webview.cspSource,
      scriptUri: asUri('dist', 'chat.js'),
      styleUri: asUri('chat.css'),
      codiconsUri: asUri('vendor', 'codicons', 'codicon.css'),
    });
  }

  /**
   * Handles one message from the webview: validated, then dispatched. Integration tests call it
   * too (ChatApi.receiveWebviewMessage), so they take the webview's exact path. Resolves once the
   * message's action is done; its errors are logged, never thrown back at the webview.
   */
  async receive(raw: unknown): Promise<void> {
    const message = parseWebviewMessage(raw);
    if (!message) {
      this.log.warn('ignored an invalid message from the chat webview');
      return;
    }
    try {
      await (this.handlers[message.type] as (m: WebviewToExtension) => void | Promise<void>)(message);
    } catch (error) {
      this.log.error(error instanceof Error ? error : String(error));
    }
  }

  /** The text next to the view's title (the chat's folder in a multi-root workspace), now and for later views. */
  setDescription(description: string | undefined): void {
    this.description = description;
    if (this.view) this.view.description = description;
  }

  /** Asks the webview to focus its input, now or once it is ready. */
  focusInput(): void {
    if (this.ready) this.post({ type: 'focusInput' });
    else this.focusWhenReady = true;
  }

  dispose(): void {
    this.disposeView();
    for (const d of this.disposables) d.dispose();
  }

  private createHandlers(): Handlers {
    return {
      ready: () => {
        // Only a showing webview can be ready (a test's stray `ready` must not mark one).
        if (!this.view) return;
        this.ready = true;
        this.post({ type: 'snapshot', snapshot: this.controller.snapshot() });
        if (this.focusWhenReady) {
          this.focusWhenReady = false;
          this.post({ type: 'focusInput' });
        }
      },
      send: (m) => this.actions.send(m.text),
      stop: () => this.actions.stop(),
      retry: () => this.actions.retry(),
      openMemory: (m) => this.actions.openMemory(m.entryId, m.path),
      setApiKey: () => this.actions.setApiKey(),
      getApiKey: () => this.actions.getApiKey(),
      openSettings: () => this.actions.openSettings(),
      manageTrust: () => this.actions.manageTrust(),
      openFolder: () => this.actions.openFolder(),
      reopenPrevious: () => this.actions.reopenPrevious(),
      removeAttachment: (m) => this.actions.removeAttachment(m.id),
      code: (m) => this.actions.code(m.action, m.code, m.language),
      approve: (m) => this.actions.approve(m.entryId, m.decision),
      openDiff: (m) => this.actions.openDiff(m.entryId),
      undoEdit: (m) => this.actions.undoEdit(m.entryId),
    };
  }

  // Nothing is posted before `ready`: the script would not be listening yet, and the snapshot it
  // gets on `ready` contains everything anyway.
  private post(message: ExtensionToWebview): void {
    if (!this.view || !this.ready) return;
    void this.view.webview.postMessage(message).then(undefined, (error: unknown) => {
      this.log.warn(`could not post to the chat webview: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  private disposeView(): void {
    for (const d of this.viewDisposables) d.dispose();
    this.viewDisposables = [];
  }
}
