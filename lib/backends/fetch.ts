import { ConfigError } from '../core/errors.js';
import { readableStreamOf } from '../model/body-stream.js';
import {
  inMemory,
  readWhole,
  BODY_METHODS,
  isStreamed,
  utf8TextOf,
  type Backend,
  type TransportOptions,
  type WireBody,
  type WireRequest,
  type WireResponse,
} from '../model/backend.js';
import type { ProxyRoute } from '../model/proxy-route.js';
import { challengeResponse, ProxyChallenge } from './proxy-challenge.js';
import { rejectTransportError, transportError, wireResponse } from './fetch-response.js';
import { timedFetch } from './fetch-timeouts.js';
import { originKey } from '../model/origin-key.js';
import { globalFetchTransport, type Dispatcher, type FetchTransport, type UndiciTransportLoader } from './fetch-transport.js';
import '../config/shared-chunk.js'; // loads with the client's modules in one chunk

// No `node:` import here, and no undici: this backend runs in browsers and Workers too. The
// node entry passes in the transport on undici 7 (undici-fetch.ts); without one it runs on the
// global fetch.

/**
 * The `fetch` backend: undici 7's `fetch` with an undici `Agent` for the client's own pool and
 * its TLS settings, when `loadUndici` (the node entry's) finds undici 7. Elsewhere (browsers,
 * Workers, Bun, node without undici) the global `fetch` on the runtime's own pool, with the
 * headers and read timeouts kept here, as long as no TLS or connection settings are asked for.
 * (Node 20's global fetch is undici 6: with an undici 7 Agent it strands connections it
 * refuses, which then outlive `close()`.)
 *
 * fetch cannot be made transport-only: it decodes gzip/deflate/br itself (the pipeline then
 * skips decompression), adds `accept-language` and `sec-fetch-mode`, refuses a body on GET
 * and HEAD, and normalises `.`/`..` path segments. `docs/backends.md` lists each difference.
 *
 * @example
 * const backend = await createFetchBackend({ tls: undefined, connection: undefined }); // the global fetch
 */
export async function createFetchBackend(options: TransportOptions, loadUndici?: UndiciTransportLoader): Promise<Backend> {
  const transport = loadUndici
    ? await loadUndici(options)
    : globalFetchTransport(
        options,
        'here',
        'the fetch backend cannot go through client.proxy on the global fetch (the runtime applies its own proxy settings): set client.proxy = false',
      );
  let closed: Promise<void> | undefined;
  return {
    name: 'fetch',
    proxies: true,
    send: (request) => send(request, transport),
    // destroy, not close: undici's graceful close waits for requests it stranded itself (a
    // response it refused); derived clients share the pool, so this may come more than once
    close: () => (closed ??= transport.destroy()),
  };
}

function send(request: WireRequest, transport: FetchTransport): Promise<WireResponse> {
  // a browser streams an upload only over HTTP/2 or QUIC (Chromium refuses it on HTTP/1.1; others never do)
  if (transport.runtime === 'a browser' && isStreamed(request.body)) return readWhole(request.body).then((body) => send({ ...request, body }, transport));
  // over HTTP/2 a streamed body known to be empty (an empty Blob, a stream with `Content-Length: 0`)
  // is read to its end (held to its length) and goes as no body, as an empty one in memory does
  if (transport.versions !== undefined && isStreamed(request.body) && request.body.length === 0)
    return readWhole(request.body).then((body) => send({ ...request, body }, transport));
  // not async, and no await inside: each async layer is one more promise and microtask trip per
  // request, and fetch's own cost is what this backend is measured against
  let init: RequestInit;
  try {
    init = fetchInit(request, transport);
  } catch (error) {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- what fetch would refuse (ConfigError), as it is
    return Promise.reject(error);
  }
  if (request.proxy) return sendProxied(request, request.proxy, init, transport);
  // called unbound, as a plain function: browsers' fetch refuses any other `this`
  const fetch = transport.fetch;
  try {
    if (transport.ownTimeouts) return timedFetch(fetch, request, init);
    const versions = transport.versions;
    if (versions === undefined) return fetch(request.url, init).then(wireResponse, rejectTransportError);
    const origin = originKey(request.secure, request.hostname, request.port);
    return fetch(request.url, init).then((response) => wireResponse(response, versions.byOrigin.get(origin) ?? '1.1'), rejectTransportError);
  } catch (error) {
    return Promise.reject(transportError(error));
  }
}

