/**
 * Runs the tool calls of one assistant turn (memory, editor, bash). Unlike the SDK's tool runner
 * (Promise.all), calls run one at a time in the model's order: two edits of one file in one turn
 * both land, and a command sees the edit made just before it.
 */
import type {
  BetaMessage,
  BetaToolResultBlockParam,
  BetaToolUseBlock,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { AgentEventListener } from './events';
import { labelToolCall } from './summary';
import type { AgentTool, AgentToolLabel, AgentToolResult } from './tools';

/** Sent to the model for calls that were not run because the user cancelled. */
export const CANCELLED_TOOL_RESULT = 'Cancelled by the user before this tool call ran; nothing was changed.';
const INTERNAL_ERROR_RESULT = 'Error: the tool call failed unexpectedly; nothing is known to have changed. Try again.';

/**
 * Answers for tool calls in a response that did not stop for tool use (e.g. `max_tokens` cut it
 * off): their input may be incomplete, so they are not run, but each still needs a tool_result
 * for the conversation to stay valid.
 */
export function unrunToolResults(toolUses: readonly BetaToolUseBlock[], stopReason: string | null): BetaToolResultBlockParam[] {
  const why = `Not run: the response ended (stop_reason ${stopReason ?? 'none'}) before this tool call was complete; nothing was changed. Send the call again if it is still needed.`;
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

/** Runs each call with the tool of its name (see sessionTools), in order, reporting events. */
export async function runToolCalls(
  toolUses: readonly BetaToolUseBlock[],
  tools: readonly AgentTool[],
  onEvent: AgentEventListener,
  signal: AbortSignal | undefined,
  logError: (message: string) => void,
): Promise<ToolBatchResult> {
  const results: BetaToolResultBlockParam[] = [];
  let cancelled = false;
  for (const toolUse of toolUses) {
    // A call already running finishes or honours the signal itself; none starts after a cancel.
    if (signal?.aborted) {
      cancelled = true;
      results.push({ type: 'tool_result', tool_use_id: toolUse.id, content: CANCELLED_TOOL_RESULT, is_error: true });
      continue;
    }
    const tool = tools.find((t) => t.name === toolUse.name);
    const label = safeLabel(tool, toolUse.input);
    onEvent({ type: 'tool_start', id: toolUse.id, tool: toolUse.name, ...label });
    const result = tool ? await execute(tool, toolUse, signal, onEvent, logError) : unknownTool(toolUse.name, tools);
    onEvent({
      type: 'tool_end',
      id: toolUse.id,
      tool: toolUse.name,
      ...label,
      is_error: result.is_error,
      summary: tool ? safeSummary(tool, toolUse.input, result) : firstLine(result.content),
      ...(result.touched ? { touched: result.touched } : {}),
      ...(result.detail ? { detail: result.detail } : {}),
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

function unknownTool(name: string, tools: readonly AgentTool[]): AgentToolResult {
  const shown = JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);
  return { is_error: true, content: `Error: there is no tool named ${shown}; the tools available are ${tools.map((t) => t.name).join(', ')}.` };
}

async function execute(
  tool: AgentTool,
  toolUse: BetaToolUseBlock,
  signal: AbortSignal | undefined,
  onEvent: AgentEventListener,
  logError: (message: string) => void,
): Promise<AgentToolResult> {
  try {
    return await tool.execute(toolUse.input, {
      toolUseId: toolUse.id,
      signal,
      onOutput: (text) => {
        if (text !== '') onEvent({ type: 'tool_output', id: toolUse.id, text });
      },
    });
  } catch (error) {
    // Tools report every expected failure as a result; a throw is a bug. Its message may hold a
    // host path, so it goes to the log only.
    logError(`${tool.name} tool call ${toolUse.id} threw: ${error instanceof Error ? error.message : String(error)}`);
    return { is_error: true, content: INTERNAL_ERROR_RESULT };
  }
}

function safeLabel(tool: AgentTool | undefined, input: unknown): AgentToolLabel {
  try {
    return tool ? tool.label(input) : labelToolCall(input);
  } catch {
    return { command: 'unknown' };
  }
}

function safeSummary(tool: AgentTool, input: unknown, result: AgentToolResult): string {
  try {
    return tool.summarize(input, result);
  } catch {
    return firstLine(result.content);
  }
}

function firstLine(content: AgentToolResult['content']): string {
  const text = typeof content === 'string' ? content : content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
  return text.split('\n')[0].trim();
}
