import { onReusedConnection, type WireRequest, type WireResponse } from '../model/backend.js';
import { firstHeader } from '../model/response-headers.js';
import { NetworkError, TimeoutError, type HttpBuilderError } from '../core/errors.js';
import { isFinal } from '../core/final-error.js';
import { promised } from '../core/maybe-promise.js';
import { sleep, timerWait } from './call-control.js';
import { beforeRetry } from './hooked-attempt.js';
import type { Send, WireCall } from './plan.js';
import { toTransportError } from '../model/transport-error.js';
import { retryAfterDelay } from './retry-after.js';
import { notePause } from './pacing-stage.js';
import { unprocessedStream } from './unprocessed-stream.js';

// The retry stage's loop (retry.ts), loaded with the optional stages' work (stage-work.ts) by the
// first call that has a retry policy, or by the first failure of one that has none.

/** Where the loop starts: the first attempt (already sent), the policy's limit, whether the stale-connection and unprocessed-stream resends are used up. */
export interface LoopStart {
  readonly first: Promise<WireResponse>;
  readonly limit: number;
  readonly staleRetried: boolean;
  readonly unprocessedResent: boolean;
}

export async function retryLoop(next: Send, wire: WireRequest, call: WireCall, start: LoopStart): Promise<WireResponse> {
  const { limit } = start;
  const { control, plan } = call;
  const policy = plan.execution.retry;
  let staleRetried = start.staleRetried;
  let unprocessedResent = start.unprocessedResent;
  let sent: Promise<WireResponse> | undefined = start.first;
  for (let retried = 0; ; retried++) {
    const pending = sent ?? promised(next, wire, call);
    sent = undefined;
    let response: WireResponse;
    try {
      response = await pending;
    } catch (error) {
      const typed = toTransportError(error, wire.url);
      if (control?.reason === typed) throw typed; // aborted, or out of total time
      // the server did nothing with it (RFC 9113 §8.7): safe for any method, and none of the policy's retries
      if (!unprocessedResent && typed instanceof NetworkError && unprocessedStream(error)) {
        unprocessedResent = true;
        retried--;
        continue;
      }
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
    notePause(response, wire, call);
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

function retriable(error: HttpBuilderError): boolean {
  if (isFinal(error)) return false;
  if (error instanceof NetworkError) return error.reason !== 'tls'; // a certificate does not fix itself
  return error instanceof TimeoutError && (error.phase === 'connect' || error.phase === 'response');
}