/** A request through a proxy: on the proxy's dispatcher, its `407` handed on as a response (fetch would make it an error). */
async function sendProxied(request: WireRequest, route: ProxyRoute, init: RequestInit, transport: FetchTransport): Promise<WireResponse> {
  if (!transport.proxies) throw new ConfigError(transport.noProxy ?? 'the fetch backend cannot go through a proxy here: set client.proxy = false');
  const proxies = await transport.proxies();
  (init as { dispatcher?: Dispatcher }).dispatcher = proxies.dispatcher(route, request);
  const fetch = transport.fetch;
  try {
    return wireResponse(await fetch(request.url, init));
  } catch (error) {
    const challenge = (error as { cause?: unknown }).cause;
    if (challenge instanceof ProxyChallenge) return challengeResponse(challenge);
    throw transportError(error);
  }
}

/** What fetch is given for `request`; throws ConfigError for what fetch would refuse or rewrite. */
function fetchInit(request: WireRequest, transport: FetchTransport): RequestInit {
  if (request.body !== undefined && (request.method === 'GET' || request.method === 'HEAD')) {
    throw new ConfigError(`the fetch backend cannot send a body with ${request.method} (fetch refuses it): use another backend or method`);
  }
  // fetch re-parses the URL (WHATWG): a target it would rewrite (`..` segments, characters it
  // escapes) would not be the one the pipeline checked and signed
  if (!PLAIN_TARGET.test(request.target)) {
    const parsed = new URL(request.url);
    if (parsed.pathname + parsed.search !== request.target) {
      // the paths only: a query may carry a token
      throw new ConfigError(
        `the request path '${request.target.split('?', 1)[0]}' (uri.path or request.raw) would be sent as '${parsed.pathname}' by fetch, which resolves '.' and '..' segments: use that form, or another backend`,
      );
    }
  }
  const streamed = isStreamed(request.body);
  // only the options that apply: undici does work for each one given, even an undefined one
  const init: Omit<RequestInit, 'dispatcher'> & { dispatcher?: Dispatcher; duplex?: 'half' } = {
    method: request.method,
    headers: fetchHeaders(request, streamed, transport),
    // 'manual' makes undici keep a copy of a streamed body for a redirect it never follows
    // (nodejs/undici#4058: a 1 GiB upload held whole); 'error' skips that copy, at the price
    // of a 3xx to a streamed upload arriving as an error (RedirectError) rather than a response
    // A browser's 'manual' gives an opaque response (no status, no Location): it follows them itself.
    // workerd takes no 'error'.
    redirect: transport.runtime === 'a browser' ? 'follow' : streamed && transport.runtime !== 'Cloudflare Workers' ? 'error' : 'manual',
  };
  // undici's fetch never ends an HTTP/2 stream whose body it knows to be empty (the call hangs):
  // such a body goes as none (fetch still sends a POST's or PUT's `Content-Length: 0`); a streamed
  // one of length 0 was read into memory first (send)
  const noBody = request.body === undefined || (transport.versions !== undefined && inMemory(request.body) && request.body.length === 0);
  if (!noBody) init.body = fetchBody(request.body);
  if (streamed) init.duplex = 'half';
  if (request.signal !== undefined) init.signal = request.signal;
  // undici's own option (an undici 7 Agent works with Node's fetch)
  const dispatcher = transport.dispatcher(request);
  if (dispatcher !== undefined) init.dispatcher = dispatcher;
  return init as RequestInit;
}

/**
 * @internal A target that WHATWG URL parsing leaves exactly as it is: segments of unreserved and
 * sub-delimiter characters (no `.`/`..` segment, no `%` that could spell one), an optional
 * query of the same (no `'`, which a special URL's query escapes). Anything else is checked by
 * parsing, which costs about a microsecond per request.
 */
export const PLAIN_TARGET = /^(?:\/(?!\.{1,2}(?:[/?]|$))[\w\-.~!$&()*+,;=:@]*)+(?:\?[\w\-.~!$&()*+,;=:@/?]+)?$/;

