import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import type { AxiosInstance, AxiosRequestConfig } from 'axios';
import { ConfigError } from '../core/errors.js';
import { isStreamed, type Backend, type TlsOptions, type TransportOptions, type WireRequest, type WireResponse } from '../model/backend.js';
import { nodeAgents } from './node-agents.js';
import { limitRequest } from './node-limits.js';
import { cleanError, markIfReused, nodeResponse } from './node-response.js';
import { ProxyAgents, proxiedRequest } from './proxy-agents.js';
import { importPeer } from './optional-peer.js';

const EVERY_STATUS = () => true;
const NO_TRANSFORMS: [] = [];

/** Headers axios adds on its own, by lower-case name: sent as `null` (axios's "remove") unless the caller set them. */
const AXIOS_DEFAULTS: ReadonlyMap<string, string> = new Map(
  ['User-Agent', 'Accept', 'Accept-Encoding', 'Content-Type'].map((name) => [name.toLowerCase(), name]),
);

/**
 * The `'axios'` backend: a private axios instance with keep-alive agents (TLS settings on the
 * https one), loaded on first use. `close()` destroys those agents.
 */
export async function createAxiosBackend(options: TransportOptions): Promise<Backend> {
  const { default: axios } = await importPeer('axios', 'axios', () => import('axios'));
  const { http: httpAgent, https: httpsAgent } = nodeAgents(options);
  const instance = axios.create({ httpAgent, httpsAgent });
  // without axios's default Accept/Content-Type entries, header names go out as the pipeline wrote them
  instance.defaults.headers.common = {};
  return new AxiosBackend(instance, new ProxyAgents(options.tls, options.connection), () => {
    httpAgent.destroy();
    httpsAgent.destroy();
  });
}

/**
 * A backend around your own axios instance: its request and response interceptors run, and its
 * agents, `lookup` and `socketPath` carry the connections. Each request still switches off what
 * the pipeline does once for every backend (redirects, decompression, status checks, body
 * transforms, env proxies) and sends exactly the pipeline's headers, plus any other headers
 * your instance's defaults or interceptors add. Response interceptors see the response, and may
 * reject it by throwing, but what they return is not used: the pipeline reads the raw response.
 * `execution.tls` does not apply: TLS is your agent's. `close()` leaves your agents alone.
 *
 * @example
 * const instance = axios.create({ httpsAgent: new https.Agent({ keepAlive: true, ca }) });
 * instance.interceptors.request.use((config) => {
 *   config.headers.set('X-Request-Id', crypto.randomUUID());
 *   return config;
 * });
 * const http = HttpBuilder.configure((c) => {
 *   c.request.uri = 'https://api.example.com';
 *   c.client.backend = axiosBackend(instance);
 * });
 */
export function axiosBackend(instance: AxiosInstance): Backend {
  return new AxiosBackend(instance, new ProxyAgents(agentTlsOf(instance.defaults.httpsAgent)), () => {});
}

/** The TLS settings of your instance's https agent: the tunnels that stand in for it through `client.proxy` keep them. */
function agentTlsOf(agent: unknown): TlsOptions | undefined {
  const options = (agent as https.Agent | undefined)?.options;
  if (!options) return undefined;
  const { ca, cert, key, rejectUnauthorized, servername } = options;
  return { ca, cert, key, rejectUnauthorized, servername } as TlsOptions;
}

class AxiosBackend implements Backend {
  readonly name = 'axios';
  readonly proxies = true;

  constructor(
    private readonly instance: AxiosInstance,
    /** what carries requests through `client.proxy` (the instance's own agents do not) */
    private readonly proxyAgents: ProxyAgents,
    private readonly release: () => void,
  ) {}

  async send(request: WireRequest): Promise<WireResponse> {
    let res: http.IncomingMessage | undefined;
    let bodyError: Error | undefined;
    const body = request.body;
    // in memory: one Buffer (axios refuses a bare Uint8Array); else a stream, never buffered
    const upload = isStreamed(body) ? Readable.from(body, { objectMode: false }) : undefined;
    upload?.once('error', (error: Error) => (bodyError = error));
    // axios builds the path with WHATWG URL, which resolves dot segments and re-encodes some
    // bytes; a transport of our own puts the target back byte for byte (unless an interceptor
    // changed the URL) and hands us the raw response, whatever the interceptors return
    const transport = {
      request: (options: http.RequestOptions, callback: (res: http.IncomingMessage) => void) => {
        if (options.path !== request.target && options.path === whatwgTarget(request.url)) options.path = request.target;
        const onResponse = (response: http.IncomingMessage) => {
          // an error on a body nobody reads must not crash the process
          response.on('error', () => {});
          res = response;
          callback(response);
        };
        const route = request.proxy;
        const req = route
          ? proxiedRequest(
              this.proxyAgents.options(request, route, options.path ?? request.target, (options.headers ?? {}) as http.OutgoingHttpHeaders),
              options,
              request,
              onResponse,
            )
          : (options.protocol === 'https:' ? https : http).request(options, onResponse);
        limitRequest(req, request, true); // axios sets the socket's timeout to 0 for each request
        req.on('error', markIfReused);
        return req;
      },
    };
    const config: AxiosRequestConfig = {
      url: request.url,
      method: request.method,
      headers: toHeaders(request.headers),
      data: upload ?? (body?.bytes && toBuffer(body.bytes)),
      adapter: 'http',
      httpVersion: 1,
      transport,
      maxRedirects: 0,
      decompress: false,
      signal: request.signal,
      responseType: 'stream',
      validateStatus: EVERY_STATUS,
      transformRequest: NO_TRANSFORMS, // axios copies these arrays: sharing one is safe
      transformResponse: NO_TRANSFORMS,
      proxy: false,
      // progress or a rate limit on the download would pipe `res` into a stream nobody reads
      // (it would buffer the whole body); uploads keep theirs
      onDownloadProgress: null as unknown as undefined,
      maxRate: [uploadRate(this.instance.defaults.maxRate), 0] as [number, number],
      // -1 is axios's "no limit" that adds no counting stream in between
      maxBodyLength: -1,
      maxContentLength: -1,
    };
    try {
      await this.instance.request(config);
    } catch (error) {
      if (res) nodeResponse(res).discard(); // a response interceptor rejected it: nobody will read the body
      upload?.destroy();
      throw bodyError ?? cleanError(error);
    }
    if (res === undefined)
      throw new ConfigError("axiosBackend: the request did not go through axios's http adapter (did an interceptor change adapter, transport or httpVersion?)");
    return nodeResponse(res);
  }

  close(): Promise<void> {
    this.release();
    this.proxyAgents.destroy();
    return Promise.resolve();
  }
}

/** The pipeline's headers, and `null` for each axios default the caller did not set. */
function toHeaders(headers: Readonly<Record<string, string>>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const name of AXIOS_DEFAULTS.values()) out[name] = null;
  for (const name in headers) {
    // axios's config merge skips these two names, spelled so (it guards object prototypes)
    if (name === 'constructor' || name === 'prototype')
      throw new ConfigError(`the 'axios' backend cannot send a header named '${name}' (axios drops it): use another spelling or backend`);
    const preset = AXIOS_DEFAULTS.get(name.toLowerCase());
    if (preset !== undefined && preset !== name) delete out[preset];
    out[name] = headers[name];
  }
  return out;
}

/** The upload half of axios's `maxRate` (a number sets both halves). */
function uploadRate(rate: AxiosRequestConfig['maxRate']): number | undefined {
  return typeof rate === 'number' ? rate : rate?.[0];
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function whatwgTarget(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return undefined;
  }
}
