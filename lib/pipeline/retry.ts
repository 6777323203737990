import { isStreamed, type WireRequest, type WireResponse } from '../model/backend.js';
import { IDEMPOTENT_METHODS } from '../config/execution-options.js';
import { promised } from '../core/maybe-promise.js';
import { randomUUID } from '../core/bytes.js';
import { stageWork } from './deferred-stage.js';
import type { Send, WireCall } from './plan.js';
import type { LoopStart } from './retry-loop.js';

/**
 * The retry stage: sends each hop, retrying by `execution.retry` — a retried status or a
 * network failure (not a TLS one, nor one marked final) or a connect/response timeout, up to `limit` times, waiting
 * `Retry-After` or the backoff; a response whose `Retry-After` is beyond `maxRetryAfter` is not
 * retried (it goes to the handlers). Only a body that is in memory can be sent again. Apart from
 * that policy, an idempotent request whose reused keep-alive connection was reset before any
 * response (the server had closed it) is sent again once, at once; on a fresh connection a reset
 * is final (that resend is no retry of the policy: `beforeRetry` hooks are not called for it,
 * though each attempt passes the hook stage). With `idempotencyKey`, a POST or PATCH carries one
 * `Idempotency-Key` on every attempt of every hop, and is retried as an idempotent request is.
 * Also apart from the policy (and spending none of it), a request of any method whose HTTP/2
 * stream the server did not process (refused with REFUSED_STREAM, or above its GOAWAY's last
 * stream: unprocessed-stream.ts) is sent again once, at once, when its body is in memory.
 */
export function retries(next: Send): Send {
  return function sendWithRetries(wire: WireRequest, call: WireCall): Promise<WireResponse> {
    const policy = call.plan.execution.retry;
    const keyed = policy.idempotencyKey && KEYED_METHODS.has(wire.method);
    if (keyed) wire = withIdempotencyKey(wire, call);
    const replayable = !isStreamed(wire.body);
    const limit = replayable && (keyed || policy.methods.has(wire.method)) ? policy.limit : 0;
    const staleRetried = !replayable || !(keyed || IDEMPOTENT_METHODS.has(wire.method));
    const first = promised(next, wire, call);
    const start: LoopStart = { first, limit, staleRetried, unprocessedResent: !replayable };
    // no retry policy (the default): a response is final, so the loop is only entered on a failure
    if (limit === 0) return first.catch(loop.bind(undefined, next, wire, call, start));
    return loop(next, wire, call, start);
  };
}

/** What `execution.retry.idempotencyKey` keys (draft-ietf-httpapi-idempotency-key-header): the methods that are not idempotent by themselves. */
const KEYED_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH']);

/** `wire` with the call's one `Idempotency-Key` (made at its first hop), unless the request set that header itself. */
function withIdempotencyKey(wire: WireRequest, call: WireCall): WireRequest {
  for (const name in wire.headers) if (name.toLowerCase() === 'idempotency-key') return wire;
  return { ...wire, headers: { ...wire.headers, 'Idempotency-Key': (call.idempotencyKey ??= randomUUID()) } };
}

/** The loop (retry-loop.ts), loaded by its first use (deferred-stage.ts); `first` already has its rejection handled or is awaited at once. */
function loop(next: Send, wire: WireRequest, call: WireCall, start: LoopStart): Promise<WireResponse> {
  const loaded = stageWork.loaded;
  if (loaded) return loaded.retryLoop(next, wire, call, start);
  start.first.catch(ignore); // handled once the loop is in: no unhandled rejection before
  return stageWork().then((work) => work.retryLoop(next, wire, call, start));
}

function ignore(): void {
  // the loop reads the failure
}
