import type { WireRequest } from '../model/backend.js';

/**
 * One request as a {@link MockBackend} received it: what the pipeline put on the wire.
 *
 * @example
 * const [call] = mock.calls;
 * expect(call.headers['content-type']).toBe('application/json');
 * expect(JSON.parse(call.body.toString())).toEqual({ name: 'Ada' });
 */
export interface MockCall {
  /** Upper-case method. */
  readonly method: string;
  /** The full URL. */
  readonly url: string;
  /** Path and query, as they would go on the request line. */
  readonly target: string;
  /** Headers sent, names in lower case (read in any case: `headers['Content-Type']` works too). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body bytes (empty without a body). */
  readonly body: Buffer;
  /**
   * The proxy the request would have gone through (`client.proxy`, or the environment's
   * `https_proxy` / `http_proxy` as for a real backend), as errors and logs name it:
   * `http://host:port`, credentials as `***` (`http://***@host:port`). Never contacted.
   * `undefined` when the request goes direct.
   */
  readonly proxy?: string;
}

/** Reads the whole request, body included (a streamed body is consumed, as a transport would send it). */
export async function receive(request: WireRequest): Promise<MockCall> {
  const headers: Record<string, string> = {};
  for (const name in request.headers) headers[name.toLowerCase()] = request.headers[name];
  const chunks: Uint8Array[] = [];
  if (request.body !== undefined) {
    if (request.body.bytes !== undefined) chunks.push(request.body.bytes);
    else for await (const chunk of request.body) chunks.push(chunk);
  }
  const call = { method: request.method, url: request.url, target: request.target, headers: anyCase(headers), body: Buffer.concat(chunks) };
  // set only when there is one: a direct call compares equal to an object without the key
  return request.proxy === undefined ? call : { ...call, proxy: request.proxy.shown };
}

/** `headers` (names in lower case) readable by a name in any case, as HTTP header names are. */
function anyCase(headers: Record<string, string>): Record<string, string> {
  return new Proxy(headers, {
    get: (target, name) => (typeof name === 'string' && !(name in target) ? target[name.toLowerCase()] : (Reflect.get(target, name) as unknown)),
    has: (target, name) => typeof name === 'string' && name.toLowerCase() in target,
  });
}
