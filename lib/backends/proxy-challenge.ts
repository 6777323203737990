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
