// Other agents on the workspace memory, inside the real extension host: the Language Model tool
// (as Copilot agent mode would call it, through vscode.lm.invokeTool) and the MCP server
// definition VS Code's MCP support starts.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SHARED_TOOL_INPUT_SCHEMA, SHARED_TOOL_NAME } from '../../src/core/memory/sharedTool';
import type { ClaudeMemoryApi } from '../../src/extension';
import type { MemoryStore } from '../../src/platform/memoryStores';
import { exists, extensionApi, findNode, primaryStore, uniqueName, waitFor } from './treeHelpers';

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : `<${String(part)}>`)).join('');
}

const invoke = (input: Record<string, unknown>) =>
  vscode.lm.invokeTool(SHARED_TOOL_NAME, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);

suite('Agent access: Language Model tool and MCP server definition', () => {
  let api: ClaudeMemoryApi;
  let store: MemoryStore;
  let dir: string;

  suiteSetup(async () => {
    api = await extensionApi();
    store = primaryStore(api);
    await vscode.commands.executeCommand('claudeMemory.memoryTree.focus');
  });

  setup(() => {
    dir = uniqueName('agents-it');
  });

  test('the tool is registered under its own name with the memory schema', () => {
    const tool = vscode.lm.tools.find((t) => t.name === SHARED_TOOL_NAME);
    assert.ok(tool, `lm.tools lacks ${SHARED_TOOL_NAME}: ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
    assert.deepStrictEqual(tool.inputSchema, JSON.parse(JSON.stringify(SHARED_TOOL_INPUT_SCHEMA)));
    assert.ok(tool.tags.includes('memory'));
  });

  test('invokeTool writes a memory with the chat’s engine; the tree shows it marked with the writer', async () => {
    const rel = `${dir}/from-agent.md`;
    const result = await invoke({ command: 'create', path: `/memories/${rel}`, file_text: 'shared between agents\n' });
    assert.strictEqual(textOf(result), `File created successfully at: /memories/${rel}`);
    assert.ok(await exists(vscode.Uri.joinPath(store.rootUri, dir, 'from-agent.md')));
    assert.strictEqual(api.services.memoryActivity.lastTouch?.writer, 'Copilot');

    const node = await waitFor('the agent-written file in the tree', () => findNode(api, store, rel));
    const item = api.memoryTree.getTreeItem(node);
    assert.match(String(item.description), /^✦ Copilot wrote · 22B · just now$/);
    assert.match((item.tooltip as vscode.MarkdownString).value, /Last touched by Copilot \(write\)/);
    // History records the Language Model tool as the author, and the tooltip names it.
    assert.deepStrictEqual((await store.engine.fileHistory(rel)).map((e) => `${e.op} ${e.author.name}`), ['create lm-tool']);
    await waitFor('the tooltip to name the Language Model tool', async () => {
      const fresh = await findNode(api, store, rel);
      const tooltip = fresh && (api.memoryTree.getTreeItem(fresh).tooltip as vscode.MarkdownString).value.replace(/\\(.)/g, '$1');
      return tooltip?.includes('Last change: Copilot (language model tool), just now') ? true : undefined;
    });
    await waitFor('the file to be revealed', () => (api.memoryTreeRevealer.lastRevealed?.rel === rel ? true : undefined));

    const viewed = await invoke({ command: 'view', path: `/memories/${rel}` });
    assert.strictEqual(textOf(viewed), `Here's the content of /memories/${rel} with line numbers:\n     1\tshared between agents`);
  });

  test('failures come back as the engine’s sentences and change nothing', async () => {
    const escape = await invoke({ command: 'create', path: '/memories/../outside.md', file_text: 'x' });
    assert.match(textOf(escape), /^Error: /);
    assert.ok(!(await exists(vscode.Uri.joinPath(store.folder.uri, 'outside.md'))));
    const typed = await invoke({ command: 'insert', path: `/memories/${dir}/x.md`, insert_line: 'top', insert_text: 'x' });
    assert.strictEqual(textOf(typed), 'Error: Parameter `insert_line` of command `insert` must be an integer.');
  });

  test('writes ask for confirmation naming the file that changes; reads do not', async () => {
    const write = await api.agentAccess.tool.prepareInvocation({ input: { command: 'str_replace', path: `/memories//${dir}/./a.md`, old_str: 'x', new_str: 'y' } });
    assert.ok(write.confirmationMessages, 'a write is confirmed');
    assert.match(write.confirmationMessages.title, new RegExp(`/memories/${dir}/a\\.md`));
    assert.strictEqual(
      write.confirmationMessages.message,
      `str_replace changes /memories/${dir}/a.md in the workspace memory in ${store.folder.name}.\n\n` +
        `The file lives in ${store.folder.name}/.claude-memories and is shared with Claude and other agents.`,
    );
    const rename = await api.agentAccess.tool.prepareInvocation({ input: { command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' } });
    assert.match(rename.confirmationMessages!.title, /\/memories\/b\.md/);
    const read = await api.agentAccess.tool.prepareInvocation({ input: { command: 'view', path: '/memories' } });
    assert.strictEqual(read.confirmationMessages, undefined);
  });

  test('the MCP server definition starts the bundled CLI on this folder’s store', async function () {
    this.timeout(60_000);
    const definitions = api.agentAccess.mcpServers.provideMcpServerDefinitions();
    assert.strictEqual(definitions.length, 1);
    const [def] = definitions;
    assert.strictEqual(def.label, 'Workspace Memory');
    assert.strictEqual(def.command, process.execPath);
    assert.strictEqual(path.basename(def.args[0]), 'cli.js');
    assert.deepStrictEqual(def.args.slice(1, 4), ['mcp', '--workspace', store.folder.uri.fsPath]);

    await invoke({ command: 'create', path: `/memories/${dir}/seen-by-mcp.md`, file_text: 'from the LM tool\n' });
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...def.env })) if (typeof v === 'string') env[k] = v;
    const client = new Client({ name: 'integration-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: def.command, args: def.args, env, cwd: def.cwd?.fsPath, stderr: 'ignore' }));
    try {
      const { tools } = await client.listTools();
      assert.deepStrictEqual(tools.map((t) => t.name), [SHARED_TOOL_NAME]);
      const result = (await client.callTool({ name: SHARED_TOOL_NAME, arguments: { command: 'view', path: `/memories/${dir}/seen-by-mcp.md` } })) as CallToolResult;
      assert.deepStrictEqual(result.content, [{ type: 'text', text: `Here's the content of /memories/${dir}/seen-by-mcp.md with line numbers:\n     1\tfrom the LM tool` }]);
    } finally {
      await client.close();
    }
  });

  test('the MCP server VS Code starts gets the window\'s engine settings: history off in user settings is off there too', async function () {
    this.timeout(60_000);
    const args = () => api.agentAccess.mcpServers.provideMcpServerDefinitions()[0]?.args ?? [];
    const after = (flag: string) => args()[args().indexOf(flag) + 1];
    assert.strictEqual(after('--quota-bytes'), String(50 * 1024 * 1024));
    assert.strictEqual(after('--history-max-versions'), '50');
    assert.ok(!args().includes('--no-history'));
    const config = vscode.workspace.getConfiguration('claudeMemory');
    try {
      await config.update('history.enabled', false, vscode.ConfigurationTarget.Global);
      await waitFor('the definition with --no-history', () => (args().includes('--no-history') ? true : undefined));
      assert.ok(!args().includes('--history-max-versions'));
    } finally {
      await config.update('history.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('history back on in the definition', () => (args().includes('--history-max-versions') ? true : undefined));
  });
});
