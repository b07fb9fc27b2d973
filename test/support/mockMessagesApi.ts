/**
 * A scripted Anthropic Messages API on 127.0.0.1 for tests, benchmarks and the extension host's
 * integration tests. Dependency-free (node:http). It speaks enough of POST /v1/messages (also
 * `?beta=true`) for the official SDK: JSON and SSE streaming with deltas split in chunks, error
 * statuses with API-shaped bodies, and usage computed from the request (see billing.ts: prompt
 * caching and clear_tool_uses are simulated, not faked per test).
 *
 * A script is a list of turns; each request that is served consumes one. A turn may carry faults
 * that fire before it is served (a status, a stream cut mid-message, a hang, a delay); a faulted
 * request does not consume the turn, so `{status: 529, times: 1}` means "529 once, then the turn".
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { PromptCache, promptTokensOf, tokensOf } from './mockMessagesApi/billing';
import type { AppliedClear } from './mockMessagesApi/billing';
import { encodeEvent, messageEvents } from './mockMessagesApi/sse';
import type { ResolvedBlock, ScriptBlock } from './mockMessagesApi/sse';

export type { ScriptBlock } from './mockMessagesApi/sse';
export { CLEARED_PLACEHOLDER, MEMORY_TOOL_TOKENS } from './mockMessagesApi/billing';

export type MockFault =
  /**
   * Answer with this status and an API error body `times` times (default 1; Infinity: always).
   * `retryAfterMs`: the retry-after-ms header the SDK waits for before retrying (default 5).
   */
  | { type: 'status'; status: number; message?: string; times?: number; retryAfterMs?: number }
  /** Send `afterEvents` SSE events of the turn, then break the connection (or end the body cleanly). */
  | { type: 'cut'; afterEvents: number; mode?: 'destroy' | 'end'; times?: number }
  /** Send `afterEvents` SSE events, then keep the connection open until the client goes away. */
  | { type: 'hang'; afterEvents: number; times?: number }
  /** Wait before answering (every request for this turn). */
  | { type: 'delay'; ms: number }
  /** Wait until `open` settles before answering (a test decides when the answer arrives). */
  | { type: 'gate'; open: Promise<unknown> };

export interface MockTurn {
  content: ScriptBlock[];
  /** Default: 'tool_use' when the turn has a tool_use block, else 'end_turn'. */
  stop_reason?: string;
  faults?: MockFault[];
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** What the server answered: a status code; 200 for served turns. */
  status?: number;
  /** Server-side time from the request's arrival to the end of the response, in ms. */
  handlingMs?: number;
  usage?: RecordedUsage;
  appliedEdits?: AppliedClear[];
}

/** The usage the server reported; `iterations` only when it compacted (compaction tokens are only there). */
export interface RecordedUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  output_tokens: number;
  iterations?: Array<{ type: string; input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number; output_tokens: number }>;
}

const DEFAULT_SUMMARY = 'Summary of the conversation so far: the user asked for a task; work is in progress (mock compaction).';

/** The compact_20260112 edit of a request: its trigger (the API's default 150k) and pause flag. */
function compactEditOf(body: Record<string, unknown>): { trigger: number; pause: boolean } | undefined {
  const edits = ((body.context_management as { edits?: Array<Record<string, unknown>> } | undefined)?.edits ?? []);
  const edit = edits.find((e) => e.type === 'compact_20260112');
  if (!edit) return undefined;
  const trigger = Number((edit.trigger as { value?: unknown } | undefined)?.value ?? 150_000);
  return { trigger, pause: edit.pause_after_compaction === true };
}

export type MockStep = MockTurn | ((request: RecordedRequest, turnIndex: number) => MockTurn);

export interface MockServerOptions {
  /** When set, a request whose key (x-api-key, or `Authorization: Bearer`, which SDK 1.14 sends) differs is answered with 401. */
  apiKey?: string;
  /** Pieces each text / tool input is split into (default 3). */
  chunks?: number;
  /** Smallest cacheable prefix in tokens (default 1024). */
  minCacheTokens?: number;
  /**
   * Compacts as the API does: a request with a compact_20260112 edit whose prompt (after any
   * earlier compaction block) passes the edit's trigger is answered with a compaction block whose
   * summary this returns (default: a fixed sentence), paused (stop_reason "compaction", the
   * script's turn is kept for the next request) or, without pause_after_compaction, followed by
   * the turn. The compaction's tokens are reported only in usage.iterations.
   */
  compactionSummary?: (request: RecordedRequest) => string | null;
}

