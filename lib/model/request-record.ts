/**
 * The frozen request that interceptors see and pass on. To change a request, pass a modified
 * copy to `next`: `next({ ...request, headers: { ...request.headers, 'X-Trace': id } })`.
 *
 * @example
 * c.execution.interceptor(['GET', 'POST'], async (request, next) => {
 *   const started = Date.now();
 *   try { return await next(request); } finally { console.log(request.method, request.url, Date.now() - started); }
 * });
 */
export interface RequestRecord {
  /** Upper-case method. */
  readonly method: string;
  /** The full URL, query included (without credentials). */
  readonly url: string;
  /** Headers to send (names as set); `Content-Type` and `Content-Length` are derived from the body. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body before encoding. */
  readonly body: unknown;
  /** The request content type, when set. */
  readonly contentType: string | undefined;
  /** The request charset, when set. */
  readonly charset: string | undefined;
  /** A per-content-type setting registered with `c.context(contentType, id, value)`. */
  context(contentType: string, id: string | symbol): unknown;
}
