/**
 * Turns whatever a request threw into one sentence a user can act on. The SDK's own messages are
 * not shown as they are: they can quote request details; only the API's `error.message` is, for
 * 400s, where it is the one useful hint. Every sentence goes through `redact` anyway.
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from '@anthropic-ai/sdk';
import type { AgentErrorKind } from './events';

export interface AgentFailure {
  kind: AgentErrorKind;
  message: string;
}

/** Thrown inside the loop to end a send with a given failure. */
export class SendFailed extends Error {
  /** `rollback`: the history goes back to what it was before the send (a refused prompt is not kept). */
  constructor(
    readonly failure: AgentFailure,
    readonly rollback = false,
  ) {
    super(failure.message);
  }
}

export function missingKeyFailure(): AgentFailure {
  return {
    kind: 'missing_key',
    message: 'No Anthropic API key is set: add one (ANTHROPIC_API_KEY for the CLI, "Set API Key" in VS Code) and send again.',
  };
}

export function cancelledFailure(): AgentFailure {
  return { kind: 'cancelled', message: 'Stopped: the request was cancelled; what was done so far is kept (file edits, what commands did, memory changes).' };
}

export function maxTurnsFailure(maxTurns: number): AgentFailure {
  return {
    kind: 'max_turns',
    message: `Stopped after ${maxTurns} model turns, the configured maximum: send another message to let Claude continue, or raise the limit.`,
  };
}

export function streamFailure(attempts: number): AgentFailure {
  return {
    kind: 'stream',
    message: `The response stream broke off mid-message ${attempts} times; no tool call from it was run. Check your connection and send again.`,
  };
}

/** True for errors thrown because our AbortSignal fired. */
export function isAbort(error: unknown): boolean {
  return error instanceof APIUserAbortError || (error instanceof Error && error.name === 'AbortError');
}

export function classifyError(error: unknown, model: string, maxRetries: number): AgentFailure {
  const retried = maxRetries > 0 ? ` after ${maxRetries} retr${maxRetries === 1 ? 'y' : 'ies'}` : '';
  if (isAbort(error)) return cancelledFailure();
  if (error instanceof APIConnectionTimeoutError) {
    return { kind: 'network', message: `The Anthropic API did not answer in time${retried}: check your connection or proxy and send again.` };
  }
  if (error instanceof APIConnectionError) {
    return { kind: 'network', message: `Could not reach the Anthropic API${retried}: check your connection, proxy or base URL and send again.` };
  }
  if (error instanceof AuthenticationError) {
    return { kind: 'auth', message: 'The Anthropic API rejected the API key (401): set a valid key and send again.' };
  }
  if (error instanceof PermissionDeniedError) {
    return { kind: 'permission', message: 'The API key is not allowed to use this model or feature (403): check the key\'s workspace permissions, or use another key.' };
  }
  if (error instanceof NotFoundError) {
    return { kind: 'not_found', message: `The model "${model}" was not found (404): check the model name in the settings and send again.` };
  }
  if (error instanceof BadRequestError) {
    const detail = apiMessage(error);
    return { kind: 'bad_request', message: `The Anthropic API refused the request (400)${detail ? `: ${detail}` : ''}. Fix the setting it names, or reset the chat, and send again.` };
  }
  if (error instanceof RateLimitError) {
    return { kind: 'rate_limit', message: `The Anthropic API rate limit was hit (429) and the request was given up${retried}: wait a minute and send again.` };
  }
  if (error instanceof APIError && error.status === 529) {
    return { kind: 'overloaded', message: `The Anthropic API is overloaded (529) and the request was given up${retried}: wait a little and send again.` };
  }
  if (error instanceof APIError && typeof error.status === 'number' && error.status >= 500) {
    return { kind: 'overloaded', message: `The Anthropic API failed with a server error (${error.status})${retried}: wait a little and send again.` };
  }
  if (error instanceof APIError && error.type === 'overloaded_error') {
    return { kind: 'overloaded', message: 'The Anthropic API is overloaded and broke off the answer: wait a little and send again.' };
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const detail = apiMessage(error);
    return { kind: 'unknown', message: `The Anthropic API answered with status ${error.status}${detail ? `: ${detail}` : ''}. Send again, or check the settings.` };
  }
  return { kind: 'unknown', message: 'The request to the Anthropic API failed unexpectedly: see the log for details and send again.' };
}

function apiMessage(error: APIError): string | undefined {
  const text = error.apiMessage ?? undefined;
  if (!text) return undefined;
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 300 ? `${oneLine.slice(0, 297)}...` : oneLine;
}

/** Removes the API key (and anything that looks like one) from text that leaves the loop. */
export function redact(text: string, apiKey: string | undefined): string {
  let out = text;
  if (apiKey && apiKey.length >= 4) out = out.split(apiKey).join('[redacted]');
  return out.replace(/sk-ant-[A-Za-z0-9_-]+/g, '[redacted]');
}
