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
    messages: caching
      ? withMovingBreakpoints(history, options.contextEditing ? (options.contextEditingKeep ?? DEFAULT_CLEAR_KEEP_TOOL_USES) : undefined)
      : [...history],
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
 * The moving breakpoints (with the stable-prefix one, at most 4 in all):
 * - the last block of the conversation: what this request writes to the cache;
 * - the last block of the previous request: what it reads back, even when this turn added more
 *   blocks than the API's 20-block lookback (many tool calls in one turn);
 * - with context editing, the result of the newest tool use the API will clear (the one just
 *   older than the `keep` most recent): clearing changes the prompt from there on, so without a
 *   breakpoint at that frontier every request after a clear would rewrite the whole conversation.
 * Copies only the touched messages; the history itself never carries cache_control.
 */
function withMovingBreakpoints(history: readonly BetaMessageParam[], keepToolUses: number | undefined): BetaMessageParam[] {
  const messages = [...history];
  const marks: Array<[message: number, block: number]> = [];
  const last = messages.length - 1;
  if (last >= 0) marks.push([last, blockCount(messages[last]) - 1]);
  // The previous request ended with the user message before the last assistant message.
  const lastAssistant = findLastIndex(messages, (m) => m.role === 'assistant');
  if (lastAssistant > 0 && messages[lastAssistant - 1].role === 'user') {
    marks.push([lastAssistant - 1, blockCount(messages[lastAssistant - 1]) - 1]);
  }
  if (keepToolUses !== undefined) {
    const frontier = clearingFrontier(messages, keepToolUses);
    if (frontier) marks.push(frontier);
  }
  for (const [index, block] of marks) messages[index] = markBlock(messages[index], block);
  return messages;
}

/** Where the tool_result of the newest tool use that clear_tool_uses would clear sits, if any. */
function clearingFrontier(messages: readonly BetaMessageParam[], keep: number): [number, number] | undefined {
  const useIds: string[] = [];
  for (const m of messages) {
    if (m.role === 'assistant' && Array.isArray(m.content)) {
      for (const b of m.content) if (b.type === 'tool_use') useIds.push(b.id);
    }
  }
  if (useIds.length <= keep) return undefined;
  const target = useIds[useIds.length - keep - 1];
  for (let i = messages.length - 1; i >= 0; i--) {
    const content = messages[i].content;
    if (messages[i].role !== 'user' || !Array.isArray(content)) continue;
    const index = content.findIndex((b) => b.type === 'tool_result' && b.tool_use_id === target);
    if (index >= 0) return [i, index];
  }
  return undefined;
}

function blockCount(message: BetaMessageParam): number {
  return typeof message.content === 'string' ? 1 : (message.content?.length ?? 0);
}

function markBlock(message: BetaMessageParam, index: number): BetaMessageParam {
  const blocks: BetaContentBlockParam[] =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...((message.content ?? []) as BetaContentBlockParam[])];
  if (index < 0 || index >= blocks.length) return message;
  blocks[index] = { ...blocks[index], cache_control: EPHEMERAL } as BetaContentBlockParam;
  return { ...message, content: blocks } as BetaMessageParam;
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i])) return i;
  return -1;
}
