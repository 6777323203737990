import { HttpBuilderError, NetworkError } from '../core/errors.js';

/** The instrumentation scope of the tracer and the meter (with the library's version). */
export const INSTRUMENTATION_NAME = 'httpbuilder-ts';

/** The methods the HTTP semantic conventions know; any other is `_OTHER` (its own name in `http.request.method_original`). */
const KNOWN_METHODS = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE', 'QUERY']);

/** `http.request.method`: the method, or `_OTHER` for one the conventions do not know (a span named `HTTP` then). */
export function methodAttribute(method: string): string {
  return KNOWN_METHODS.has(method) ? method : '_OTHER';
}

/** `network.protocol.version` as the conventions write it: `1.1`, `2` (not `2.0`). */
export function protocolVersion(httpVersion: string | undefined): string | undefined {
  return httpVersion === '2.0' ? '2' : httpVersion;
}

/** A transport's own error code as the conventions want `error.type`: a short, upper-case identifier. */
const TRANSPORT_CODE = /^[A-Z][A-Z0-9_]{1,63}$/;

/**
 * `error.type` of an attempt that got no response: the error's `code`, except for a `NetworkError`,
 * whose one code (`ERR_NETWORK`) covers a refused connection, a failed DNS lookup, a reset and a
 * TLS failure alike: there the transport's own code (`ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`,
 * `UND_ERR_SOCKET`, `CERT_HAS_EXPIRED`, ...) tells a dashboard which, as the transport spans of
 * `@opentelemetry/instrumentation-http` and `-undici` do. A foreign error: its class name.
 */
export function errorType(error: unknown): string {
  if (error instanceof NetworkError) {
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' && TRANSPORT_CODE.test(code) ? code : error.code;
  }
  if (error instanceof HttpBuilderError) return error.code;
  return error instanceof Error ? error.constructor.name : 'Error';
}