/**
 * The pipeline's headers, less the framing fetch does itself (it refuses a Transfer-Encoding
 * header, and frames bytes and bodiless requests itself; a stream's declared length must go
 * along). Copied only when something has to go. A frozen object that passes as it is (a
 * client's shared headers) goes as a `Headers` of this fetch, made once: fetch takes a
 * Headers' pairs as they are, where it converts a plain object name by name and character by
 * character (WebIDL), about half a microsecond per request.
 */
function fetchHeaders(request: WireRequest, streamed: boolean, transport: FetchTransport): Readonly<Record<string, string>> | Headers {
  const headers = request.headers;
  // only frozen objects, checked when they were made, are ever prepared: any other misses at once
  const ready = streamed ? undefined : transport.prepared.get(headers);
  if (ready !== undefined) return ready;
  // a body, and a POST/PUT/PATCH without one (Content-Length: 0), come framed: copied in the pass that checks them
  if (request.body !== undefined || BODY_METHODS.has(request.method)) return withoutFraming(headers, streamed);
  for (const name in headers) {
    checkSendable(name, headers[name]);
    if (framedByFetch(name, streamed)) return withoutFraming(headers, streamed);
  }
  return streamed || !Object.isFrozen(headers) ? headers : prepare(headers, transport);
}

/** A checked copy of `headers` without what fetch frames itself: a fresh object rather than a copy with `delete`, which would turn it into a slow dictionary. */
function withoutFraming(headers: Readonly<Record<string, string>>, streamed: boolean): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name in headers) {
    checkSendable(name, headers[name]); // throws, or the header goes along (Connection: keep-alive)
    if (!framedByFetch(name, streamed)) kept[name] = headers[name];
  }
  return kept;
}

function prepare(headers: Readonly<Record<string, string>>, transport: FetchTransport): Headers {
  const made = new transport.Headers(headers);
  transport.prepared.set(headers, made);
  return made;
}

const FRAMING_LENGTHS = new Set(['content-length'.length, 'transfer-encoding'.length]);

function framedByFetch(name: string, streamed: boolean): boolean {
  if (!FRAMING_LENGTHS.has(name.length)) return false;
  const lower = name.toLowerCase();
  return lower === 'transfer-encoding' || (lower === 'content-length' && !streamed);
}

/**
 * Headers fetch refuses or replaces: it sets `Host` from the URL, and undici rejects
 * `Expect`, `Keep-Alive`, `Upgrade` and a `Connection` other than `close` or `keep-alive`.
 */
const REFUSED: ReadonlyMap<string, string> = new Map([
  ['host', 'fetch sets Host from the URL and drops yours'],
  ['expect', 'undici does not support Expect'],
  ['keep-alive', 'undici manages Keep-Alive itself'],
  ['upgrade', 'fetch cannot upgrade a connection'],
  ['connection', "undici takes only 'close' or 'keep-alive'"],
]);
/** A name's length and lower-cased first letter, as one number: `User-Agent` and `Accept` share no shape with a refused name, so they are not lower-cased. */
function shapeOf(name: string): number {
  return name.length * 256 + (name.charCodeAt(0) | 0x20);
}
const REFUSED_SHAPES = new Set([...REFUSED.keys()].map(shapeOf));

/** Throws ConfigError for a header fetch would refuse or replace. */
function checkSendable(name: string, value: string): void {
  // by shape first: most names are none of these, and lower-casing each one costs on every request
  if (!REFUSED_SHAPES.has(shapeOf(name))) return;
  const lower = name.toLowerCase();
  const why = REFUSED.get(lower);
  if (why === undefined) return;
  if (lower === 'connection' && /^\s*(?:close|keep-alive)\s*$/i.test(value)) return;
  throw new ConfigError(`the fetch backend cannot send header '${name}' (${why}): leave it out, or use another backend`);
}

function fetchBody(body: WireBody): RequestInit['body'] {
  // text when there is one: fetch copies bytes into a buffer of its own, a string it encodes as it sends
  // (the request always has a Content-Type here, so fetch adds no text/plain one of its own)
  const text = utf8TextOf(body);
  if (text !== undefined) return text;
  if (body.bytes !== undefined) return body.bytes as Uint8Array<ArrayBuffer>;
  // Chromium has no ReadableStream.from
  return (typeof ReadableStream.from === 'function' ? ReadableStream.from(body) : readableStreamOf(body)) as ReadableStream<Uint8Array<ArrayBuffer>>;
}
