/**
 * Builds the body of one Messages API request from the session's history: the memory tool, the
 * configured system prompt, and the two cost features (prompt caching, context editing).
 *
 * Threads (`thread: {type:'create'|'continue'}`, in SDK 1.14.0 as `client.beta.messages.thread()`)
 * are deliberately not used: the API refuses `thread` together with `cache_control` or
 * `context_management` (ThreadUnsupportedFeatureName in the SDK's types), and those two are what
 * keep a long memory session cheap. So every request sends the full history; caching makes the
 * repeated prefix cost 0.1×.
 */
import type {
  BetaCacheControlEphemeral,
  BetaContentBlockParam,
  BetaContextManagementConfig,
  BetaMessageParam,
  BetaTextBlockParam,
  BetaToolUnion,
  MessageCreateParamsBase,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { MEMORY_TOOL } from '../memory/types';
import type { AgentOptions } from './options';

export const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';

/**
 * Context editing defaults, chosen with bench/agent: clear once the prompt passes 30k tokens,
 * keep the 4 most recent memory calls, and only when at least 10k tokens go (a clear breaks the
 * cache from the first cleared result on, so small clears cost more than they save).
 */
export const DEFAULT_CLEAR_TRIGGER_TOKENS = 30_000;
export const DEFAULT_CLEAR_KEEP_TOOL_USES = 4;
export const DEFAULT_CLEAR_AT_LEAST_TOKENS = 10_000;

const EPHEMERAL: BetaCacheControlEphemeral = { type: 'ephemeral' };

export type StreamRequestBody = MessageCreateParamsBase & { messages: BetaMessageParam[] };

export function buildRequest(history: readonly BetaMessageParam[], options: AgentOptions): StreamRequestBody {
  const caching = options.promptCaching;
  const system: BetaTextBlockParam[] | undefined = options.system
    ? [{ type: 'text', text: options.system, ...(caching ? { cache_control: EPHEMERAL } : {}) }]
    : undefined;
  // Breakpoint 1, the stable prefix: the tool definition when there is no system prompt (tools
  // come first in the prompt), else the system block, which covers the tools too.
  const tool: BetaToolUnion = { ...MEMORY_TOOL, ...(caching && !system ? { cache_control: EPHEMERAL } : {}) };
  const body: StreamRequestBody = {
    model: options.model,
    max_tokens: options.maxTokens,
    tools: [tool],
    messages: caching ? withMovingBreakpoints(history) : [...history],
  };
  if (system) body.system = system;
  if (options.contextEditing) {
    body.context_management = contextManagement(options);
    body.betas = [CONTEXT_MANAGEMENT_BETA];
  }
  return body;
}

function contextManagement(options: AgentOptions): BetaContextManagementConfig {
  return {
    edits: [
      {
        type: 'clear_tool_uses_20250919',
        trigger: { type: 'input_tokens', value: options.contextEditingTrigger ?? DEFAULT_CLEAR_TRIGGER_TOKENS },
        keep: { type: 'tool_uses', value: options.contextEditingKeep ?? DEFAULT_CLEAR_KEEP_TOOL_USES },
        clear_at_least: { type: 'input_tokens', value: options.contextEditingClearAtLeast ?? DEFAULT_CLEAR_AT_LEAST_TOKENS },
      },
    ],
  };
}

/**
 * Breakpoints 2 and 3: the last block of the conversation (what this request writes to the cache)
 * and the last block of the previous request (what it reads back). The second one matters when a
 * turn adds more blocks than the API's 20-block lookback (many tool calls in one turn). Copies
 * only the touched messages; the history itself never carries cache_control.
 */
function withMovingBreakpoints(history: readonly BetaMessageParam[]): BetaMessageParam[] {
  const messages = [...history];
  const marks = new Set<number>();
  if (messages.length > 0) marks.add(messages.length - 1);
  // The previous request ended with the user message before the last assistant message.
  const lastAssistant = findLastIndex(messages, (m) => m.role === 'assistant');
  if (lastAssistant > 0 && messages[lastAssistant - 1].role === 'user') marks.add(lastAssistant - 1);
  for (const index of marks) messages[index] = markLastBlock(messages[index]);
  return messages;
}

function markLastBlock(message: BetaMessageParam): BetaMessageParam {
  const blocks: BetaContentBlockParam[] =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...(message.content as BetaContentBlockParam[])];
  if (blocks.length === 0) return message;
  const last = blocks[blocks.length - 1];
  blocks[blocks.length - 1] = { ...last, cache_control: EPHEMERAL } as BetaContentBlockParam;
  return { ...message, content: blocks } as BetaMessageParam;
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i])) return i;
  return -1;
}
