import { BODY_TIMEOUT, HEADERS_TIMEOUT, type WireRequest, type WireResponse } from '../model/backend.js';
import { transportError, wireResponse } from './fetch-response.js';

// The global fetch (Bun's, a browser's, a Worker's) takes no timeouts: the fetch backend keeps
// the request's own there, with one AbortController per request. undici's fetch gets them on
// its dispatcher instead (undici-fetch.ts) and never comes here. No `node:` import.

/**
 * Sends `request` with `fetch` under its `headersTimeout` (until the response head) and
 * `bodyTimeout` (the longest silence of the body), either `0` for none; the request's own
 * `signal` still aborts it. A limit that expires aborts the fetch and fails it, or its body,
 * with an error whose `code` is {@link HEADERS_TIMEOUT} or {@link BODY_TIMEOUT}.
 *
 * @example
 * const response = await timedFetch(globalThis.fetch, request, init);
 */
export async function timedFetch(fetch: typeof globalThis.fetch, request: WireRequest, init: RequestInit): Promise<WireResponse> {
  const { headersTimeout = 0, bodyTimeout = 0, signal } = request;
  if (!headersTimeout && !bodyTimeout)
    return fetch(request.url, init).then(
      (response) => wireResponse(response),
      (error: unknown) => Promise.reject(transportError(error)),
    );
  const controller = new AbortController();
  let expired: Error | undefined;
  const expire = (error: Error) => {
    expired ??= error;
    controller.abort(expired);
  };
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const unlink = () => signal?.removeEventListener('abort', onAbort);
  const timer = headersTimeout
    ? setTimeout(() => expire(timeoutError(HEADERS_TIMEOUT, `no response headers arrived within ${headersTimeout} ms`)), headersTimeout)
    : undefined;
  let response: Response;
  try {
    response = await fetch(request.url, { ...init, signal: controller.signal });
  } catch (error) {
    unlink();
    throw transportError(expired ?? error);
  } finally {
    clearTimeout(timer);
  }
  if (response.body === null) {
    unlink();
    return wireResponse(response);
  }
  return wireResponse(
    response,
    undefined,
    silenceLimited(response.body, bodyTimeout, expire, () => expired, unlink),
  );
}

/**
 * `body` failing with a {@link BODY_TIMEOUT} error when no chunk arrives for `ms` (`0`: no
 * limit). `done` runs once, when the body ends, fails or is cancelled.
 */
function silenceLimited(
  body: ReadableStream<Uint8Array>,
  ms: number,
  expire: (error: Error) => void,
  expired: () => Error | undefined,
  done: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finished = false;
  const finish = () => {
    clearTimeout(timer);
    if (finished) return;
    finished = true;
    done();
  };
  const onSilence = () => {
    expire(timeoutError(BODY_TIMEOUT, `no more of the response body arrived within ${ms} ms`));
    // the abort fails a pending read where the runtime errors the body on abort; a cancel ends it anywhere
    reader.cancel(expired()).catch(() => undefined);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (ms) timer = setTimeout(onSilence, ms);
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        finish();
        throw expired() ?? error;
      }
      clearTimeout(timer);
      const failure = expired();
      if (failure) {
        finish();
        throw failure;
      }
      if (next.done) {
        finish();
        controller.close();
      } else controller.enqueue(next.value);
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
}

function timeoutError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}
