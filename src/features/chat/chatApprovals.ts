/**
 * The chat's approval broker: the questions of commands and edits that need consent go on their
 * cards (through ChatApprover), the card's buttons come back here, and the view's badge and
 * progress follow what is waiting. Moved out of ChatController.
 */
import type { ApprovalRequest, CardDecision } from '../../core/agent/tools';
import { ChatApprover } from './chatApprover';
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
  /** Card id → tool_use id of the questions on cards. */
  private readonly approvals = new Map<string, string>();

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
        this.approvals.set(entryId, request.toolUseId);
        const runningFolder = this.hooks.runningFolder();
        if (request.kind === 'edit' && runningFolder) {
          this.hooks.edits.record(entryId, { folder: runningFolder, path: request.path, before: request.before, after: request.after });
        }
      },
      answered: (request, decision, rule) => {
        // The badge goes first: the activity bar shows one of the view's badge and its progress.
        this.waitingChanged.fire(this.approver.waitingRequests);
        if (this.hooks.answering() && this.approver.waitingRequests.length === 0) this.hooks.showProgress(true);
        this.hooks.emit(transcript.setApproval(request.toolUseId, rule !== undefined && request.kind === 'command' ? { ...request, prefixes: [rule] } : request, decision));
      },
    });
  }

  /** A click on a card's approval button; false when that card asks nothing (any more). */
  approve(entryId: string, decision: CardDecision, details: { rule?: string; reason?: string } = {}): boolean {
    const toolUseId = this.approvals.get(entryId);
    if (!toolUseId) return false;
    if (decision === 'sandboxed') {
      // "Allow sandboxed commands in this chat": this command once, later ones without asking.
      const command = this.approver.waiting(toolUseId)?.kind === 'command';
      if (command) this.hooks.allowSandboxedCommands();
      if (!this.approver.decide(toolUseId, 'once')) return false;
      this.approvals.delete(entryId);
      return true;
    }
    if (!this.approver.decide(toolUseId, decision, details)) return false;
    this.approvals.delete(entryId);
    return true;
  }

  /** Refuses every open question (Stop, New Chat, reopen, dispose). */
  denyAll(): void {
    this.approver.denyAll();
  }

  /** Forgets the cards' questions of the conversation being replaced. */
  clear(): void {
    this.approvals.clear();
  }

  dispose(): void {
    this.waitingChanged.dispose();
  }
}
