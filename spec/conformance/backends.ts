import type { BackendChoice } from '../../lib/index.js';

/**
 * What a transport does that cannot be switched off, as data: the tests read it, so each
 * difference is stated once here and shown by a test (docs/backends.md explains them).
 */
export interface BackendTraits {
  /** Request headers the transport always adds, beyond Host and Connection. */
  readonly forcedHeaders: readonly string[];
  /** Whether GET/HEAD may carry a body (fetch refuses one: ConfigError before sending). */
  readonly bodyOnGetAndHead: boolean;
  /** Whether a truncated gzip body is an error (fetch returns it short, without one). */
  readonly detectsTruncatedGzip: boolean;
  /** How many sockets sequential requests may spread over (undici frees a socket a tick late). */
  readonly sequentialSockets: number;
  /** Whether a connection whose body was abandoned closes at once (undici leaves it to its keep-alive timer). */
  readonly closesAbandonedAtOnce: boolean;
  /**
   * What a 3xx answering a streamed upload (a body that cannot be sent again) becomes: a
   * response the redirect stage handles like any other (`'response'`), or a `RedirectError`
   * (fetch sends such uploads with `redirect: 'error'`: in `'manual'` mode undici would hold the
   * whole upload in memory for a redirect it never follows).
   */
  readonly redirectOfStreamedUpload: 'response' | 'RedirectError';
  /** Whether download progress of a compressed body counts its decoded bytes, with no total (fetch hands over decoded bytes only). */
  readonly countsDecodedDownload: boolean;
  /** Which of `Host`, `Expect`, `Keep-Alive`, `Upgrade` and `Connection: upgrade` are refused before sending (fetch and undici replace or reject them). */
  readonly refusedHopHeaders: readonly string[];
  /** What the transport sends in place of `User-Agent`, `Accept` and `Accept-Encoding` once the caller removes them (fetch fills in its own, br only over TLS). */
  defaultsWhenRemoved(secure: boolean): Readonly<Record<string, string>>;
  /** Whether ports on fetch's "bad ports" list (10080, 6000, ...) are refused before connecting. */
  readonly refusesBadPorts: boolean;
  /** Whether a target with `.` or `..` segments is refused before sending (fetch would resolve them away). */
  readonly refusesDotSegments: boolean;
  /** Whether an unsolicited `100 Continue` before the response is skipped (RFC 9110) or fails the request (undici's fetch: `NetworkError` `other`). */
  readonly skipsUnsolicitedContinue: boolean;
  /** Whether `client.http2` is available, so the kit runs a further column over HTTP/2 (axios has no HTTP/2 transport). */
  readonly speaksHttp2: boolean;
  /** What differs in the HTTP/2 column. */
  readonly overHttp2?: Partial<BackendTraits>;
}

const TRANSPORT_ONLY: BackendTraits = {
  forcedHeaders: [],
  bodyOnGetAndHead: true,
  detectsTruncatedGzip: true,
  sequentialSockets: 1,
  closesAbandonedAtOnce: true,
  redirectOfStreamedUpload: 'response',
  countsDecodedDownload: false,
  refusedHopHeaders: [],
  defaultsWhenRemoved: () => ({}),
  refusesBadPorts: false,
  refusesDotSegments: false,
  skipsUnsolicitedContinue: true,
  speaksHttp2: true,
};

/**
 * Every backend the conformance kit runs on; each scenario runs once per entry, over HTTP
 * and HTTPS, and over HTTP/2 where the backend speaks it. A new backend adds itself here and nowhere else. Filter with `npm test -- -t got`.
 */
export const BACKENDS: ReadonlyArray<{ readonly name: string; readonly choice: BackendChoice; readonly traits: BackendTraits }> = [
  { name: 'native', choice: 'native', traits: TRANSPORT_ONLY },
  // undici frees a socket a tick late (as for fetch), refuses the hop-by-hop headers it manages,
  // and its parser fails an unsolicited 1xx (as fetch's)
  {
    name: 'undici',
    choice: 'undici',
    traits: {
      ...TRANSPORT_ONLY,
      sequentialSockets: 2,
      refusedHopHeaders: ['Expect', 'Keep-Alive', 'Upgrade', 'Connection'],
      skipsUnsolicitedContinue: false,
      // undici ends an HTTP/2 GET's stream with its headers: the body is refused before sending
      overHttp2: { bodyOnGetAndHead: false },
    },
  },
  { name: 'axios', choice: 'axios', traits: { ...TRANSPORT_ONLY, speaksHttp2: false } },
  { name: 'got', choice: 'got', traits: TRANSPORT_ONLY },
  {
    name: 'fetch',
    choice: 'fetch',
    traits: {
      forcedHeaders: ['accept-language', 'sec-fetch-mode'],
      bodyOnGetAndHead: false,
      detectsTruncatedGzip: false,
      sequentialSockets: 2,
      closesAbandonedAtOnce: false,
      redirectOfStreamedUpload: 'RedirectError',
      countsDecodedDownload: true,
      refusedHopHeaders: ['Host', 'Expect', 'Keep-Alive', 'Upgrade', 'Connection'],
      refusesBadPorts: true,
      refusesDotSegments: true,
      skipsUnsolicitedContinue: false,
      speaksHttp2: true,
      defaultsWhenRemoved: (secure) => ({ 'user-agent': 'undici', accept: '*/*', 'accept-encoding': secure ? 'br, gzip, deflate' : 'gzip, deflate' }),
    },
  },
];
