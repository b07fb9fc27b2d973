/**
 * Runs the memory tool calls of one assistant turn. Unlike the SDK's tool runner (Promise.all),
 * calls run one at a time in the model's order: two edits of one file in one turn both land.
 */
import type {
  BetaMessage,
  BetaToolResultBlockParam,
  BetaToolUseBlock,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { MemoryToolExecutor, MemoryToolResult } from '../memory/types';
import { MEMORY_TOOL } from '../memory/types';
import type { AgentEventListener } from './events';
import { labelToolCall, memoryChangeOf, summarizeToolCall } from './summary';
import type { ToolCallDetail } from './tools';

/** Sent to the model for calls that were not run because the user cancelled. */
export const CANCELLED_TOOL_RESULT = 'Cancelled by the user before this memory operation ran; nothing was changed.';
const INTERNAL_ERROR_RESULT = 'Error: the memory operation failed unexpectedly; nothing is known to have changed. Try again.';

/**
 * Answers for tool calls in a response that did not stop for tool use (e.g. `max_tokens` cut it
 * off): their input may be incomplete, so they are not run, but each still needs a tool_result
 * for the conversation to stay valid.
 */
export function unrunToolResults(toolUses: readonly BetaToolUseBlock[], stopReason: string | null): BetaToolResultBlockParam[] {
  const why = `Not run: the response ended (stop_reason ${stopReason ?? 'none'}) before this memory call was complete; nothing was changed. Send the call again if it is still needed.`;
  return toolUses.map((t) => ({ type: 'tool_result', tool_use_id: t.id, content: why, is_error: true }));
}

export function toolUsesOf(message: BetaMessage): BetaToolUseBlock[] {
  return message.content.filter((b): b is BetaToolUseBlock => b.type === 'tool_use');
}

export interface ToolBatchResult {
  results: BetaToolResultBlockParam[];
  /** True when the signal fired and some calls were answered with CANCELLED_TOOL_RESULT instead of run. */
  cancelled: boolean;
}

export async function runToolCalls(
  toolUses: readonly BetaToolUseBlock[],
  memory: MemoryToolExecutor,
  onEvent: AgentEventListener,
  signal: AbortSignal | undefined,
  logError: (message: string) => void,
): Promise<ToolBatchResult> {
  const results: BetaToolResultBlockParam[] = [];
  let cancelled = false;
  for (const toolUse of toolUses) {
    // A call already running finishes (the engine never stops mid-write); none starts after a cancel.
    if (signal?.aborted) {
      cancelled = true;
      results.push({ type: 'tool_result', tool_use_id: toolUse.id, content: CANCELLED_TOOL_RESULT, is_error: true });
      continue;
    }
    const label = labelToolCall(toolUse.input);
    onEvent({ type: 'tool_start', id: toolUse.id, ...label });
    const result = await execute(toolUse, memory, signal, logError);
    onEvent({
      type: 'tool_end',
      id: toolUse.id,
      ...label,
      is_error: result.is_error,
      summary: summarizeToolCall(toolUse.input, result),
      ...(result.touched ? { touched: result.touched } : {}),
      ...withDetail(result.is_error ? undefined : memoryChangeOf(toolUse.input)),
    });
    results.push({
      type: 'tool_result',
      tool_use_id: toolUse.id,
      content: result.content as BetaToolResultBlockParam['content'],
      is_error: result.is_error,
    });
  }
  return { results, cancelled };
}

function withDetail(detail: ToolCallDetail | undefined): { detail?: ToolCallDetail } {
  return detail ? { detail } : {};
}

async function execute(
  toolUse: BetaToolUseBlock,
  memory: MemoryToolExecutor,
  signal: AbortSignal | undefined,
  logError: (message: string) => void,
): Promise<MemoryToolResult> {
  if (toolUse.name !== MEMORY_TOOL.name) {
    return { is_error: true, content: `Error: unknown tool "${toolUse.name}"; only the memory tool is available.` };
  }
  try {
    return await memory.execute(toolUse.input, signal);
  } catch (error) {
    // The engine reports every expected failure as a result; a throw is a bug. Its message may hold
    // a host path, so it goes to the log only.
    logError(`memory tool call ${toolUse.id} threw: ${error instanceof Error ? error.message : String(error)}`);
    return { is_error: true, content: INTERNAL_ERROR_RESULT };
  }
}
