/**
 * A conversation read back from storage, made safe to continue: the Messages API refuses a
 * history whose assistant tool_use has no tool_result in the next user message, or whose
 * tool_result answers no call. A history saved while a send was running (the window reloaded
 * mid-answer) can end in exactly that state, so every tool_use left unanswered gets an error
 * result here, the way a cancelled batch does in the loop (toolCalls.ts).
 */
import type {
  BetaAssistantMessageParam,
  BetaContentBlockParam,
  BetaMessageParam,
  BetaToolResultBlockParam,
  BetaUserMessageParam,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';

/** The roles a chat's history holds (the loop never writes system messages into it). */
type ChatMessage = BetaUserMessageParam | BetaAssistantMessageParam;

/** The model's result for a call whose answer never came back (the window reloaded while it ran). */
export const INTERRUPTED_TOOL_RESULT =
  'Interrupted: the editor window was reloaded before this tool call finished, so its result is unknown. Check its effect before relying on it.';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isBlock(value: unknown): value is BetaContentBlockParam {
  return isRecord(value) && typeof value.type === 'string';
}

/** The message's content as a list of blocks (a string is one text block). */
function blocksOf(message: ChatMessage): BetaContentBlockParam[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...message.content];
}

function toolUseIds(message: ChatMessage): string[] {
  if (message.role !== 'assistant' || typeof message.content === 'string') return [];
  // Server tools (web search and the like) carry their results in the same message.
  return message.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
}

/**
 * Reads a stored history: undefined when it is not a list of `{role, content}` messages at all
 * (the caller starts without it). Otherwise a copy in which every tool_use has its tool_result
 * right after it, no tool_result answers a call that is not there, no message is empty, and the
 * first message is the user's.
 */
export function restoreConversation(value: unknown): BetaMessageParam[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const messages: ChatMessage[] = [];
  for (const item of value) {
    if (!isRecord(item) || (item.role !== 'user' && item.role !== 'assistant')) return undefined;
    const content = item.content;
    if (typeof content === 'string') messages.push({ role: item.role, content });
    else if (Array.isArray(content) && content.every(isBlock)) messages.push({ role: item.role, content: content.map((b) => ({ ...b })) });
    else return undefined;
  }
  return repairToolPairs(messages);
}

function repairToolPairs(input: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  /** Calls of the assistant message just before, still waiting for their results. */
  let open: string[] = [];
  for (const message of input) {
    if (message.role === 'user') {
      const answered = new Set(open);
      // Results that answer a call of the message before stay; strays would be refused.
      const blocks = blocksOf(message).filter((b) => b.type !== 'tool_result' || answered.delete(b.tool_use_id));
      const results = blocks.filter((b) => b.type === 'tool_result');
      const rest = blocks.filter((b) => b.type !== 'tool_result');
      const content = [...results, ...interrupted([...answered]), ...rest];
      open = [];
      if (content.length > 0) out.push({ role: 'user', content });
      continue;
    }
    if (open.length > 0) out.push({ role: 'user', content: interrupted(open) });
    if (out.length === 0) continue; // The API wants the user first.
    const blocks = blocksOf(message);
    if (blocks.length === 0) {
      open = [];
      continue;
    }
    out.push({ role: 'assistant', content: blocks });
    open = toolUseIds(message);
  }
  if (open.length > 0) out.push({ role: 'user', content: interrupted(open) });
  return out;
}

function interrupted(ids: readonly string[]): BetaToolResultBlockParam[] {
  return ids.map((id) => ({ type: 'tool_result', tool_use_id: id, content: INTERRUPTED_TOOL_RESULT, is_error: true }));
}

/** A user message that starts an exchange: typed by the user, not the answer to tool calls. */
function startsExchange(message: BetaMessageParam): boolean {
  return message.role === 'user' && blocksOf(message).every((b) => b.type !== 'tool_result');
}

/**
 * The latest part of a history that fits in `maxChars` of JSON, cut only where an exchange
 * starts (so no tool_result loses its tool_use). Empty when not even the last exchange fits.
 */
export function trimConversation(messages: readonly BetaMessageParam[], maxChars: number): BetaMessageParam[] {
  if (JSON.stringify(messages).length <= maxChars) return [...messages];
  let size = 2; // "[]"
  let cut = messages.length;
  for (let i = messages.length - 1; i >= 0; i--) {
    size += JSON.stringify(messages[i]).length + 1;
    if (size > maxChars) break;
    if (startsExchange(messages[i])) cut = i;
  }
  return messages.slice(cut);
}
