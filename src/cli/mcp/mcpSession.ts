/**
 * The server side of one MCP session over a line transport: the lifecycle (`initialize` with
 * version negotiation, `notifications/initialized`, `ping`), `notifications/cancelled`, and
 * requests dispatched to the handlers of the methods this server offers. It answers what the MCP
 * SDK's Server answers for the same messages (tested through the SDK's Client); it does not load
 * the SDK at run time (see jsonRpc.ts for why).
 */
import type { Implementation, JSONRPCMessage, RequestId, ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { LATEST_PROTOCOL_VERSION, RPC_ERROR, RpcError, SUPPORTED_PROTOCOL_VERSIONS, errorResponse, isId, type Params } from './jsonRpc';
import type { LineTransport } from './lineTransport';

export type RequestHandler = (params: Params, signal: AbortSignal) => unknown;

export interface McpSessionOptions {
  serverInfo: Implementation;
  capabilities: ServerCapabilities;
  instructions?: string;
  /** Unexpected failures inside a handler (the client gets "Internal error" only). */
  onerror?: (error: unknown) => void;
}

export class McpSession {
  private readonly handlers = new Map<string, RequestHandler>();
  private readonly running = new Map<RequestId, AbortController>();
  private transport: LineTransport | undefined;
  private client: Implementation | undefined;
  /** Told once the client sent `notifications/initialized`. */
  oninitialized?: () => void;
  onclose?: () => void;

  constructor(private readonly options: McpSessionOptions) {
    this.handlers.set('initialize', (params) => this.initialize(params));
    this.handlers.set('ping', () => ({}));
  }

  /** Serves `method`; a handler's RpcError goes to the client as it is, anything else as "Internal error". */
  handle(method: string, handler: RequestHandler): void {
    this.handlers.set(method, handler);
  }

  /** The client's name and version from `initialize`. */
  clientInfo(): Implementation | undefined {
    return this.client;
  }

  async connect(transport: LineTransport): Promise<void> {
    this.transport = transport;
    transport.onclose = () => {
      for (const controller of this.running.values()) controller.abort();
      this.running.clear();
      this.onclose?.();
    };
    transport.onerror = (e) => this.options.onerror?.(e);
    transport.onrequest = (id, method, params) => void this.request(id, method, params);
    transport.onnotification = (method, params) => this.notification(method, params);
    await transport.start();
  }

  /** Sends a notification (dropped once the transport is gone). */
  async notify(method: string, params?: Params): Promise<void> {
    await this.transport?.send({ jsonrpc: '2.0', method, ...(params ? { params } : {}) });
  }

  private async request(id: RequestId, method: string, params: Params): Promise<void> {
    const transport = this.transport;
    if (!transport) return;
    const handler = this.handlers.get(method);
    if (!handler) {
      await transport.send(errorResponse(id, RPC_ERROR.MethodNotFound, 'Method not found'));
      return;
    }
    const controller = new AbortController();
    this.running.set(id, controller);
    let answer: JSONRPCMessage;
    try {
      answer = { jsonrpc: '2.0', id, result: (await handler(params, controller.signal)) as Record<string, unknown> };
    } catch (e) {
      if (!(e instanceof RpcError) && !controller.signal.aborted) this.options.onerror?.(e);
      answer = e instanceof RpcError ? errorResponse(id, e.code, e.message) : errorResponse(id, RPC_ERROR.InternalError, 'Internal error');
    } finally {
      if (this.running.get(id) === controller) this.running.delete(id);
    }
    // A cancelled request gets no answer (the client stopped waiting for one).
    if (controller.signal.aborted) transport.unanswered(id);
    else await transport.send(answer);
  }

  private notification(method: string, params: Params): void {
    if (method === 'notifications/initialized') this.oninitialized?.();
    else if (method === 'notifications/cancelled' && isId(params.requestId)) {
      this.running.get(params.requestId)?.abort(typeof params.reason === 'string' ? params.reason : undefined);
    }
  }

  private initialize(params: Params): object {
    const requested = params.protocolVersion;
    const clientInfo = params.clientInfo as Partial<Implementation> | undefined;
    if (typeof requested !== 'string' || typeof clientInfo?.name !== 'string' || typeof clientInfo.version !== 'string' || typeof params.capabilities !== 'object' || params.capabilities === null) {
      throw new RpcError(RPC_ERROR.InvalidParams, 'Invalid params: initialize needs protocolVersion, capabilities and clientInfo (name, version).');
    }
    this.client = { name: clientInfo.name, version: clientInfo.version };
    return {
      protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
      capabilities: this.options.capabilities,
      serverInfo: this.options.serverInfo,
      ...(this.options.instructions ? { instructions: this.options.instructions } : {}),
    };
  }
}

/** A handler's own check of its params: an InvalidParams error naming what is wrong. */
export function invalidParams(what: string): RpcError {
  return new RpcError(RPC_ERROR.InvalidParams, `Invalid params: ${what}`);
}
