/**
 * The JSON-RPC 2.0 envelope MCP messages travel in, checked the way the MCP SDK's
 * JSONRPCMessageSchema checks it (strict objects; an id is a string or an integer; params an
 * object), without the SDK's runtime: its types module builds several hundred zod schemas when it
 * loads, which was most of `claude-memory mcp`'s start. The SDK stays the reference: the protocol
 * constants below are compared with its own in test/unit/cli/mcpProtocol.test.ts, and the server
 * is tested through the SDK's Client.
 */
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC's and MCP's error codes (the SDK's ErrorCode values). */
export const RPC_ERROR = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** MCP's "Resource not found". */
  ResourceNotFound: -32002,
} as const;

/** The MCP revisions this server speaks, newest first (the SDK's SUPPORTED_PROTOCOL_VERSIONS). */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];

export type Params = Record<string, unknown>;

export type Incoming =
  | { kind: 'request'; id: RequestId; method: string; params: Params }
  | { kind: 'notification'; method: string; params: Params }
  | { kind: 'response'; id: RequestId | undefined }
  /** Not a JSON-RPC 2.0 message; `id` is the one to answer with (null when none could be read). */
  | { kind: 'invalid'; id: RequestId | null };

/** A JSON object (not null, not an array): what params, results and tool arguments are. */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A JSON-RPC request id as the SDK's RequestIdSchema takes it: a string or a safe integer. */
export const isId = (v: unknown): v is RequestId => typeof v === 'string' || Number.isSafeInteger(v);
const only = (o: Record<string, unknown>, keys: readonly string[]) => Object.keys(o).every((k) => keys.includes(k));

/** What a parsed JSON value is as a JSON-RPC 2.0 message. */
export function classify(value: unknown): Incoming {
  if (!isRecord(value)) return { kind: 'invalid', id: null };
  const invalid: Incoming = { kind: 'invalid', id: isId(value.id) ? value.id : null };
  if (value.jsonrpc !== '2.0') return invalid;
  if ('method' in value) {
    if (typeof value.method !== 'string' || !only(value, ['jsonrpc', 'id', 'method', 'params'])) return invalid;
    if (value.params !== undefined && !isRecord(value.params)) return invalid;
    const params = (value.params ?? {}) as Params;
    if (!('id' in value)) return { kind: 'notification', method: value.method, params };
    return isId(value.id) ? { kind: 'request', id: value.id, method: value.method, params } : invalid;
  }
  if ('result' in value) {
    return isId(value.id) && isRecord(value.result) && only(value, ['jsonrpc', 'id', 'result']) ? { kind: 'response', id: value.id } : invalid;
  }
  if ('error' in value) {
    const error = value.error;
    const wellFormed = isRecord(error) && Number.isSafeInteger(error.code) && typeof error.message === 'string';
    const id = value.id === undefined || isId(value.id);
    return wellFormed && id && only(value, ['jsonrpc', 'id', 'error']) ? { kind: 'response', id: value.id as RequestId | undefined } : invalid;
  }
  return invalid;
}

/** An error answered to the client as it is: JSON-RPC's `code` and this exact message. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export function errorResponse(id: RequestId | null, code: number, message: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
}
