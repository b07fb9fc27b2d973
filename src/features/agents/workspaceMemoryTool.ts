/**
 * The workspace memory as a VS Code Language Model tool (`workspace_memory`, `#workspaceMemory`),
 * so Copilot agent mode and other chat participants share Claude's memory. Calls run on the very
 * engine the Claude chat uses for its folder (same guards, redaction, caps, trust rule); writes
 * are confirmed first, naming the file that changes, and show in the Memory tree like Claude's.
 */
import * as vscode from 'vscode';
import { authorSubject } from '../../core/memory/history/describe';
import { AUTHORS } from '../../core/memory/history/types';
import { plannedWrite } from '../../core/memory/sharedTool';
import type { ResultContent } from '../../core/memory/types';
import type { MemoryStore } from '../../platform/memoryStores';
import type { ExtensionServices } from '../../platform/services';

/** The model's input: the memory tool's, validated by the engine when it runs. */
export type WorkspaceMemoryInput = Record<string, unknown>;

export const NO_FOLDER_TEXT = 'Error: no workspace folder is open, so there is no workspace memory. Open a folder first.';

export class WorkspaceMemoryTool implements vscode.LanguageModelTool<WorkspaceMemoryInput> {
  constructor(
    private readonly services: ExtensionServices,
    /** The folder the Claude chat works in (multi-root: the user's choice); undefined = the first. */
    private readonly chatFolder: () => vscode.WorkspaceFolder | undefined,
  ) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<WorkspaceMemoryInput>): vscode.PreparedToolInvocation {
    const store = this.store();
    const where = store ? ` in ${store.folder.name}` : '';
    const write = plannedWrite(options.input);
    if (!write) {
      const path = typeof options.input?.path === 'string' ? options.input.path.slice(0, 200) : '/memories';
      return { invocationMessage: `Reading ${path} from the workspace memory${where}` };
    }
    // Plain text, not Markdown: folder names and paths come from the workspace and the model.
    const lines = [`${write.command} changes ${write.paths.join(' → ')} in the workspace memory${where}.`];
    if (store) lines.push(`The file lives in ${vscode.workspace.asRelativePath(store.rootUri, true)} and is shared with Claude and other agents.`);
    const message = lines.join('\n\n');
    return {
      invocationMessage: `Updating ${write.paths.join(' → ')} in the workspace memory${where}`,
      confirmationMessages: { title: `Change ${write.paths[write.paths.length - 1]} in the workspace memory?`, message },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<WorkspaceMemoryInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const store = this.store();
    if (!store) return textResult(NO_FOLDER_TEXT);
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    try {
      const result = await store.engine.execute(options.input, abort.signal, AUTHORS.lmTool);
      if (result.touched) this.services.memoryActivity.fire({ ...result.touched, folder: store.folder, writer: authorSubject(AUTHORS.lmTool) });
      // The engine's strings as they are: errors already start with "Error:" and are model-safe.
      return textResult(...texts(result.content));
    } finally {
      cancel.dispose();
    }
  }

  private store(): MemoryStore | undefined {
    const folder = this.chatFolder();
    return (folder && this.services.stores.forFolder(folder)) || this.services.stores.primary();
  }
}

function textResult(...parts: string[]): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult(parts.map((p) => new vscode.LanguageModelTextPart(p)));
}

/** Image blocks (a `view` of a .png) cannot travel as tool results in this API: say so in text. */
function texts(content: ResultContent): string[] {
  if (typeof content === 'string') return [content];
  return content.map((block) => (block.type === 'text' ? block.text : `[${block.source.media_type} image: open the file in the editor to see it]`));
}
