/**
 * Builds the body of one Messages API request from the session's conversation: the memory tool, the
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
  BetaMessageParam,
  BetaTextBlockParam,
  BetaToolUnion,
  MessageCreateParamsBase,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { planClearing, type ClearingPlan } from './clearing';
import { compactionEdit, COMPACTION_BETA } from './compaction';
import type { AgentOptions } from './options';
import type { AgentTool } from './tools';

export const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';

/**
 * Context editing defaults, chosen with bench/agent (see clearing.ts for the batching): the API
 * clears once the prompt passes 20k tokens; the 2 newest memory calls always stay; the frontier
 * moves in batches of at least 8k tokens, which is also the API's clear_at_least.
 */
export const DEFAULT_CLEAR_TRIGGER_TOKENS = 20_000;
export const DEFAULT_CLEAR_KEEP_TOOL_USES = 2;
export const DEFAULT_CLEAR_AT_LEAST_TOKENS = 8_000;

const EPHEMERAL: BetaCacheControlEphemeral = { type: 'ephemeral' };

export type StreamRequestBody = MessageCreateParamsBase & { messages: BetaMessageParam[] };

/**
 * `tools`: the session's tools, memory first (sessionTools). Their definitions never change within
 * a session, so with the system prompt they form the stable prefix that breakpoint 1 caches.
 */
export function buildRequest(conversation: readonly BetaMessageParam[], options: AgentOptions, tools: readonly AgentTool[]): StreamRequestBody {
  const caching = options.promptCaching;
  const clearAtLeast = options.contextEditingClearAtLeast ?? DEFAULT_CLEAR_AT_LEAST_TOKENS;
  const plan = options.contextEditing
    ? planClearing(conversation, options.contextEditingKeep ?? DEFAULT_CLEAR_KEEP_TOOL_USES, clearAtLeast)
    : undefined;
  const system: BetaTextBlockParam[] | undefined = options.system
    ? [{ type: 'text', text: options.system, ...(caching ? { cache_control: EPHEMERAL } : {}) }]
    : undefined;
  // Breakpoint 1, the stable prefix: the last tool definition when there is no system prompt
  // (tools come first in the prompt), else the system block, which covers the tools too.
  const definitions: BetaToolUnion[] = tools.map((t) => t.definition());
  const last = definitions.length - 1;
  if (caching && !system && last >= 0) definitions[last] = { ...definitions[last], cache_control: EPHEMERAL } as BetaToolUnion;
  const body: StreamRequestBody = {
    model: options.model,
    max_tokens: options.maxTokens,
    tools: definitions,
    messages: caching ? withMovingBreakpoints(conversation, plan) : [...conversation],
  };
  if (system) body.system = system;
  const edits: NonNullable<StreamRequestBody['context_management']>['edits'] = [];
  const betas: string[] = [];
  if (plan) {
    // Every tool's old results are clearable, memory's included: the plan counts all tool uses
    // (the API's `keep` does too), and in a memory-only chat memory results are the only ones;
    // `exclude_tools: ['memory']` would stop clearing there altogether. A cleared memory result
    // is one `view` away.
    edits.push({
      type: 'clear_tool_uses_20250919',
      trigger: { type: 'input_tokens', value: options.contextEditingTrigger ?? DEFAULT_CLEAR_TRIGGER_TOKENS },
      keep: { type: 'tool_uses', value: plan.keep },
      clear_at_least: { type: 'input_tokens', value: clearAtLeast },
    });
    betas.push(CONTEXT_MANAGEMENT_BETA);
  }
  if (options.compaction) {
    edits.push(compactionEdit(options.compactionTrigger, options.compactionInstructions));
    betas.push(COMPACTION_BETA);
  }
  if (edits.length > 0) {
    body.context_management = { edits };
    body.betas = betas;
  }
  return body;
}

/**
 * The moving breakpoints (with the stable-prefix one, at most 4 in all):
 * - the last block of the conversation: what this request writes to the cache;
 * - the last block of the previous request: what it reads back, even when this turn added more
 *   blocks than the API's 20-block lookback (many tool calls in one turn);
 * - with context editing, the result of the newest clearable tool use: when the server clears up
 *   to there, the prompt changes from there on, and the next requests read the cleared prefix
 *   back from this entry.
 * Copies only the touched messages; the history itself never carries cache_control.
 */
function withMovingBreakpoints(conversation: readonly BetaMessageParam[], plan: ClearingPlan | undefined): BetaMessageParam[] {
  const messages = [...conversation];
  const marks: Array<[message: number, block: number]> = [];
  const last = messages.length - 1;
  if (last >= 0) marks.push([last, blockCount(messages[last]) - 1]);
  // The previous request ended with the user message before the last assistant message.
  const lastAssistant = findLastIndex(messages, (m) => m.role === 'assistant');
  if (lastAssistant > 0 && messages[lastAssistant - 1].role === 'user') {
    marks.push([lastAssistant - 1, blockCount(messages[lastAssistant - 1]) - 1]);
  }
  if (plan?.frontierResult) marks.push(plan.frontierResult);
  for (const [index, block] of marks) messages[index] = markBlock(messages[index], block);
  return messages;
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
