import { BODY_TIMEOUT, CONNECT_TIMEOUT, HEADERS_TIMEOUT } from './backend.js';
import { AbortError, HttpBuilderError, NetworkError, ParseError, ResponseTooLargeError, TimeoutError, type NetworkErrorReason } from '../core/errors.js';
import { urlForMessage } from '../core/redact.js';

const REASONS: Readonly<Record<string, NetworkErrorReason>> = {
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_NONAME: 'dns',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  ECONNABORTED: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_DESTROYED: 'reset', // undici's pool destroyed under a request (close()), as node's destroyed agent resets its sockets
  ERR_STREAM_PREMATURE_CLOSE: 'reset',
  // HTTP/2: a stream the server reset or refused, a session it ended (GOAWAY) or that failed
  ERR_HTTP2_STREAM_ERROR: 'reset',
  ERR_HTTP2_GOAWAY_SESSION: 'reset',
  ERR_HTTP2_SESSION_ERROR: 'reset',
  ERR_HTTP2_INVALID_SESSION: 'reset',
  ERR_HTTP2_STREAM_CANCEL: 'reset',
};

// node's and undici's parsers refuse headers beyond 16 KiB (node's --max-http-header-size)
const HEADER_OVERFLOW = new Set(['HPE_HEADER_OVERFLOW', 'UND_ERR_HEADERS_OVERFLOW']);

// zlib's errors (Z_DATA_ERROR, ...), brotli's (ERR__ERROR_FORMAT_PADDING_1, ...) and zstd's (ZSTD_error_prefix_unknown, ...)
const DECODER_CODE = /^(?:Z_|ERR__ERROR_|ZSTD_error_)/;

// EPROTO: OpenSSL refused the handshake (a plain-HTTP port answering TLS: "wrong version number"), as undici's ERR_SSL_ says
const TLS_CODE = /^(?:CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL|EPROTO$)/;

// the certificate chain was refused (not a handshake that failed, nor a pin: their messages say what to change)
const CERTIFICATE_CODE = /^(?:CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_TLS_CERT_ALTNAME)/;

/**
 * Maps whatever a transport or a decoder threw into one typed error, the same for every backend.
 * Foreign errors are recognised by `code`, not `instanceof` (they may come from another realm).
 */
export function toTransportError(error: unknown, url: string, response?: { statusCode: number; contentType: string }): HttpBuilderError {
  if (error instanceof HttpBuilderError) return error;
  const { code, name, message } = describe(error);
  const where = urlForMessage(url);
  if (name === 'AbortError' || code === 'ABORT_ERR') return new AbortError(`the request to ${where} was aborted`, { cause: error });
  if (code === CONNECT_TIMEOUT) return new TimeoutError(`connect timeout: ${message} (${where})`, 'connect', { cause: error });
  if (code === HEADERS_TIMEOUT) return new TimeoutError(`response timeout: ${message} (${where})`, 'response', { cause: error });
  if (code === BODY_TIMEOUT) return new TimeoutError(`read timeout: ${message} (${where})`, 'read', { cause: error });
  if (HEADER_OVERFLOW.has(code)) return new ResponseTooLargeError(`the response headers of ${where} are too large (${message})`, { cause: error });
  if (response && DECODER_CODE.test(code)) {
    return new ParseError(`the response body of ${where} could not be decompressed: ${message}`, { ...response, text: '' }, { cause: error });
  }
  const reason = REASONS[code] ?? (TLS_CODE.test(code) ? 'tls' : message === 'socket hang up' ? 'reset' : 'other');
  const hint = reason === 'tls' && CERTIFICATE_CODE.test(code) ? ' (to trust a private CA, set execution.tls.ca)' : '';
  return new NetworkError(`${message} (${where})${hint}`, reason, { cause: error });
}

function describe(error: unknown): { code: string; name: string; message: string } {
  // any object, an Error of another realm (a vm context, a worker's) included: read by shape, not instanceof
  if (typeof error === 'object' && error !== null) {
    const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
    return {
      code: typeof code === 'string' ? code : '',
      name: typeof name === 'string' ? name : '',
      message: typeof message === 'string' ? message : 'unknown error',
    };
  }
  return { code: '', name: '', message: String(error) };
}
