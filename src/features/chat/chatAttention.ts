/**
 * A card that waits for the user while the chat is out of sight: a badge on the chat view (the
 * count of waiting cards) and one notification per new question, with Open Chat, as VS Code's own
 * chat does for confirmations. Pure (no `vscode`): registerChat applies what it says.
 */
import type { ApprovalRequest } from '../../core/agent/tools';

export interface Attention {
  /** The chat view's badge: undefined when nothing waits. */
  badge: { value: number; tooltip: string } | undefined;
  /** The notification to show now, if any. */
  notify: string | undefined;
}

const MAX_COMMAND_CHARS = 60;

/** What a waiting card asks, in a few words: `run "npm test"`, `edit src/a.ts`, `reach example.com`. */
export function describeWaiting(request: ApprovalRequest): string {
  if (request.kind === 'edit') return `to edit ${request.path}`;
  if (request.kind === 'network') return `to let "${cut(request.command)}" reach ${request.host}${request.port !== undefined ? `:${request.port}` : ''}`;
  return `to run "${cut(request.command)}"`;
}

function cut(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= MAX_COMMAND_CHARS ? line : `${line.slice(0, MAX_COMMAND_CHARS - 1)}…`;
}

/**
 * Tracks the waiting cards. `update` takes what waits now and whether the user can see the chat
 * (a chat view or panel visible in a focused window); it notifies only of questions not notified
 * before, and only when the chat is out of sight.
 */
export class ChatAttention {
  private notified = new Set<string>();

  update(waiting: readonly ApprovalRequest[], inSight: boolean): Attention {
    const fresh = waiting.filter((r) => !this.notified.has(r.toolUseId));
    this.notified = new Set(waiting.map((r) => r.toolUseId));
    const n = waiting.length;
    const badge = n === 0 ? undefined : { value: n, tooltip: n === 1 ? 'Claude is waiting for your answer on a card' : `Claude is waiting for your answers on ${n} cards` };
    if (inSight || fresh.length === 0) return { badge, notify: undefined };
    const more = waiting.length > 1 ? ` (${waiting.length} cards wait)` : '';
    return { badge, notify: `Claude is waiting for your permission ${describeWaiting(fresh[0])}${more}.` };
  }
}
