/** The user's side of a conversation: text added to the trailing user message. */
import type { BetaContentBlockParam, BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';

/**
 * Appends a text block to the trailing user message (a prompt after a tool_result message left by
 * a stopped send, a reminder or save request after tool results), or adds a user message.
 */
export function appendUserText(messages: BetaMessageParam[], text: string): void {
  const last = messages[messages.length - 1];
  if (last && last.role === 'user') {
    const content: BetaContentBlockParam[] =
      typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...(last.content as BetaContentBlockParam[])];
    content.push({ type: 'text', text });
    messages[messages.length - 1] = { role: 'user', content };
  } else {
    messages.push({ role: 'user', content: [{ type: 'text', text }] });
  }
}
