/**
 * The chat's approval broker: the questions of commands and edits that need consent go on their
 * cards (through ChatApprover), the card's buttons come back here, and the view's badge and
 * progress follow what is waiting. Moved out of ChatController.
 */
import type { ApprovalRequest, CardDecision } from '../../core/agent/tools';
import { ChatApprover, hostLabel, questionKey } from './chatApprover';
import type { ChatTranscript, ChatPatch } from './chatTranscript';
import type { ChatEmitter, ChatEnvironment, ChatEvent, ChatFolder, EditLedger } from './chatPort';

export interface ChatApprovalsHooks {
  readonly transcript: ChatTranscript;
  readonly edits: EditLedger;
  emit(patches: ChatPatch[]): void;
  /** The chat view's progress indicator on or off. */
  showProgress(on: boolean): void;
  /** True while an answer streams (its AbortController is set). */
  answering(): boolean;
  /** The folder of the running send (edits are relative to it). */
  runningFolder(): ChatFolder | undefined;
  /** "Allow sandboxed commands in this chat" (ChatAgents.allowSandboxedCommands). */
  allowSandboxedCommands(): void;
}

export class ChatApprovals {
  /** Asks on the cards of commands and edits that need consent (the tools' ToolApprover). */
  readonly approver: ChatApprover;
  private readonly waitingChanged: ChatEmitter<readonly ApprovalRequest[]>;
  /** Fires with every question still waiting on a card whenever one is asked or answered. */
  readonly onDidChangeWaiting: ChatEvent<readonly ApprovalRequest[]>;
  /** Question on a card (questionKey of the card id and host) → its questionKey in the approver. */
  private readonly approvals = new Map<string, string>();
  /** Hosts whose "blocked" line offered to add them to sandbox.allowedDomains (once per host in a chat). */
  private readonly offeredHosts = new Set<string>();

  constructor(env: Pick<ChatEnvironment, 'emitter'>, private readonly hooks: ChatApprovalsHooks) {
    this.waitingChanged = env.emitter<readonly ApprovalRequest[]>();
    this.onDidChangeWaiting = this.waitingChanged.event;
    const { transcript } = hooks;
    this.approver = new ChatApprover({
      asked: (request) => {
        // The answer waits for the user, not the other way round: the view's progress stops, so
        // its badge (the cards waiting) shows on the activity bar instead of the spinner.
        this.hooks.showProgress(false);
        this.waitingChanged.fire(this.approver.waitingRequests);
        this.hooks.emit(transcript.setApproval(request.toolUseId, request, 'pending'));
        const entryId = transcript.entryIdOf(request.toolUseId);
        if (!entryId) return;
        const host = request.kind === 'network' ? hostLabel(request) : undefined;
        this.approvals.set(questionKey(entryId, host), questionKey(request.toolUseId, host));
        const runningFolder = this.hooks.runningFolder();
        if (request.kind === 'edit' && runningFolder) {
          this.hooks.edits.record(entryId, { folder: runningFolder, path: request.path, before: request.before, after: request.after });
        }
      },
      answered: (request, decision, outcome) => {
        // The badge goes first: the activity bar shows one of the view's badge and its progress.
        this.waitingChanged.fire(this.approver.waitingRequests);
        if (this.hooks.answering() && this.approver.waitingRequests.length === 0) this.hooks.showProgress(true);
        const entryId = transcript.entryIdOf(request.toolUseId);
        if (entryId) this.approvals.delete(questionKey(entryId, request.kind === 'network' ? hostLabel(request) : undefined));
        const shown = outcome.rule !== undefined && request.kind === 'command' ? { ...request, prefixes: [outcome.rule] } : request;
        // A host nobody answered for is blocked; the first time in this chat, its line offers to allow it for later commands.
        const offer = request.kind === 'network' && outcome.withdrawn === true && !this.offeredHosts.has(request.host);
        if (offer && request.kind === 'network') this.offeredHosts.add(request.host);
        this.hooks.emit(transcript.setApproval(request.toolUseId, shown, decision, { ...outcome, ...(offer ? { offer: true as const } : {}) }));
      },
    });
  }

  /**
   * A click on a card's approval button (`host`: of the card's host question); false when that
   * card asks nothing (any more).
   */
  approve(entryId: string, decision: CardDecision, details: { rule?: string; reason?: string; host?: string } = {}): boolean {
    const key = this.approvals.get(questionKey(entryId, details.host));
    if (!key) return false;
    if (decision === 'sandboxed') {
      // "Allow sandboxed commands in this chat": this command once, later ones without asking.
      const request = this.approver.waiting(key);
      if (request?.kind !== 'command' || request.sandboxed !== true) return false;
      this.hooks.allowSandboxedCommands();
      return this.approver.decide(key, 'once');
    }
    return this.approver.decide(key, decision, details);
  }

  /**
   * A blocked host's offer on card `entryId`: adds the host (`add`) only when the card shows that
   * host blocked with the offer (the webview's message is not trusted to name another); the card
   * then says it was added. False when the card offers no such thing.
   */
  async allowBlockedHost(entryId: string, label: string, add: (host: string) => Promise<void>): Promise<boolean> {
    const host = this.hooks.transcript.blockedHost(entryId, label);
    if (host === undefined) return false;
    await add(host);
    this.hooks.emit(this.hooks.transcript.markHostAdded(entryId, label));
    return true;
  }

  /** Refuses every open question (Stop, New Chat, reopen, dispose). */
  denyAll(): void {
    this.approver.denyAll();
  }

  /** Forgets the cards' questions of the conversation being replaced. */
  clear(): void {
    this.approvals.clear();
    this.offeredHosts.clear();
  }

  dispose(): void {
    this.waitingChanged.dispose();
  }
}
