/**
 * The chat's ToolApprover: a command or an edit that needs the user's consent puts its question
 * on the call's card (Allow once / Always allow … / Deny; Accept / Reject for an edit) and waits
 * for the click. Pure (no `vscode`): the controller routes the card's buttons to decide().
 */
import type { ApprovalAnswer, ApprovalDecision, ApprovalRequest, ToolApprover } from '../../core/agent/tools';

export interface PendingApproval {
  readonly request: ApprovalRequest;
  resolve(answer: ApprovalAnswer): void;
}

export interface ApprovalView {
  /** Shows the question on the card of `request.toolUseId`. */
  asked(request: ApprovalRequest): void;
  /** The question is answered (or withdrawn by Stop): the card shows the outcome. */
  answered(request: ApprovalRequest, decision: ApprovalDecision, rule?: string): void;
}

export class ChatApprover implements ToolApprover {
  private readonly pending = new Map<string, PendingApproval>();

  constructor(private readonly view: ApprovalView) {}

  ask(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalAnswer> {
    if (signal?.aborted) return Promise.resolve({ decision: 'deny' });
    return new Promise<ApprovalAnswer>((resolve) => {
      const onAbort = () => this.decide(request.toolUseId, 'deny');
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(request.toolUseId, {
        request,
        resolve: (answer) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      });
      this.view.asked(request);
    });
  }

  /** The user's answer for the call `toolUseId`; false when nothing is waiting (a stale click). */
  decide(toolUseId: string, decision: ApprovalDecision, details: { rule?: string; reason?: string } = {}): boolean {
    const waiting = this.pending.get(toolUseId);
    if (!waiting) return false;
    const request = waiting.request;
    // "Always" only means something for a command's prefixes; an edit is accepted once. A rule
    // must be one the card offered: the webview's message is not trusted to name another.
    const effective = request.kind === 'edit' && decision === 'always' ? 'once' : decision;
    const rule = effective === 'always' && request.kind === 'command' && details.rule !== undefined ? details.rule : undefined;
    if (rule !== undefined && request.kind === 'command' && !request.prefixes.includes(rule)) return false;
    this.pending.delete(toolUseId);
    this.view.answered(request, effective, rule);
    waiting.resolve({ decision: effective, ...(rule !== undefined ? { rule } : {}), ...(effective === 'deny' && details.reason ? { reason: details.reason } : {}) });
    return true;
  }

  /** Every question still waiting, oldest first. */
  get waitingRequests(): ApprovalRequest[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  /** The request waiting for `toolUseId`, if any. */
  waiting(toolUseId: string): ApprovalRequest | undefined {
    return this.pending.get(toolUseId)?.request;
  }

  /** Denies everything still waiting (New Chat, dispose). */
  denyAll(): void {
    for (const id of [...this.pending.keys()]) this.decide(id, 'deny');
  }
}
