/**
 * The workspace memory as an MCP server: one tool (the memory commands, run by the MemoryEngine,
 * answered with the engine's exact strings) and the store's files as resources. Transport-free:
 * `claude-memory mcp` connects it to stdio.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { isMemoryError } from '../../core/memory/errors';
import { mcpAuthor } from '../../core/memory/history/types';
import { imageTypeOfPath } from '../../core/memory/images';
import { redactText } from '../../core/memory/redaction';
import type { MemoryFileSystem } from '../../core/memory/fileSystem';
import { SHARED_TOOL_DESCRIPTION, SHARED_TOOL_INPUT_SCHEMA, SHARED_TOOL_NAME } from '../../core/memory/sharedTool';
import { listStoreFiles, readStoreFile } from '../../core/memory/storeFiles';
import type { MemoryToolExecutor, MemoryToolResult } from '../../core/memory/types';
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
  readonly server: Server;
  /** Tell the client the store changed (list changed; subscribed files updated). */
  storeChanged(): Promise<void>;
}

const INSTRUCTIONS = `This server holds the workspace's shared memory. ${SHARED_TOOL_DESCRIPTION.split('\n')[1]}`;

export function createMemoryServer(options: MemoryServerOptions): MemoryServer {
  const { engine, fs, onInternalError } = options;
  const server = new Server(
    { name: options.name, version: options.version },
    { capabilities: { tools: {}, resources: { subscribe: true, listChanged: true } }, instructions: INSTRUCTIONS },
  );
  const subscribed = new Set<string>();

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: SHARED_TOOL_NAME,
        title: 'Workspace memory',
        description: SHARED_TOOL_DESCRIPTION,
        inputSchema: SHARED_TOOL_INPUT_SCHEMA as unknown as { type: 'object'; properties: Record<string, object> },
        annotations: { title: 'Workspace memory', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      },
    ],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    if (request.params.name !== SHARED_TOOL_NAME) {
      throw protocolError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name.slice(0, 100)}. This server has one tool, ${SHARED_TOOL_NAME}.`);
    }
    // The engine validates the input and answers every problem as an is_error result. History
    // names the client as it introduced itself in `initialize` (mcp:<name>).
    const author = mcpAuthor(server.getClientVersion()?.name);
    const result = await engine.execute(request.params.arguments ?? {}, extra.signal, author);
    return toCallToolResult(result);
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const files = await listStoreFiles(fs);
    return {
      resources: files.map((f) => ({
        uri: resourceUriOf(f.path),
        name: f.path,
        mimeType: mimeTypeOf(f.path),
        size: f.size,
      })),
    };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request): Promise<ReadResourceResult> => {
    const { uri } = request.params;
    const memoryPath = memoryPathOfResourceUri(uri);
    if (memoryPath === undefined) throw protocolError(ErrorCode.InvalidParams, 'Resource not found: not a memory file URI (memory:///memories/...).');
    try {
      const content = await readStoreFile(fs, memoryPath);
      return content.kind === 'text'
        ? { contents: [{ uri, mimeType: mimeTypeOf(memoryPath), text: options.redactSecrets === false ? content.text : redactText(content.text) }] }
        : { contents: [{ uri, mimeType: content.mediaType, blob: content.base64 }] };
    } catch (e) {
      if (isMemoryError(e)) throw protocolError(RESOURCE_NOT_FOUND, e.modelText.replace(/^Error: /, ''));
      onInternalError(e);
      throw protocolError(ErrorCode.InternalError, 'The memory file could not be read.');
    }
  });

  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    if (memoryPathOfResourceUri(request.params.uri) === undefined) throw protocolError(ErrorCode.InvalidParams, 'Not a memory file URI (memory:///memories/...).');
    subscribed.add(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });

  return {
    server,
    async storeChanged() {
      await server.sendResourceListChanged();
      for (const uri of subscribed) await server.sendResourceUpdated({ uri });
    },
  };
}

/**
 * A JSON-RPC error response with exactly this message (McpError would prefix "MCP error <code>:");
 * the SDK answers with the thrown error's `code` and `message`.
 */
function protocolError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** MCP's code for an unknown resource (the spec's "Resource not found"). */
const RESOURCE_NOT_FOUND = -32002;

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
