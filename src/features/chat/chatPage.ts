/**
 * One chat page in one webview (the side-bar view or the editor panel): the HTML, the `ready`
 * handshake, the patches the controller emits, and the page's messages routed to the shared
 * actions. Both places show the same controller, so they always show the same conversation.
 */
import * as vscode from 'vscode';
import type { CardDecision } from '../../core/agent/tools';
import type { Logger } from '../../platform/logger';
import type { ChatController } from './chatController';
import { buildChatHtml } from './chatHtml';
import type { SummaryRowKind } from './shared/changeSummary';
import { parseWebviewMessage, type CodeAction, type ExtensionToWebview, type FollowUpAction, type StarterAction, type SummaryAction, type WebviewToExtension } from './shared/protocol';

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
  /** Claude Memory: Manage Command Rules. */
  manageRules(): void;
  /** Opens the setting claudeMemory.sandbox (an unsandboxed command's card). */
  sandboxSetting(): void;
  /** A blocked host's offer on card `entryId`: adds it to the user's sandbox.allowedDomains. */
  allowHost(entryId: string, host: string): Promise<void>;
  openFolder(): void;
  reopenPrevious(): Promise<void>;
  removeAttachment(id: string): void;
  toggleAttachment(id: string): void;
  code(action: CodeAction, code: string, language: string | undefined): Promise<void>;
  approve(entryId: string, decision: CardDecision, details?: { rule?: string; reason?: string; host?: string }): void;
  openDiff(entryId: string): Promise<void>;
  undoEdit(entryId: string): Promise<void>;
  /** "Rewind to here" on a user message: the preview, then the rewind. */
  rewind(entryId: string): Promise<void>;
  /** "Undo Rewind" on a rewound message. */
  undoRewind(entryId: string): Promise<void>;
  /** Shows a memory write card's version in the Memory Changes feed and opens its diff. */
  showChange(entryId: string): Promise<void>;
  unfoldOutput(entryId: string): void;
  /** Opens a workspace file card's file (at the lines it read). */
  openFile(entryId: string): Promise<void>;
  /** The empty chat's starter actions. */
  starter(action: StarterAction): void;
  /** A change summary row's Open Diff, Keep, Undo; without a row: Keep All, Undo All. */
  summary(action: SummaryAction, row: { kind: SummaryRowKind; path: string } | undefined): Promise<void>;
  /** A follow-up button under a message: Review features.json, Resume Session (chatFollowUps.ts). */
  followUp(entryId: string, action: FollowUpAction): Promise<void>;
}

type Handlers = { [K in Exclude<WebviewToExtension['type'], 'ready'>]: (message: Extract<WebviewToExtension, { type: K }>) => void | Promise<void> };

/**
 * Validates a message from any chat page and runs its action. Integration tests call it too
 * (ChatApi.receiveWebviewMessage), so they take the webview's exact path. Resolves once the action
 * is done; errors are logged, never thrown back at the webview. `ready` belongs to a page: ignored.
 */
export function chatMessageRouter(actions: ChatActions, log: Logger): (raw: unknown) => Promise<void> {
  const handlers: Handlers = {
    send: (m) => actions.send(m.text),
    stop: () => actions.stop(),
    retry: () => actions.retry(),
    openMemory: (m) => actions.openMemory(m.entryId, m.path),
    setApiKey: () => actions.setApiKey(),
    getApiKey: () => actions.getApiKey(),
    openSettings: () => actions.openSettings(),
    manageTrust: () => actions.manageTrust(),
    manageRules: () => actions.manageRules(),
    sandboxSetting: () => actions.sandboxSetting(),
    allowHost: (m) => actions.allowHost(m.entryId, m.host),
    openFolder: () => actions.openFolder(),
    reopenPrevious: () => actions.reopenPrevious(),
    removeAttachment: (m) => actions.removeAttachment(m.id),
    toggleAttachment: (m) => actions.toggleAttachment(m.id),
    code: (m) => actions.code(m.action, m.code, m.language),
    approve: (m) => actions.approve(m.entryId, m.decision, { rule: m.rule, reason: m.reason, host: m.host }),
    openDiff: (m) => actions.openDiff(m.entryId),
    undoEdit: (m) => actions.undoEdit(m.entryId),
    rewind: (m) => actions.rewind(m.entryId),
    undoRewind: (m) => actions.undoRewind(m.entryId),
    showChange: (m) => actions.showChange(m.entryId),
    unfoldOutput: (m) => actions.unfoldOutput(m.entryId),
    openFile: (m) => actions.openFile(m.entryId),
    starter: (m) => actions.starter(m.action),
    summary: (m) => actions.summary(m.action, { kind: m.kind, path: m.path }),
    summaryAll: (m) => actions.summary(m.action, undefined),
    followUp: (m) => actions.followUp(m.entryId, m.action),
  };
  return async (raw) => {
    const message = parseWebviewMessage(raw);
    if (!message) {
      log.warn('ignored an invalid message from the chat webview');
      return;
    }
    if (message.type === 'ready') return;
    try {
      await (handlers[message.type] as (m: WebviewToExtension) => void | Promise<void>)(message);
    } catch (error) {
      log.error(error instanceof Error ? error : String(error));
    }
  };
}

export class ChatPage implements vscode.Disposable {
  private ready = false;
  private focusWhenReady = false;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly webview: vscode.Webview,
    extensionUri: vscode.Uri,
    private readonly controller: ChatController,
    route: (raw: unknown) => Promise<void>,
    private readonly log: Logger,
  ) {
    const media = vscode.Uri.joinPath(extensionUri, 'media');
    webview.options = { enableScripts: true, localResourceRoots: [media] };
    this.disposables.push(
      controller.onPatch((patch) => this.post(patch)),
      webview.onDidReceiveMessage((raw: unknown) => {
        if (typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'ready') this.onReady();
        else void route(raw);
      }),
    );
    const asUri = (...path: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(media, ...path)).toString();
    webview.html = buildChatHtml({
      cspSource: webview.cspSource,
      scriptUri: asUri('dist', 'chat.js'),
      styleUri: asUri('chat.css'),
      codiconsUri: asUri('vendor', 'codicons', 'codicon.css'),
    });
  }

  /** True once the page has said `ready` (and was not hidden since). */
  get isReady(): boolean {
    return this.ready;
  }

  /**
   * The page was hidden: without retainContextWhenHidden it loses its document, and says `ready`
   * again when shown. Until then nothing posted would arrive.
   */
  hidden(): void {
    this.ready = false;
  }

  /** Asks the page to focus its input, now or once it is ready. */
  focusInput(): void {
    if (this.ready) this.post({ type: 'focusInput' });
    else this.focusWhenReady = true;
  }

  dispose(): void {
    this.ready = false;
    for (const d of this.disposables) d.dispose();
  }

  private onReady(): void {
    this.ready = true;
    this.post({ type: 'snapshot', snapshot: this.controller.viewSnapshot() });
    if (this.focusWhenReady) {
      this.focusWhenReady = false;
      this.post({ type: 'focusInput' });
    }
  }

  // Nothing is posted before `ready`: the script would not be listening yet, and the snapshot it
  // gets on `ready` contains everything anyway.
  private post(message: ExtensionToWebview): void {
    if (!this.ready) return;
    void this.webview.postMessage(message).then(undefined, (error: unknown) => {
      this.log.warn(`could not post to the chat webview: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
}
