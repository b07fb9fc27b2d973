/** The workspace memory for agents other than Claude: the Language Model tool and the MCP server definitions. */
export { registerAgentAccess as register, type AgentAccess } from './registerAgentAccess';
