import { isStreamed, onReusedConnection, type WireRequest, type WireResponse } from '../model/backend.js';
import { IDEMPOTENT_METHODS } from '../config/execution-options.js';
import { firstHeader } from '../model/response-headers.js';
import { NetworkError, TimeoutError, type HttpBuilderError } from '../core/errors.js';
import { parseHttpDate } from '../core/http-date.js';
import { isFinal } from '../core/final-error.js';
import { sleep, timerWait } from './call-control.js';
import { beforeRetry } from './hooks-stage.js';
import type { Send, WireCall } from './plan.js';
import { toTransportError } from '../model/transport-error.js';

/**
 * The retry stage: sends each hop, retrying by `execution.retry` — a retried status or a
 * network failure (not a TLS one, nor one marked final) or a connect/response timeout, up to `limit` times, waiting
 * `Retry-After` or the backoff; a response whose `Retry-After` is beyond `maxRetryAfter` is not
 * retried (it goes to the handlers). Only a body that is in memory can be sent again. Apart from
 * that policy, an idempotent request whose reused keep-alive connection was reset before any
 * response (the server had closed it) is sent again once, at once; on a fresh connection a reset
 * is final (that resend is no retry of the policy: `beforeRetry` hooks are not called for it,
 * though each attempt passes the hook stage).
 */
export function retries(next: Send): Send {
  return function sendWithRetries(wire: WireRequest, call: WireCall): Promise<WireResponse> {
    const policy = call.plan.execution.retry;
    const replayable = !isStreamed(wire.body);
    const limit = replayable && policy.methods.has(wire.method) ? policy.limit : 0;
    const staleRetried = !replayable || !IDEMPOTENT_METHODS.has(wire.method);
    const first = attempt(next, wire, call);
    // no retry policy (the default): a response is final, so the loop is only entered on a failure
    if (limit === 0) return first.catch(retryLoop.bind(undefined, next, wire, call, { first, limit, staleRetried }));
    return retryLoop(next, wire, call, { first, limit, staleRetried });
  };
}

/** Where the loop starts: the first attempt (already sent), the policy's limit, whether the stale-connection resend is used up. */
interface LoopStart {
  readonly first: Promise<WireResponse>;
  readonly limit: number;
  readonly staleRetried: boolean;
}

async function retryLoop(next: Send, wire: WireRequest, call: WireCall, start: LoopStart): Promise<WireResponse> {
  const { limit } = start;
  const { control, plan } = call;
  const policy = plan.execution.retry;
  let staleRetried = start.staleRetried;
  let sent: Promise<WireResponse> | undefined = start.first;
  for (let retried = 0; ; retried++) {
    const pending = sent ?? attempt(next, wire, call);
    sent = undefined;
    let response: WireResponse;
    try {
      response = await pending;
    } catch (error) {
      const typed = toTransportError(error, wire.url);
      if (control?.reason === typed) throw typed; // aborted, or out of total time
      if (retried < limit && retriable(typed)) {
        const delay = timerWait(policy.backoff(retried + 1));
        if (plan.execution.hooks) await beforeRetry(call, wire, { error: typed, retryCount: retried + 1, delay });
        await sleep(delay, control);
        continue;
      }
      if (!staleRetried && typed instanceof NetworkError && typed.reason === 'reset' && onReusedConnection(error)) {
        staleRetried = true;
        retried--; // not one of the policy's retries
        continue;
      }
      throw typed;
    }
    if (retried >= limit || !policy.statusCodes.has(response.statusCode)) return response;
    const asked = retryAfterDelay(firstHeader(response.headers, 'retry-after'));
    // a server that asks for a longer wait than the caller allows gets no early retry: its answer is final (as got)
    if (asked !== undefined && asked > policy.maxRetryAfter) return response;
    const wait = timerWait(asked ?? policy.backoff(retried + 1));
    response.discard(); // before the hooks: one that throws leaves no connection checked out
    if (plan.execution.hooks) await beforeRetry(call, wire, { statusCode: response.statusCode, retryCount: retried + 1, delay: wait });
    await sleep(wait, control);
  }
}

/** `next(wire, call)`, a synchronous throw (a custom backend's) as a rejection, so the retry rules see it too. */
function attempt(next: Send, wire: WireRequest, call: WireCall): Promise<WireResponse> {
  try {
    return next(wire, call);
  } catch (error) {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- pass on exactly what the backend threw
    return Promise.reject(error);
  }
}

function retriable(error: HttpBuilderError): boolean {
  if (isFinal(error)) return false;
  if (error instanceof NetworkError) return error.reason !== 'tls'; // a certificate does not fix itself
  return error instanceof TimeoutError && (error.phase === 'connect' || error.phase === 'response');
}

/**
 * A `Retry-After` value in ms (RFC 9110 §10.2.3): delay-seconds (digits only) or an HTTP-date,
 * 0 for a date past; `undefined` when absent or anything else (`-1`, `1.5`, `soon`), so the
 * backoff applies rather than an immediate retry.
 *
 * @example
 * retryAfterDelay('120'); // 120000
 * retryAfterDelay('-1'); // undefined
 */
export function retryAfterDelay(header: string | undefined, now = Date.now()): number | undefined {
  const value = header?.trim();
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = parseHttpDate(value, now);
  return date === undefined ? undefined : Math.max(date - now, 0);
}
