import type { ClientHttp2Session, ClientHttp2Stream, ClientSessionRequestOptions, OutgoingHttpHeaders, SecureClientSessionOptions } from 'node:http2';
import type { ExtendOptions } from 'got';
import type { Agent as Http2Agent, PromiseListeners, ResolveProtocolFunction } from 'http2-wrapper';
import tls from 'node:tls';
import type { ConnectionOptions } from '../model/backend.js';
import type { TimingsRecorder } from '../core/timings.js';
import { timeHttp2Request, timedConnection } from './got-h2-timings.js';
import { endOnlyAtEndStream } from './h2-stream-end.js';
import { answeringAll } from './lookup.js';
import { importPeer } from './optional-peer.js';
import { pinFailure, securedAndPinned } from './tls-pins.js';

/** The HTTP/2 agent of one got backend: its sessions end with `close()`. */
export interface GotHttp2Agent extends Http2Agent {
  /** Destroys every session (their streams fail as reset connections) and refuses new ones. */
  close(): void;
  /** http2-wrapper's ALPN probe (whose socket the first session reuses), its connections timed. */
  readonly resolveProtocol: ResolveProtocolFunction;
}

/** Options of http2-wrapper's `auto` on the ALPN probe's socket, which its first session reuses. */
interface ProbeOptions {
  _reuseSocket?: { destroy(): void };
  createConnection?: unknown;
}

/** What the session of a client that closed reports to the requests still on it (as node's destroyed agent does). */
function resetError(): Error {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}

/**
 * A new http2-wrapper Agent (got's HTTP/2) for a got backend, instead of got's process-wide
 * `globalAgent`, so that `close()` can end its sessions. Loads http2-wrapper (got's own
 * dependency) the first time.
 *
 * @example
 * const http2 = await gotHttp2Agent();
 * const instance = got.extend({ http2: true, agent: { http2 } });
 * http2.close();
 */
