/** The agent loop's public surface: sessions, their options and events. */
export { AgentLoop } from './agentLoop';
export type { AgentOptions, AgentLogger } from './options';
export type { AgentEvent, AgentEventListener, AgentErrorKind, AgentOutcome, AgentUsage } from './events';
export { emptyUsage } from './events';
export { CONTEXT_MANAGEMENT_BETA } from './request';
export { AGENT_DEFAULTS } from './defaults';
export type {
  AgentTool,
  AgentToolLabel,
  AgentToolResult,
  ApprovalDecision,
  ApprovalRequest,
  ToolApprover,
  ToolCallContext,
  ToolCallDetail,
} from './tools';
