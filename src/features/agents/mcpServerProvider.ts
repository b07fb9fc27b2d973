/**
 * Offers the bundled `claude-memory mcp` to VS Code's MCP support, one server per local workspace
 * folder, so any MCP-aware chat in VS Code finds the workspace memory without a hand-written
 * .vscode/mcp.json. The server runs on the extension host's own Node (process.execPath; in
 * desktop VS Code that binary is Electron, which ELECTRON_RUN_AS_NODE turns into plain Node).
 */
import * as vscode from 'vscode';
import { storeSettingsArgs } from '../../core/memory/storeSettings';
import { DEFAULT_STORE_FOLDER } from '../../core/memory/types';
import { MCP_SERVER_PROVIDER } from '../../platform/ids';
import type { ExtensionServices } from '../../platform/services';
import { storeSettingsOf } from '../../platform/settings';

/** contributes.mcpServerDefinitionProviders[].id */
export const MCP_PROVIDER_ID = MCP_SERVER_PROVIDER;

/** One label per folder; VS Code lists servers by it. */
export function mcpServerLabel(folder: vscode.WorkspaceFolder, folderCount: number): string {
  return folderCount > 1 ? `Workspace Memory (${folder.name})` : 'Workspace Memory';
}

export class WorkspaceMemoryMcpProvider implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];
  readonly onDidChangeMcpServerDefinitions = this.changed.event;

  constructor(
    private readonly services: ExtensionServices,
    /** dist/cli.js of this extension. */
    private readonly cliPath: string,
    private readonly version: string,
  ) {
    this.subscriptions = [
      services.stores.onDidChange(() => this.changed.fire()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire()),
    ];
  }

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    // A server writes to the store: none for an untrusted workspace (the chat and tree refuse too).
    if (!this.services.trust.isTrusted()) return [];
    const stores = this.services.stores.all().filter((s) => s.folder.uri.scheme === 'file');
    const settings = this.services.settings.current;
    // The server serves <folder>/.claude-memories, as `claude-memory exec` does; a store moved
    // elsewhere by claudeMemory.memoryFolder is not offered rather than served from the wrong place.
    if (settings.memoryFolder !== DEFAULT_STORE_FOLDER) return [];
    return stores.map((store) => {
      // The window's engine settings, all of them (history and its retention too): both write the same store.
      const args = [this.cliPath, 'mcp', '--workspace', store.folder.uri.fsPath, ...storeSettingsArgs(storeSettingsOf(settings))];
      const definition = new vscode.McpStdioServerDefinition(mcpServerLabel(store.folder, stores.length), process.execPath, args, { ELECTRON_RUN_AS_NODE: '1' }, this.version);
      definition.cwd = store.folder.uri;
      return definition;
    });
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
    this.changed.dispose();
  }
}
