import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { clientClosed, inMemory, utf8TextOf, type Backend, type TransportOptions, type WireRequest, type WireResponse } from '../model/backend.js';
import type { ProxyRoute } from '../model/proxy-route.js';
import { LazyHttp2Pool } from './lazy-http2-pool.js';
import { nodeAgents } from './node-agents.js';
import { limitRequest } from './node-limits.js';
import { markIfReused, nodeResponse } from './node-response.js';
import { ProxyAgents, proxiedRequest } from './proxy-agents.js';
import { unbracketed } from './proxy-tunnel.js';

type ProxiedRequest = WireRequest & { readonly proxy: ProxyRoute };

/**
 * The default backend: Node's own `node:http`/`node:https`, one keep-alive pool per client.
 * Transport only: every header and the body arrive decided; this writes them and hands back
 * the response stream untouched (no decompression, no status checks).
 */
export class NativeBackend implements Backend {
  readonly name = 'native';
  readonly proxies = true;
  #httpAgent: http.Agent;
  #httpsAgent: https.Agent;
  readonly #proxyAgents: ProxyAgents;
  /** With `client.http2`: the https origins' HTTP/2 sessions. */
  readonly #http2: LazyHttp2Pool | undefined;
  readonly #sendH1 = this.#send.bind(this);
  #closed = false;

  constructor(options: TransportOptions) {
    ({ http: this.#httpAgent, https: this.#httpsAgent } = nodeAgents(options));
    this.#proxyAgents = new ProxyAgents(options.tls, options.connection);
    this.#http2 = options.http2 ? new LazyHttp2Pool(options) : undefined;
  }

  send(request: WireRequest): Promise<WireResponse> {
    if (this.#closed) return Promise.reject(clientClosed());
    // HTTP/2 where the https server picks it (a proxied request keeps HTTP/1.1 through its tunnel)
    if (this.#http2 !== undefined && request.secure && request.proxy === undefined) return this.#http2.send(request, this.#sendH1);
    return this.#send(request);
  }

  #send(request: WireRequest): Promise<WireResponse> {
    // a method bound per call, not arrows per request (docs/performance.md, "Arrows made per request")
    return new Promise(this.#start.bind(this, request));
  }

  /** Sends `request`; its promise's `resolve`/`reject` travel on the ClientRequest, for listeners shared by every request. */
  #start(request: WireRequest, resolve: (response: WireResponse) => void, reject: (error: Error) => void): void {
    const req = (request.proxy ? this.#proxied(request as ProxiedRequest) : this.#direct(request)) as Pending;
    limitRequest(req, request);
    req[SETTLE] = { resolve, reject };
    // `on`, not `once` (no wrapper per request): node emits each of these at most once per request
    req.on('error', failed);
    req.on('response', responded);
    req.on('upgrade', refuseUpgrade);
    const body = request.body;
    // in memory or none: write it now, no async step (the common case, and the cheapest); UTF-8
    // text as the text, which node encodes as it writes (its length is already counted)
    if (body === undefined) req.end();
    else if (inMemory(body)) req.end(utf8TextOf(body) ?? body.bytes);
    else streamBody(req, body).catch((error: unknown) => req.destroy(error as Error));
  }

  #direct(request: WireRequest): http.ClientRequest {
    return (request.secure ? https : http).request({
      method: request.method,
      hostname: unbracketed(request.hostname),
      port: request.port,
      path: request.target,
      headers: request.headers,
      agent: request.secure ? this.#httpsAgent : this.#httpAgent,
      signal: request.signal,
    });
  }

  #proxied(request: ProxiedRequest): http.ClientRequest {
    const where = this.#proxyAgents.options(request, request.proxy, request.target, request.headers);
    return proxiedRequest(where, { method: request.method, signal: request.signal }, request);
  }

  close(): Promise<void> {
    this.#closed = true;
    this.#httpAgent.destroy();
    this.#httpsAgent.destroy();
    this.#proxyAgents.destroy();
    this.#http2?.close();
    return Promise.resolve();
  }
}

const SETTLE = Symbol('settle');
type Pending = http.ClientRequest & { [SETTLE]: { readonly resolve: (response: WireResponse) => void; readonly reject: (error: Error) => void } };

function responded(this: Pending, res: http.IncomingMessage): void {
  this[SETTLE].resolve(nodeResponse(res));
}

function failed(this: Pending, error: Error): void {
  markIfReused.call(this, error);
  this[SETTLE].reject(error);
}

/**
 * A 101 nobody asked for: without a listener node closes the socket and says nothing, and the
 * call would wait for ever. One function for every request (no closure each): the request's
 * 'error' listener rejects with it.
 */
function refuseUpgrade(this: http.ClientRequest, _response: http.IncomingMessage, socket: Duplex): void {
  socket.destroy();
  // emitted, not destroy(error): the request is already done with its socket, and destroy would stay silent
  this.emit('error', Object.assign(new Error('the server switched protocols (101) without being asked to'), { code: 'ERR_UNEXPECTED_UPGRADE' }));
}

async function streamBody(req: http.ClientRequest, body: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const chunk of body) {
    if (!req.write(chunk)) await drained(req);
  }
  req.end();
}

function drained(req: http.ClientRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      req.off('close', onClose);
      resolve();
    };
    const onClose = () => {
      req.off('drain', onDrain);
      reject(new Error('request closed while writing the body'));
    };
    req.once('drain', onDrain);
    req.once('close', onClose);
  });
}
