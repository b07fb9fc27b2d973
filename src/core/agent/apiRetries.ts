/**
 * Makes the SDK's own retries visible. The SDK retries 408/409/429/5xx/529 and connection errors
 * (maxRetries) silently; a user waiting through them sees nothing. This middleware watches every
 * HTTP attempt of a request and, when an attempt failed in a way the SDK will retry, reports it
 * (`api_retry`) with the wait the SDK is about to make. The policy below restates the SDK's
 * `shouldRetry`/`retryRequest` (client.js) for display only: the SDK still decides and waits.
 */
import type { Middleware } from '@anthropic-ai/sdk';
import type { AgentEvent } from './events';

export type ApiRetryReason = 'overloaded' | 'rate_limit' | 'server' | 'timeout' | 'network';

/** The SDK's default backoff without its jitter (0.5 s doubling, at most 8 s): what "about" means. */
function defaultDelayMs(retriesDone: number): number {
  return Math.min(0.5 * 2 ** retriesDone, 8) * 1000;
}

/** How long the SDK waits after `response`, as it reads the headers. */
export function retryDelayMs(headers: Headers, retriesDone: number, now = Date.now()): number {
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (ms > 0 && ms <= 2 ** 31 - 1) return ms;
  const after = headers.get('retry-after');
  if (after) {
    const seconds = Number.parseFloat(after);
    const fromHeader = Number.isNaN(seconds) ? Date.parse(after) - now : seconds * 1000;
    if (fromHeader > 0 && fromHeader <= 2 ** 31 - 1) return fromHeader;
  }
  return defaultDelayMs(retriesDone);
}

/** Whether the SDK retries a response with this status and headers (its x-should-retry rule first). */
export function sdkRetries(status: number, headers: Headers): boolean {
  const header = headers.get('x-should-retry');
  if (header === 'true') return true;
  if (header === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

export function retryReason(status: number): ApiRetryReason {
  if (status === 529) return 'overloaded';
  if (status === 429) return 'rate_limit';
  if (status === 408) return 'timeout';
  return 'server';
}

/**
 * A per-request middleware reporting each retry the SDK is about to make. `maxRetries` must be the
 * client's; the attempt number comes from the SDK's own `x-stainless-retry-count` header.
 */
export function retryReporter(maxRetries: number, emit: (event: Extract<AgentEvent, { type: 'api_retry' }>) => void, signal?: AbortSignal): Middleware {
  return async (request, next) => {
    const done = Number.parseInt(request.headers.get('x-stainless-retry-count') ?? '0', 10) || 0;
    const report = (reason: ApiRetryReason, delayMs: number) =>
      emit({ type: 'api_retry', reason, attempt: done + 1, maxRetries, delayMs: Math.round(delayMs) });
    let response: Response;
    try {
      response = await next(request);
    } catch (error) {
      if (done < maxRetries && !signal?.aborted) report('network', defaultDelayMs(done));
      throw error;
    }
    if (!response.ok && done < maxRetries && sdkRetries(response.status, response.headers)) {
      report(retryReason(response.status), retryDelayMs(response.headers, done));
    }
    return response;
  };
}
