import http from 'node:http';
import type { ExtendOptions, Got, Method, Request } from 'got' with { 'resolution-mode': 'import' };
import { ConfigError } from '../core/errors.js';
import type { Backend, TlsOptions, TransportOptions, WireBody, WireRequest, WireResponse } from '../model/backend.js';
import { exactWire, STATE, type State } from './got-wire.js';
import { cleanError, nodeResponse } from './node-response.js';
import { nodeTls } from './node-tls.js';
import { pinsOf } from './tls-pins.js';
import { ProxyAgents } from './proxy-agents.js';
import { nodeAgents } from './node-agents.js';
import { importPeer } from './optional-peer.js';
import { gotConnectOptions, gotHttp2Agent } from './got-h2.js';

/** Applied over every instance: got only moves bytes, the pipeline does the rest once. */
const TRANSPORT_ONLY: ExtendOptions = {
  followRedirect: false,
  decompress: false,
  throwHttpErrors: false,
  retry: { limit: 0 },
  allowGetBody: true,
  strictContentLength: false,
  // clears the instance's; the pipeline's timeouts apply
  timeout: {
    lookup: undefined,
    connect: undefined,
    secureConnect: undefined,
    socket: undefined,
    send: undefined,
    response: undefined,
    read: undefined,
    request: undefined,
  },
  headers: { 'user-agent': undefined }, // got's own default; `undefined` removes it
  hooks: { beforeRequest: [exactWire] }, // appended: runs after the user's hooks
};

/**
 * The `'got'` backend: its own got instance over a keep-alive agent pair, and its own HTTP/2
 * agent with `http2` (`close()` destroys them). Loads got on first use.
 */
export async function createGotBackend(options: TransportOptions): Promise<Backend> {
  const { default: got } = await importPeer('got', 'got', () => import('got'));
  // TLS stays got's own option (below): got hands it to each request, for the agent to use
  // (the pins are checked on the agent's connections: got has no option for them)
  const pins = pinsOf(options.tls);
  const agent = nodeAgents({ tls: pins && { pins: [...pins] }, connection: options.connection });
  // http2: got's own HTTP/2 (http2-wrapper, ALPN h2 then http/1.1), on an agent of this backend's
  const http2 = options.http2 === true ? await gotHttp2Agent(pins) : undefined;
  const instance = http2
    ? got.extend({ agent: { ...agent, http2 }, https: gotTls(options.tls), http2: true }, gotConnectOptions(options.connection))
    : got.extend({ agent, https: gotTls(options.tls) });
  const backend = gotTransport(instance, new ProxyAgents(options.tls, options.connection));
  return {
    ...backend,
    close: () => {
      agent.http.destroy();
      agent.https.destroy();
      http2?.close();
      return backend.close();
    },
  };
}

/**
 * A backend around your own got instance: its agents, `init`, `beforeRequest` and `beforeError`
 * hooks keep working. Each request is still transport only (no redirects, decompression,
 * retries, status errors or got timeouts) and is sent with the pipeline's headers and target.
 * Got's stream mode runs neither `afterResponse` nor `beforeRetry` hooks. TLS is the
 * instance's (`https` option or agent), not `execution.tls`; `close()` leaves its agents alone.
 *
 * @example
 * import got from 'got';
 * import { HttpBuilder } from 'httpbuilder-ts';
 * import { gotBackend } from 'httpbuilder-ts/got';
 * const instance = got.extend({ hooks: { beforeRequest: [(o) => void (o.headers['x-trace'] = newId())] } });
 * const http = HttpBuilder.configure((c) => {
 *   c.request.uri = 'https://api.example.com';
 *   c.client.backend = gotBackend(instance);
 * });
 */
export function gotBackend(instance: Got): Backend {
  return gotTransport(instance, new ProxyAgents(undefined));
}

function gotTransport(instance: Got, proxies: ProxyAgents): Backend {
  const transport = instance.extend(TRANSPORT_ONLY);
  return {
    name: 'got',
    proxies: true,
    send: (request) => send(transport, request, proxies),
    close: () => {
      proxies.destroy();
      return Promise.resolve();
    },
  };
}

function send(got: Got, request: WireRequest, proxies: ProxyAgents): Promise<WireResponse> {
  return new Promise((resolve, reject) => {
    const state: State = { request, proxies };
    const body = request.body;
    // got refuses it outright (`allowGetBody` covers GET only): say so before sending anything
    if (request.method === 'HEAD' && body !== undefined) {
      reject(new ConfigError("the 'got' backend cannot send a body with HEAD: remove request.body or use another backend"));
      return;
    }
    let stream: Request;
    try {
      stream = got.stream(request.url, {
        method: request.method as Method,
        headers: request.headers,
        body: body === undefined ? undefined : (body.bytes ?? watched(body, state)),
        context: { [STATE]: state },
        signal: request.signal,
      });
    } catch (error) {
      reject(cleanError(error));
      return;
    }
    // stays for the stream's life: a body nobody reads may still fail, and must not crash the process
    stream.on('error', (error) => reject(state.uploadError ?? cleanError(error)));
    stream.once('response', (res: http.IncomingMessage) => resolve(nodeResponse(res, { body: stream, reason: state.reason, cleanErrors: true })));
    // got ends a HEAD itself; anything else without body waits for the stream's end
    if (body === undefined && request.method !== 'HEAD') stream.end();
  });
}

async function* watched(body: WireBody, state: State): AsyncGenerator<Uint8Array> {
  try {
    yield* body;
  } catch (error) {
    state.uploadError = error as Error;
    throw error;
  }
}

/** `execution.tls` in got's terms; node wants Buffers where the contract allows any Uint8Array. */
function gotTls(tls: TlsOptions | undefined): ExtendOptions['https'] {
  const { ca, cert, key, servername, ...same } = nodeTls(tls);
  return { ...same, certificateAuthority: ca, certificate: cert, key, serverName: servername } as ExtendOptions['https'];
}