export async function gotHttp2Agent(pins?: ReadonlySet<string>): Promise<GotHttp2Agent> {
  const { default: wrapper } = await importPeer('http2-wrapper', 'got', () => import('http2-wrapper'));
  // http2-wrapper's mark of a session that takes no new streams (not in its types)
  const closing = (wrapper.Agent as unknown as { kGracefullyClosing: symbol }).kGracefullyClosing;
  class BackendAgent extends wrapper.Agent implements GotHttp2Agent {
    #closed = false;

    constructor() {
      super();
      // a session that received GOAWAY takes no new stream (node throws ERR_HTTP2_GOAWAY_SESSION),
      // but http2-wrapper hands it out until it is destroyed: a request sent again after a
      // refused stream would fail on it too
      this.on('session', (session: ClientHttp2Session) => session.once('goaway', () => Object.assign(session, { [closing]: true })));
    }
    // the process-wide ALPN cache, as http2-wrapper's own probe uses, with its sockets timed
    readonly resolveProtocol = wrapper.auto.createResolveProtocol(
      wrapper.auto.protocolCache as unknown as Map<string, string>,
      new Map(),
      (options, callback) => timedConnection(() => probe(options, callback, pins)),
    );

    // each session's connection timed, for the attempts that waited for it; with pins, handed
    // over only once it passed them
    override createConnection(origin: URL, options: SecureClientSessionOptions): Promise<tls.TLSSocket> {
      // with pins, no resumed session: it shows no certificate to check them against
      const made = timedConnection(() => super.createConnection(origin, pins ? { ...options, session: undefined } : options));
      return pins ? made.then((socket: tls.TLSSocket) => securedAndPinned(socket, pins, options.servername || origin.hostname)) : made;
    }

    // (http2-wrapper's types name the wrong options: these are a request's connect options)
    override normalizeOptions(options: ClientSessionRequestOptions): string {
      // on the ALPN probe's socket, http2-wrapper passes its own createConnection, which is part
      // of a session's key: keyed with it, that session would never serve another request and
      // stay open beside the next one
      const probe = options && '_reuseSocket' in options;
      return super.normalizeOptions(probe ? ({ ...options, createConnection: undefined } as ClientSessionRequestOptions) : options);
    }

    override getSession(origin: string | URL, options?: SecureClientSessionOptions & ProbeOptions, listeners?: PromiseListeners): Promise<never> {
      if (!this.#closed) return super.getSession(origin, options, listeners) as Promise<never>;
      // a request that was still choosing its protocol (ALPN) when the client closed
      options?._reuseSocket?.destroy();
      const error = resetError();
      if (!Array.isArray(listeners) || listeners.length === 0) return Promise.reject(error);
      for (const listener of listeners as PromiseListeners[]) listener.reject(error);
      return Promise.resolve() as Promise<never>;
    }

    // every stream of this agent: a body cut short must not end as if whole
    override async request(
      origin: string | URL,
      options?: SecureClientSessionOptions,
      headers?: OutgoingHttpHeaders,
      stream?: ClientSessionRequestOptions,
    ): Promise<ClientHttp2Stream> {
      const made = await super.request(origin, options, headers, stream);
      endOnlyAtEndStream(made);
      return made;
    }

    close(): void {
      this.#closed = true;
      const error = resetError();
      // requests waiting for a session still being made fail as reset too, not with http2-wrapper's
      // 'Agent has been destroyed' (its listeners are arrays, whatever its types say)
      for (const entries of Object.values(this.queue))
        for (const entry of Object.values(entries)) for (const listener of (entry.listeners as unknown as PromiseListeners[]).splice(0)) listener.reject(error);
      this.destroy(error);
    }
  }
  return new BackendAgent();
}

/**
 * `client.connection`'s `lookup`, `family` and `localAddress` as got options: over HTTP/2,
 * http2-wrapper connects itself (the ALPN probe, then its sessions) with the request's options,
 * never through our http/https agents, which have them already.
 */
export function gotConnectOptions(connection: ConnectionOptions | undefined): ExtendOptions {
  const options: ExtendOptions = {};
  if (connection?.lookup) options.dnsLookup = answeringAll(connection.lookup) as ExtendOptions['dnsLookup'];
  if (connection?.family) options.dnsLookupIpVersion = connection.family;
  if (connection?.localAddress) options.localAddress = connection.localAddress;
  return options;
}

/** http2-wrapper's ClientRequest, with the parts this file uses. */
interface Http2Request {
  _mustNotHaveABody?: boolean;
  agent?: Pick<Http2Agent, 'request'>;
  getHeader(name: string): unknown;
  setHeader(name: string, value: unknown): void;
  removeHeader(name: string): void;
}

/**
 * `request` from got's HTTP/2 function (a promise of http2-wrapper's ClientRequest, or of node's
 * when ALPN chose HTTP/1.1) sent as the pipeline means it, before its headers go out:
 * - `:authority` is the target's (`authority`, or a caller's Host), where http2-wrapper takes
 *   the TLS server name;
 * - its `timings` are stamped as it goes (got-h2-timings.ts);
 * - with `body`, a GET or DELETE sends it: HTTP/2 allows a body on any method, but
 *   http2-wrapper refuses it ("must NOT have a body") and node ends such a stream at once.
 *   (A HEAD with a body never gets here: refused before sending.)
 */
export function asHttp2<R>(request: R, authority: string, body: boolean, timings?: TimingsRecorder): R {
  const ready = (req: R) => {
    timeHttp2Request(req, timings);
    return isHttp2Request(req) ? prepared(req, authority, body) : req;
  };
  return request instanceof Promise ? (request.then(ready) as R) : ready(request);
}

function isHttp2Request(req: unknown): req is Http2Request {
  return typeof req === 'object' && req !== null && '_mustNotHaveABody' in req;
}

function prepared<R extends Http2Request>(req: R, authority: string, body: boolean): R {
  const host = req.getHeader('host');
  req.removeHeader('host');
  req.setHeader(':authority', host ?? authority);
  const agent = req.agent;
  // a method allowed a body anyway, or a caller's own h2session (no agent): left as they are
  if (!body || req._mustNotHaveABody !== true || typeof agent?.request !== 'function') return req;
  Object.defineProperty(req, '_mustNotHaveABody', { value: false });
  // its only use after construction: opening the stream (flushHeaders), which must stay open for the body
  req.agent = Object.assign(Object.create(agent) as object, {
    request: (origin: string | URL, options?: SecureClientSessionOptions, headers?: OutgoingHttpHeaders, stream?: ClientSessionRequestOptions) =>
      agent.request(origin, options, headers, { ...stream, endStream: false }),
  });
  return req;
}

/** http2-wrapper's ALPN probe connection: `secured` is told only once the pins passed (it hands the socket to a session or a request). */
function probe(options: tls.ConnectionOptions, secured: () => void, pins: ReadonlySet<string> | undefined): tls.TLSSocket {
  if (!pins) return tls.connect(options, secured);
  const socket = tls.connect({ ...options, session: undefined }, () => {
    const failure = pinFailure(socket, pins, options.servername || options.host || 'localhost');
    if (failure)
      socket.destroy(failure); // the probe rejects with its 'error'
    else secured();
  });
  return socket;
}