export interface MockMessagesApi {
  /** Base URL for the SDK's `baseURL`, e.g. http://127.0.0.1:41234 */
  url: string;
  requests: RecordedRequest[];
  /** Turns served so far. */
  readonly served: number;
  /** Appends turns to the script (for long sessions built as they go). */
  push(...steps: MockStep[]): void;
  /**
   * Replaces the script: the next request gets `steps[0]`; served, fault counts and recorded
   * requests start from zero. Each e2e test scripts its own turns this way, so a test that fails
   * half-way cannot shift the answers of the next one.
   */
  script(steps: MockStep[]): void;
  close(): Promise<void>;
}

const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';
const COMPACTION_BETA = 'compact-2026-01-12';

export async function startMockMessagesApi(script: MockStep[], options: MockServerOptions = {}): Promise<MockMessagesApi> {
  const steps = [...script];
  const requests: RecordedRequest[] = [];
  const faultUses = new Map<string, number>();
  const cache = new PromptCache({ minCacheTokens: options.minCacheTokens });
  const sockets = new Set<import('node:net').Socket>();
  let served = 0;
  /** Script turns consumed (an automatic compaction pause consumes none). */
  let stepIndex = 0;
  let messageCounter = 0;
  let toolCounter = 0;

  const server = http.createServer((req, res) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks).toString('utf8'), started);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string, started: number): Promise<void> {
    let body: Record<string, unknown> = {};
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      /* answered as a 400 below */
    }
    const record: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
    requests.push(record);
    const finish = (status: number) => {
      record.status = status;
      record.handlingMs = performance.now() - started;
    };
    res.on('close', () => {
      if (record.handlingMs === undefined) finish(res.statusCode);
    });

    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || path !== '/v1/messages') return sendError(res, 404, 'not_found_error', `mock: no route ${req.method} ${path}`, finish);
    if (options.apiKey !== undefined && requestKey(req.headers) !== options.apiKey) {
      return sendError(res, 401, 'authentication_error', 'invalid x-api-key', finish);
    }
    const invalid = validate(body, req.headers);
    if (invalid) return sendError(res, 400, 'invalid_request_error', invalid, finish);
    const compact = compactEditOf(body);
    const compacting = compact !== undefined && promptTokensOf(body) >= compact.trigger;
    if (compacting && compact.pause) {
      const summary = options.compactionSummary ? options.compactionSummary(record) : DEFAULT_SUMMARY;
      return serve({ content: [{ type: 'compaction', content: summary }], stop_reason: 'compaction' }, false);
    }
    const step = steps[stepIndex];
    if (!step) return sendError(res, 400, 'invalid_request_error', `mock: the script has no turn ${stepIndex + 1}`, finish);
    const scripted = typeof step === 'function' ? step(record, served) : step;
    const turn: MockTurn = compacting
      ? { ...scripted, content: [{ type: 'compaction', content: options.compactionSummary ? options.compactionSummary(record) : DEFAULT_SUMMARY }, ...scripted.content] }
      : scripted;

    for (const [i, fault] of (turn.faults ?? []).entries()) {
      if (fault.type === 'delay') {
        await sleep(fault.ms);
        continue;
      }
      if (fault.type === 'gate') {
        await fault.open.catch(() => undefined);
        continue;
      }
      const key = `${served}:${i}`;
      const used = faultUses.get(key) ?? 0;
      if (used >= (fault.times ?? 1)) continue;
      faultUses.set(key, used + 1);
      if (fault.type === 'status') {
        return sendError(res, fault.status, errorType(fault.status), fault.message ?? `mock fault ${fault.status}`, finish, fault.retryAfterMs);
      }
      const { events } = render(turn, body, false);
      writeStreamHead(res);
      for (const e of events.slice(0, fault.afterEvents)) res.write(encodeEvent(e));
      if (fault.type === 'cut') {
        if (fault.mode === 'end') res.end();
        else res.socket?.destroy();
      }
      // 'hang': leave the response open; the client aborts or the server closes.
      return;
    }

    return serve(turn, true);

    function serve(turn: MockTurn, consumesStep: boolean): void {
    const { events, message, usage, applied } = render(turn, body, true);
    record.usage = usage;
    record.appliedEdits = applied;
    served += 1;
    if (consumesStep) stepIndex += 1;
    if (body.stream === true) {
      writeStreamHead(res);
      for (const e of events) res.write(encodeEvent(e));
      res.end(() => finish(200));
    } else {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_mock_${requests.length}` });
      res.end(JSON.stringify(message), () => finish(200));
    }
    }
  }

  /** The turn as events and as a JSON message; `bill` updates the prompt cache. */
  function render(turn: MockTurn, body: Record<string, unknown>, bill: boolean) {
    const blocks: ResolvedBlock[] = turn.content.map((b) =>
      b.type === 'text'
        ? { type: 'text', text: b.text }
        : b.type === 'compaction'
          ? { type: 'compaction', content: b.content, encrypted_content: b.encrypted_content ?? `enc_mock_${messageCounter + 1}` }
          : { type: 'tool_use', id: b.id ?? `toolu_mock_${++toolCounter}`, name: b.name ?? 'memory', input: b.input },
    );
    // A compaction block alone is the pause of pause_after_compaction.
    const stopReason =
      turn.stop_reason ??
      (blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : blocks.length > 0 && blocks.every((b) => b.type === 'compaction') ? 'compaction' : 'end_turn');
    const billed = bill ? cache.bill(body) : { usage: { input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }, applied: [] };
    const outputOf = (list: ResolvedBlock[]) =>
      list.reduce((n, b) => n + tokensOf(b.type === 'text' ? (b.text ?? '') : b.type === 'compaction' ? (b.content ?? '') : JSON.stringify(b.input ?? {})), 0);
    const compactions = blocks.filter((b) => b.type === 'compaction');
    let usage: RecordedUsage;
    if (compactions.length === 0) {
      usage = { ...billed.usage, output_tokens: Math.max(1, outputOf(blocks)) };
    } else {
      // The compaction iteration read the whole prompt and wrote the summary; what was sampled
      // after it (if anything) read the summary. The top level is only that message iteration.
      const summaryTokens = outputOf(compactions);
      const rest = blocks.filter((b) => b.type !== 'compaction');
      const compaction = { type: 'compaction', ...billed.usage, output_tokens: Math.max(1, summaryTokens) };
      const sampled =
        rest.length > 0
          ? { input_tokens: summaryTokens + tokensOf(JSON.stringify(body.tools ?? [])), cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: Math.max(1, outputOf(rest)) }
          : { input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 0 };
      usage = { ...sampled, iterations: rest.length > 0 ? [compaction, { type: 'message', ...sampled }] : [compaction] };
    }
    const contextManagement = body.context_management ? { applied_edits: billed.applied } : null;
    const message = {
      id: `msg_mock_${++messageCounter}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: blocks.map((b) =>
        b.type === 'text'
          ? { type: 'text', text: b.text, citations: null }
          : b.type === 'compaction'
            ? { type: 'compaction', content: b.content, encrypted_content: b.encrypted_content }
            : { type: 'tool_use', id: b.id, name: b.name, input: b.input },
      ),
      stop_reason: stopReason,
      stop_sequence: null,
      usage,
      context_management: contextManagement,
    };
    const events = messageEvents(message, blocks, { delta: { stop_reason: stopReason, stop_sequence: null }, usage, context_management: contextManagement }, options.chunks ?? 3);
    return { events, message, usage, applied: billed.applied };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get served() {
      return served;
    },
    push: (...more: MockStep[]) => void steps.push(...more),
    script: (next: MockStep[]) => {
      steps.splice(0, steps.length, ...next);
      served = 0;
      stepIndex = 0;
      faultUses.clear();
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The checks of the real API that our loop could plausibly get wrong. */
function validate(body: Record<string, unknown>, headers: http.IncomingHttpHeaders): string | undefined {
  if (typeof body.model !== 'string' || typeof body.max_tokens !== 'number' || !Array.isArray(body.messages)) {
    return 'model, max_tokens and messages are required';
  }
  if (body.thread !== undefined && body.thread !== null) return 'mock: thread is not simulated (the loop sends full histories)';
  const betas = String(headers['anthropic-beta'] ?? '').split(',').map((s) => s.trim());
  const edits = ((body.context_management as { edits?: Array<{ type?: string }> } | undefined)?.edits ?? []).map((e) => e.type);
  const onlyCompaction = edits.length > 0 && edits.every((e) => e === 'compact_20260112');
  if (body.context_management && !onlyCompaction && !betas.includes(CONTEXT_MANAGEMENT_BETA)) {
    return `context_management: requires the anthropic-beta header ${CONTEXT_MANAGEMENT_BETA}`;
  }
  if (edits.includes('compact_20260112') && !betas.includes(COMPACTION_BETA)) {
    return `context_management.edits: compact_20260112 requires the anthropic-beta header ${COMPACTION_BETA}`;
  }
  const names = ((body.tools as Array<{ name?: string }> | undefined) ?? []).map((t) => t.name);
  if (new Set(names).size !== names.length) return 'tools: tool names must be unique';
  const breakpoints = (JSON.stringify(body).match(/"cache_control":\{/g) ?? []).length;
  if (breakpoints > 4) return `A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`;
  const messages = body.messages as Array<{ role: string; content: unknown }>;
  for (const m of messages) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content as Array<{ type: string; encrypted_content?: unknown; content?: unknown }>) {
      if (b.type === 'compaction' && (typeof b.encrypted_content !== 'string' || !String(b.encrypted_content).startsWith('enc_mock_'))) {
        return 'messages: a compaction block must be sent back verbatim (its encrypted_content is missing or altered)';
      }
    }
  }
  if (messages.length === 0 || messages[0].role !== 'user') return 'messages: the first message must use the "user" role';
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    // The API's own rules for content: an empty message, or a blank text block, is refused.
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? (m.content as Array<{ type: string; text?: string }>) : [];
    if (blocks.length === 0 && !(m.role === 'assistant' && i === messages.length - 1)) {
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    }
    if (blocks.some((b) => b.type === 'text' && (b.text ?? '').trim() === '')) return `messages.${i}: text content blocks must contain non-whitespace text`;
    if (m.role !== 'assistant' || !Array.isArray(m.content)) continue;
    const ids = (m.content as Array<{ type: string; id?: string }>).filter((b) => b.type === 'tool_use').map((b) => b.id);
    if (ids.length === 0) continue;
    const next = messages[i + 1];
    const results = next && next.role === 'user' && Array.isArray(next.content) ? (next.content as Array<{ type: string; tool_use_id?: string }>) : [];
    const answered = new Set(results.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id));
    const missing = ids.filter((id) => !answered.has(id));
    if (missing.length > 0) {
      return `messages.${i + 1}: tool_use ids were found without tool_result blocks immediately after: ${missing.join(', ')}`;
    }
    const firstOther = results.findIndex((b) => b.type !== 'tool_result');
    if (firstOther >= 0 && results.slice(firstOther).some((b) => b.type === 'tool_result')) {
      return `messages.${i + 2}: tool_result blocks must come before any other content`;
    }
  }
  return undefined;
}

function errorType(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    500: 'api_error',
    529: 'overloaded_error',
  };
  return types[status] ?? 'api_error';
}

function sendError(res: http.ServerResponse, status: number, type: string, message: string, finish: (status: number) => void, retryAfterMs = 5): void {
  // retry-after-ms keeps the SDK's retries fast in tests.
  res.writeHead(status, { 'content-type': 'application/json', 'retry-after-ms': String(retryAfterMs), 'request-id': 'req_mock_error' });
  res.end(JSON.stringify({ type: 'error', error: { type, message } }), () => finish(status));
}

function writeStreamHead(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': 'req_mock_stream' });
  res.flushHeaders();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The key a request carries: the `x-api-key` header, or a bearer token. */
function requestKey(headers: http.IncomingHttpHeaders): string | undefined {
  const apiKey = headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey !== '') return apiKey;
  const match = /^Bearer (.+)$/.exec(headers.authorization ?? '');
  return match?.[1];
}
