/** Gives agents other than Claude the workspace memory: the Language Model tool and the MCP server definitions. */
import * as vscode from 'vscode';
import { SHARED_TOOL_NAME } from '../../core/memory/sharedTool';
import type { ExtensionServices } from '../../platform/services';
import { MCP_PROVIDER_ID, WorkspaceMemoryMcpProvider } from './mcpServerProvider';
import { WorkspaceMemoryTool } from './workspaceMemoryTool';

export interface AgentAccess {
  readonly tool: WorkspaceMemoryTool;
  readonly mcpServers: WorkspaceMemoryMcpProvider;
}

export function registerAgentAccess(
  context: vscode.ExtensionContext,
  services: ExtensionServices,
  chatFolder: () => vscode.WorkspaceFolder | undefined,
): AgentAccess {
  const tool = new WorkspaceMemoryTool(services, chatFolder);
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  const mcpServers = new WorkspaceMemoryMcpProvider(services, vscode.Uri.joinPath(context.extensionUri, 'dist', 'cli.js').fsPath, version);
  context.subscriptions.push(
    vscode.lm.registerTool(SHARED_TOOL_NAME, tool),
    mcpServers,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcpServers),
  );
  return { tool, mcpServers };
}
