import type http from 'node:http';
import type { NormalizedOptions } from 'got';
import type { WireRequest } from '../model/backend.js';
import { ConfigError } from '../core/errors.js';
import { asHttp2, type GotHttp2Agent } from './got-h2.js';
import { CONNECTION_SPECIFIC } from './native-h2.js';
import { limitRequest } from './node-limits.js';
import { markIfReused } from './node-response.js';
import { proxiedRequest, type ProxyAgents } from './proxy-agents.js';

/** Where a request's wire record travels through got's options to the hook (`options.context`). */
export const STATE = 'httpbuilder-ts';

/** Per request, shared by the got backend and its hook. */
export interface State {
  readonly request: WireRequest;
  /** what carries requests through `client.proxy` */
  readonly proxies: ProxyAgents;
  /** the reason phrase as sent: got fills an empty one in from `http.STATUS_CODES` */
  reason?: string;
  /** the upload source's own error (e.g. an `EncodeError`), not got's wrapper of it */
  uploadError?: Error;
}

/**
 * beforeRequest hook: got lower-cases header names and sends the WHATWG-normalised path; put
 * back the caller's names and the target byte for byte, unless a user hook changed the URL.
 */
export function exactWire(options: NormalizedOptions): void {
  const state = options.context[STATE] as State | undefined;
  const base = options.getRequestFunction();
  // a cache calls the request function with other arguments: leave it as got made it
  if (state === undefined || base === undefined || options.url === undefined || options.cache) {
    if (state?.request.proxy)
      throw new ConfigError(
        "the 'got' backend cannot send this request through client.proxy (a got cache or custom request function is in the way): set client.proxy = false",
      );
    return;
  }
  options.request = sendExact.bind(undefined, options, state, base, targetAfterHooks(options.url, state.request.target));
}

/**
 * got's request function for one request (bound per request: docs/performance.md, "Arrows made
 * per request"): node's request with the caller's header names and the exact target.
 */
function sendExact(
  options: NormalizedOptions,
  state: State,
  base: NonNullable<ReturnType<NormalizedOptions['getRequestFunction']>>,
  path: string,
  url: URL,
  native: http.RequestOptions,
  callback?: Parameters<GotRequestFunction>[2],
): ReturnType<GotRequestFunction> {
  const { headers, proxy } = state.request;
  const onResponse = responded.bind(undefined, state, callback);
  const cased = casedAs(headers, (native.headers ?? {}) as http.OutgoingHttpHeaders);
  // got's HTTP/2 refuses connection-specific headers (it frames a body of unknown length itself)
  const final = { ...native, path, headers: options.http2 ? withoutConnectionHeaders(cased) : cased, ...(options.http2 && probeOf(native)) };
  const req = proxy
    ? proxiedRequest(state.proxies.options(state.request, proxy, path, final.headers), final, state.request, onResponse)
    : base(url, final, onResponse);
  // a ClientRequest unless a user's own request function (a cache, a mock) returns something else
  if (typeof (req as Partial<http.ClientRequest>).once === 'function') {
    limitRequest(req as http.ClientRequest, state.request);
    (req as http.ClientRequest).on('error', markIfReused);
  }
  return options.http2 ? asHttp2(req, url.host, state.request.body !== undefined, state.request.timings) : req;
}

function responded(state: State, callback: Parameters<GotRequestFunction>[2], response: unknown): void {
  state.reason = (response as { statusMessage?: string }).statusMessage; // before got fills it in
  callback?.(response as never);
}

type GotRequestFunction = NonNullable<NormalizedOptions['request']>;

/** The ALPN probe of the backend's HTTP/2 agent, for http2-wrapper's `auto` (whose own does not time its connection). */
function probeOf(native: { agent?: unknown }): { resolveProtocol?: GotHttp2Agent['resolveProtocol'] } {
  const agent = (native.agent as { http2?: Partial<GotHttp2Agent> } | undefined)?.http2;
  return agent?.resolveProtocol ? { resolveProtocol: agent.resolveProtocol } : {};
}

function withoutConnectionHeaders(headers: http.OutgoingHttpHeaders): http.OutgoingHttpHeaders {
  const kept: http.OutgoingHttpHeaders = {};
  for (const name in headers) if (!CONNECTION_SPECIFIC.has(name.toLowerCase())) kept[name] = headers[name];
  return kept;
}

function targetAfterHooks(url: URL, target: string): string {
  const sent = url.pathname + url.search;
  if (sent === target) return target;
  const parsed = new URL(target, url); // only normalisation tells them apart: then ours is the one meant
  return parsed.pathname + parsed.search === sent ? target : sent;
}

/**
 * Final headers (hooks applied) in the caller's order and spelling; hook-added ones after. When
 * they are the caller's, unchanged (the usual case), the caller's object itself: no copy.
 */
function casedAs(names: Readonly<Record<string, string>>, final: http.OutgoingHttpHeaders): http.OutgoingHttpHeaders {
  if (same(names, final)) return names;
  const rest = { ...final };
  const out: http.OutgoingHttpHeaders = {};
  for (const name in names) {
    const lower = name.toLowerCase();
    if (lower in rest) {
      out[name] = rest[lower];
      delete rest[lower];
    }
  }
  return Object.assign(out, rest);
}

/** Whether got's lower-cased `final` holds exactly the caller's headers, values unchanged. */
function same(names: Readonly<Record<string, string>>, final: http.OutgoingHttpHeaders): boolean {
  let count = 0;
  for (const name in names) {
    if (final[name.toLowerCase()] !== names[name]) return false;
    count++;
  }
  for (const name in final) if (final[name] !== undefined && --count < 0) return false;
  return count === 0;
}
