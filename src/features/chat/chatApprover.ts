/**
 * The chat's ToolApprover: a command or an edit that needs the user's consent puts its question
 * on the call's card (Allow once / Always allow … / Deny; Accept / Reject for an edit) and waits
 * for the click; a running command's request for a host is a question on the same card, below
 * the command's own answer. Pure (no `vscode`): the controller routes the card's buttons to decide().
 */
import type { ApprovalAnswer, ApprovalDecision, ApprovalRequest, ToolApprover } from '../../core/agent/tools';
import { networkLabel } from './shared/protocol';

export interface PendingApproval {
  readonly request: ApprovalRequest;
  resolve(answer: ApprovalAnswer): void;
}

/**
 * How a question ended: the user's answer (`rule`: the one "Always allow" rule chosen, undefined
 * for all; `reason`: what they said with Deny), or `withdrawn`: nobody answered (the command
 * ended, Stop, New Chat), so the request was refused without being anyone's decision.
 */
export interface ApprovalOutcome {
  rule?: string;
  reason?: string;
  withdrawn?: true;
}

export interface ApprovalView {
  /** Shows the question on the card of `request.toolUseId`. */
  asked(request: ApprovalRequest): void;
  /** The question is answered (or withdrawn): the card shows the outcome. */
  answered(request: ApprovalRequest, decision: ApprovalDecision, outcome: ApprovalOutcome): void;
}

/**
 * The key of a question: its call's tool_use id, and for a host request the host too (a command
 * may ask for several hosts, after its own question was answered).
 */
export function questionKey(toolUseId: string, host?: string): string {
  return host === undefined ? toolUseId : `${toolUseId}\n${host}`;
}

/** `host:port` of a host request, as its card shows it (networkLabel). */
export function hostLabel(request: Extract<ApprovalRequest, { kind: 'network' }>): string {
  return networkLabel(request);
}

function keyOf(request: ApprovalRequest): string {
  return questionKey(request.toolUseId, request.kind === 'network' ? hostLabel(request) : undefined);
}

export class ChatApprover implements ToolApprover {
  private readonly pending = new Map<string, PendingApproval>();

  constructor(private readonly view: ApprovalView) {}

  ask(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalAnswer> {
    if (signal?.aborted) return Promise.resolve({ decision: 'deny' });
    const key = keyOf(request);
    // The same question twice (a second connection to the same host) waits for the one answer.
    const open = this.pending.get(key);
    if (open) return new Promise<ApprovalAnswer>((resolve) => this.pending.set(key, { request, resolve: (answer) => (open.resolve(answer), resolve(answer)) }));
    return new Promise<ApprovalAnswer>((resolve) => {
      const onAbort = () => this.withdraw(key);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(key, {
        request,
        resolve: (answer) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      });
      this.view.asked(request);
    });
  }

  /**
   * The user's answer to question `key` (questionKey); false when nothing is waiting (a stale
   * click) or the answer names a rule the card did not offer.
   */
  decide(key: string, decision: ApprovalDecision, details: { rule?: string; reason?: string } = {}): boolean {
    const waiting = this.pending.get(key);
    if (!waiting) return false;
    const request = waiting.request;
    // "Always" only means something for a command's prefixes and a host; an edit is accepted once.
    // A rule must be one the card offered: the webview's message is not trusted to name another.
    const effective = request.kind === 'edit' && decision === 'always' ? 'once' : decision;
    const rule = effective === 'always' && request.kind === 'command' && details.rule !== undefined ? details.rule : undefined;
    if (rule !== undefined && request.kind === 'command' && !request.prefixes.includes(rule)) return false;
    // "Always allow" without a rule remembers every rule offered: there must be one.
    if (effective === 'always' && request.kind === 'command' && rule === undefined && request.prefixes.length === 0) return false;
    const reason = effective === 'deny' && request.kind !== 'network' ? details.reason?.trim() || undefined : undefined;
    this.pending.delete(key);
    this.view.answered(request, effective, { ...(rule !== undefined ? { rule } : {}), ...(reason !== undefined ? { reason } : {}) });
    waiting.resolve({ decision: effective, ...(rule !== undefined ? { rule } : {}), ...(reason !== undefined ? { reason } : {}) });
    return true;
  }

  /** Nobody answers question `key` any more: it is refused, and the card says nobody answered. */
  private withdraw(key: string): void {
    const waiting = this.pending.get(key);
    if (!waiting) return;
    this.pending.delete(key);
    this.view.answered(waiting.request, 'deny', { withdrawn: true });
    waiting.resolve({ decision: 'deny' });
  }

  /** Every question still waiting, oldest first. */
  get waitingRequests(): ApprovalRequest[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  /** The request waiting under `key`, if any. */
  waiting(key: string): ApprovalRequest | undefined {
    return this.pending.get(key)?.request;
  }

  /** Withdraws everything still waiting (Stop, New Chat, dispose): refused, as nobody's answer. */
  denyAll(): void {
    for (const key of [...this.pending.keys()]) this.withdraw(key);
  }
}
