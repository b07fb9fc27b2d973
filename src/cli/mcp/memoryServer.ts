/**
 * The workspace memory as an MCP server: one tool (the memory commands, run by the MemoryEngine,
 * answered with the engine's exact strings) and the store's files as resources. Transport-free:
 * `claude-memory mcp` connects it to stdio.
 */
import type { CallToolResult, ReadResourceResult, Resource, Tool } from '@modelcontextprotocol/sdk/types.js';
import { isMemoryError } from '../../core/memory/errors';
import { mcpAuthor } from '../../core/memory/history/types';
import { imageTypeOfPath } from '../../core/memory/images';
import { redactText } from '../../core/memory/redaction';
import type { MemoryFileSystem } from '../../core/memory/fileSystem';
import { SHARED_TOOL_DESCRIPTION, SHARED_TOOL_INPUT_SCHEMA, SHARED_TOOL_NAME } from '../../core/memory/sharedTool';
import { listStoreFiles, readStoreFile } from '../../core/memory/storeFiles';
import type { MemoryToolExecutor, MemoryToolResult } from '../../core/memory/types';
import { isRecord, RPC_ERROR, RpcError, type Params } from './jsonRpc';
import { invalidParams, McpSession } from './mcpSession';
import { memoryPathOfResourceUri, resourceUriOf } from './resourceUris';

export interface MemoryServerOptions {
  name: string;
  version: string;
  engine: MemoryToolExecutor;
  /** The store the engine works on, read directly for resources. */
  fs: MemoryFileSystem;
  /** Unexpected failures (never sent to the client as they are). */
  onInternalError: (error: unknown) => void;
  /**
   * Replace secrets in a text resource with `[REDACTED:<kind>]` (default true; `mcp --no-redact`
   * turns it off with the engine's redaction). A file edited by hand may hold one the engine
   * never saw, and a resource is handed to a client that may keep or log it.
   */
  redactSecrets?: boolean;
}

export interface MemoryServer {
  readonly session: McpSession;
  /** Tell the client the store changed (list changed; subscribed files updated). */
  storeChanged(): Promise<void>;
}

const INSTRUCTIONS = `This server holds the workspace's shared memory. ${SHARED_TOOL_DESCRIPTION.split('\n')[1]}`;

const TOOL: Tool = {
  name: SHARED_TOOL_NAME,
  title: 'Workspace memory',
  description: SHARED_TOOL_DESCRIPTION,
  inputSchema: SHARED_TOOL_INPUT_SCHEMA as unknown as Tool['inputSchema'],
  annotations: { title: 'Workspace memory', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
};

export function createMemoryServer(options: MemoryServerOptions): MemoryServer {
  const { engine, fs, onInternalError } = options;
  const session = new McpSession({
    serverInfo: { name: options.name, version: options.version },
    capabilities: { tools: {}, resources: { subscribe: true, listChanged: true } },
    instructions: INSTRUCTIONS,
    onerror: onInternalError,
  });
  const subscribed = new Set<string>();

  session.handle('tools/list', () => ({ tools: [TOOL] }));

  session.handle('tools/call', async (params, signal): Promise<CallToolResult> => {
    const name = params.name;
    if (typeof name !== 'string') throw invalidParams('tools/call needs the tool\'s name.');
    if (params.arguments !== undefined && !isRecord(params.arguments)) throw invalidParams('a tool\'s arguments are an object.');
    if (name !== SHARED_TOOL_NAME) {
      throw new RpcError(RPC_ERROR.InvalidParams, `Unknown tool: ${name.slice(0, 100)}. This server has one tool, ${SHARED_TOOL_NAME}.`);
    }
    // The engine validates the input and answers every problem as an is_error result. History
    // names the client as it introduced itself in `initialize` (mcp:<name>).
    const author = mcpAuthor(session.clientInfo()?.name);
    const result = await engine.execute(params.arguments ?? {}, signal, author);
    return toCallToolResult(result);
  });

  session.handle('resources/list', async () => {
    const files = await listStoreFiles(fs);
    const resources: Resource[] = files.map((f) => ({ uri: resourceUriOf(f.path), name: f.path, mimeType: mimeTypeOf(f.path), size: f.size }));
    return { resources };
  });

  session.handle('resources/read', async (params): Promise<ReadResourceResult> => {
    const uri = uriOf(params);
    const memoryPath = memoryPathOfResourceUri(uri);
    if (memoryPath === undefined) throw new RpcError(RPC_ERROR.InvalidParams, 'Resource not found: not a memory file URI (memory:///memories/...).');
    try {
      const content = await readStoreFile(fs, memoryPath);
      return content.kind === 'text'
        ? { contents: [{ uri, mimeType: mimeTypeOf(memoryPath), text: options.redactSecrets === false ? content.text : redactText(content.text) }] }
        : { contents: [{ uri, mimeType: content.mediaType, blob: content.base64 }] };
    } catch (e) {
      if (isMemoryError(e)) throw new RpcError(RPC_ERROR.ResourceNotFound, e.modelText.replace(/^Error: /, ''));
      onInternalError(e);
      throw new RpcError(RPC_ERROR.InternalError, 'The memory file could not be read.');
    }
  });

  session.handle('resources/subscribe', (params) => {
    const uri = uriOf(params);
    if (memoryPathOfResourceUri(uri) === undefined) throw new RpcError(RPC_ERROR.InvalidParams, 'Not a memory file URI (memory:///memories/...).');
    subscribed.add(uri);
    return {};
  });
  session.handle('resources/unsubscribe', (params) => {
    subscribed.delete(uriOf(params));
    return {};
  });

  return {
    session,
    async storeChanged() {
      await session.notify('notifications/resources/list_changed');
      for (const uri of subscribed) await session.notify('notifications/resources/updated', { uri });
    },
  };
}

function uriOf(params: Params): string {
  if (typeof params.uri !== 'string') throw invalidParams('the request needs the resource\'s uri.');
  return params.uri;
}

/** The engine's result as MCP content: its strings unchanged, its image blocks as MCP images. */
export function toCallToolResult(result: MemoryToolResult): CallToolResult {
  const content: CallToolResult['content'] =
    typeof result.content === 'string'
      ? [{ type: 'text', text: result.content }]
      : result.content.map((block) =>
          block.type === 'text' ? { type: 'text', text: block.text } : { type: 'image', data: block.source.data, mimeType: block.source.media_type },
        );
  return result.is_error ? { content, isError: true } : { content };
}

function mimeTypeOf(memoryPath: string): string {
  const image = imageTypeOfPath(memoryPath);
  if (image) return image;
  const lower = memoryPath.toLowerCase();
  if (lower.endsWith('.md')) return 'text/markdown';
  if (lower.endsWith('.json')) return 'application/json';
  return 'text/plain';
}
