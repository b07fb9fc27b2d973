/**
 * The chat's ToolApprover: a command or an edit that needs the user's consent puts its question
 * on the call's card (Allow once / Always allow … / Deny; Accept / Reject for an edit) and waits
 * for the click. Pure (no `vscode`): the controller routes the card's buttons to decide().
 */
import type { ApprovalDecision, ApprovalRequest, ToolApprover } from '../core/agent/tools';

export interface PendingApproval {
  readonly request: ApprovalRequest;
  resolve(decision: ApprovalDecision): void;
}

export interface ApprovalView {
  /** Shows the question on the card of `request.toolUseId`. */
  asked(request: ApprovalRequest): void;
  /** The question is answered (or withdrawn by Stop): the card shows the outcome. */
  answered(request: ApprovalRequest, decision: ApprovalDecision): void;
}

export class ChatApprover implements ToolApprover {
  private readonly pending = new Map<string, PendingApproval>();

  constructor(private readonly view: ApprovalView) {}

  ask(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalDecision> {
    if (signal?.aborted) return Promise.resolve('deny');
    return new Promise<ApprovalDecision>((resolve) => {
      const onAbort = () => this.decide(request.toolUseId, 'deny');
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(request.toolUseId, {
        request,
        resolve: (decision) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(decision);
        },
      });
      this.view.asked(request);
    });
  }

  /** The user's answer for the call `toolUseId`; false when nothing is waiting (a stale click). */
  decide(toolUseId: string, decision: ApprovalDecision): boolean {
    const waiting = this.pending.get(toolUseId);
    if (!waiting) return false;
    this.pending.delete(toolUseId);
    // "Always" only means something for a command's prefixes; an edit is accepted once.
    const effective = waiting.request.kind === 'edit' && decision === 'always' ? 'once' : decision;
    this.view.answered(waiting.request, effective);
    waiting.resolve(effective);
    return true;
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
