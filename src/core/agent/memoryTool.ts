/**
 * The memory tool seen through the same AgentTool contract as the workspace tools, so the loop
 * has one dispatch path: by name, over one list whose first entry is always memory.
 */
import type { BetaToolUnion } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { MEMORY_TOOL, type MemoryToolExecutor } from '../memory/types';
import { isDirectoryListing, labelToolCall, memoryChangeOf, summarizeToolCall } from './summary';
import type { AgentTool, AgentToolLabel, AgentToolResult, ToolCallContext, ToolCallDetail } from './tools';

export class MemoryAgentTool implements AgentTool {
  readonly name = MEMORY_TOOL.name;

  constructor(private readonly memory: MemoryToolExecutor) {}

  definition(): BetaToolUnion {
    return { ...MEMORY_TOOL };
  }

  label(input: unknown): AgentToolLabel {
    return labelToolCall(input);
  }

  summarize(input: unknown, result: AgentToolResult): string {
    return summarizeToolCall(input, result);
  }

  /**
   * The engine's result, with what a successful write changed for the chat's card
   * (memoryChangeOf), or whether a successful read was a file (the chat's "read N memory files").
   */
  async execute(input: unknown, context: ToolCallContext): Promise<AgentToolResult> {
    const result = await this.memory.execute(input, context.signal);
    if (result.is_error) return result;
    const detail: ToolCallDetail | undefined =
      result.touched?.kind === 'read' ? { kind: 'memoryRead', target: isDirectoryListing(result.content) ? 'directory' : 'file' } : memoryChangeOf(input);
    return detail ? { ...result, detail } : result;
  }
}

/** Every tool of a session, memory first (its place in the stable, cached prefix never moves). */
export function sessionTools(memory: MemoryToolExecutor, others: readonly AgentTool[] | undefined): AgentTool[] {
  const tools: AgentTool[] = [new MemoryAgentTool(memory)];
  for (const tool of others ?? []) {
    if (tools.some((t) => t.name === tool.name)) throw new Error(`two tools are named "${tool.name}"`);
    tools.push(tool);
  }
  return tools;
}
