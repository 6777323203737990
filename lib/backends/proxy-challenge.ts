import type { WireResponse } from '../model/backend.js';

/**
 * A proxy's `407` that a transport could only report as a failure: undici's fetch turns any
 * 407 into a network error, so the fetch backend's proxy interceptor stops the exchange with
 * this, and the backend hands the 407 on as a response for the proxy stage to answer.
 * No `node:` import: the fetch backend imports it.
 */
export class ProxyChallenge extends Error {
  constructor(
    readonly statusCode: number,
    readonly statusText: string,
    /** Header pairs of the 407 (its `Proxy-Authenticate` challenges among them). */
    readonly headers: ReadonlyArray<readonly [string, string]>,
  ) {
    super(`the proxy answered ${statusCode}`);
  }
}

const NO_BYTES: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve({ done: true, value: undefined }) }) };

function doNothing(): void {}

function readNothing(): Promise<Uint8Array> {
  return Promise.resolve(new Uint8Array(0));
}

/** The proxy's 407 as a response without a body (its body was never read), for the proxy stage to answer. */
export function challengeResponse(challenge: ProxyChallenge): WireResponse {
  return {
    statusCode: challenge.statusCode,
    message: challenge.statusText,
    headers: challenge.headers,
    body: NO_BYTES,
    decoded: false,
    discard: doNothing,
    readAll: readNothing,
  };
}
