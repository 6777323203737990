import http from 'node:http';
import { unbracketed } from '../core/host-literals.js';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { isIP } from 'node:net';
import { CONNECT_TIMEOUT, type TlsOptions } from '../model/backend.js';
import { headerValues } from '../model/response-headers.js';
import { proxyRefused, tunnelAuthority, type ProxyEndpoint, type ProxyRoute } from '../model/proxy-route.js';
import { headerPairs } from './node-response.js';
import { nodeTls } from './node-tls.js';

/** Where a tunnel leads: the target's host (IPv6 with or without brackets) and port. */
export interface TunnelTarget {
  readonly hostname: string;
  readonly port: number;
}

/** How the proxy's answer to one `CONNECT` came back. */
interface ConnectAnswer {
  readonly statusCode: number;
  readonly message: string;
  readonly challenges: string[];
  readonly socket: Duplex;
}

/** What bounds a tunnel's setup. */
export interface TunnelLimits {
  /** Milliseconds for the whole setup, as the connect timeout bounds a direct connection. */
  readonly timeout?: number;
  /** Stops the setup (the call was aborted or timed out, or the pool was closed). */
  readonly signal?: AbortSignal;
}

/**
 * Opens a `CONNECT host:port` tunnel through `route`: the socket to run TLS to the target over.
 * The route's credentials go with the first `CONNECT` (Basic, or Digest once the proxy asked for
 * it); a `407` is answered by its challenge (a new connection for each try: many proxies close
 * after refusing a CONNECT). Any other non-2xx answer rejects with ProxyError.
 *
 * @example
 * const socket = await openTunnel(route, { hostname: 'api.example.com', port: 443 }, tls, { timeout: 10_000 });
 * const secure = tls.connect({ socket, servername: 'api.example.com' });
 */
export async function openTunnel(route: ProxyRoute, target: TunnelTarget, tls: TlsOptions | undefined, limits: TunnelLimits): Promise<Duplex> {
  const authority = tunnelAuthority({ hostname: bracketed(target.hostname), port: target.port });
  const answers = route.answers('CONNECT', authority);
  let header = answers.first;
  for (;;) {
    const answer = await connectOnce(route, authority, header, tls, limits);
    if (answer.statusCode >= 200 && answer.statusCode < 300) return answer.socket;
    answer.socket.destroy();
    const retry = answer.statusCode === 407 ? answers.retry(answer.challenges) : undefined;
    if (retry === undefined) throw proxyRefused(route, `a tunnel to ${authority}`, answer, answers.refusedCredentials);
    header = retry;
  }
}

function connectOnce(
  proxy: ProxyEndpoint,
  authority: string,
  authorization: string | undefined,
  tls: TlsOptions | undefined,
  limits: TunnelLimits,
): Promise<ConnectAnswer> {
  return new Promise((resolve, reject) => {
    const { timeout, signal } = limits;
    if (signal?.aborted) return reject(signal.reason as Error);
    const headers: Record<string, string> = { Host: authority };
    if (authorization !== undefined) headers['Proxy-Authorization'] = authorization;
    const options: https.RequestOptions = {
      method: 'CONNECT',
      hostname: unbracketed(proxy.hostname),
      port: proxy.port,
      path: authority,
      headers,
      agent: false,
    };
    const req = proxy.secure ? https.request({ ...options, ...proxyTls(tls, proxy) }) : http.request(options);
    const stop = (error: Error) => req.destroy(error);
    const onAbort = () => stop(signal!.reason as Error);
    const timer =
      timeout === undefined
        ? undefined
        : setTimeout(
            () =>
              stop(Object.assign(new Error(`the tunnel through the proxy ${proxy.shown} was not established within ${timeout} ms`), { code: CONNECT_TIMEOUT })),
            timeout,
          );
    signal?.addEventListener('abort', onAbort, { once: true });
    const settled = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    // node emits 'connect' for every answer to a CONNECT, a refusal with a body included
    req.once('connect', (res: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      settled();
      // bytes the proxy sent after its answer belong to what comes next (the target's TLS)
      if (head.length > 0) socket.unshift(head);
      resolve({
        statusCode: res.statusCode ?? 0,
        message: res.statusMessage ?? '',
        challenges: headerValues(headerPairs(res.rawHeaders), 'proxy-authenticate'),
        socket,
      });
    });
    req.once('error', (error) => {
      settled();
      reject(error);
    });
    req.end();
  });
}

/** TLS to an `https://` proxy: checked against `execution.tls`'s CAs (or the system's) and the proxy's own name. */
export function proxyTls(tls: TlsOptions | undefined, proxy: ProxyEndpoint): Pick<https.AgentOptions, 'ca' | 'rejectUnauthorized' | 'servername'> {
  const host = unbracketed(proxy.hostname);
  return { ca: nodeTls(tls).ca, rejectUnauthorized: tls?.rejectUnauthorized, servername: isIP(host) ? undefined : host };
}

// node wants IPv6 literals without brackets; a request line and `Host` with them
export { unbracketed };

function bracketed(hostname: string): string {
  return hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
}
