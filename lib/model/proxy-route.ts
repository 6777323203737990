/**
 * What a backend needs to know of the proxy that carries a request (`WireRequest.proxy`). The
 * client's proxy settings decide it per hop; backends only follow it:
 *
 * - an http target goes to the proxy in absolute form (`GET http://host:port/path`), with the
 *   target's `Host` header (the pipeline has already added any `Proxy-Authorization`);
 * - an https target goes through a `CONNECT host:port` tunnel opened on the proxy, then TLS to
 *   the target, checked against the target's name. Tunnels are pooled per target origin.
 *
 * This file imports no `node:` module, as the rest of the backend contract.
 */
import { ProxyError } from '../core/errors.js';

/** A proxy's address, without its credentials. */
export interface ProxyEndpoint {
  /** `true` for an `https://` proxy: TLS to the proxy itself (then `CONNECT` inside that TLS). */
  readonly secure: boolean;
  /** Host name as in the proxy URL (IPv6 literals keep their brackets). */
  readonly hostname: string;
  readonly port: number;
  /** How errors and logs name the proxy: `http://host:port`, or `http://***@host:port` when it has credentials. */
  readonly shown: string;
  /** Whether the proxy URL carries credentials (to answer a `407`, or a SOCKS5 proxy's login). */
  readonly hasCredentials: boolean;
  /**
   * A SOCKS5 proxy (`socks5://`, `socks5h://`): every target, http or https, goes through a
   * SOCKS `CONNECT` tunnel (then TLS for https); with `'socks5'` the client resolves the
   * target's name and sends the address, with `'socks5h'` it sends the name. Absent (or
   * `undefined`) for an HTTP proxy.
   */
  readonly socks?: SocksVersion;
}

/**
 * The SOCKS proxies `client.proxy` takes: SOCKS5 with names resolved by the client, or by the
 * proxy (`h`, as curl).
 *
 * @example
 * const version: SocksVersion = 'socks5h'; // as in `socks5h://127.0.0.1:1080`
 */
export type SocksVersion = 'socks5' | 'socks5h';

/**
 * A SOCKS5 proxy's username/password login (RFC 1929), from its URL.
 *
 * @example
 * const login: SocksLogin | undefined = route.socksLogin?.(); // { user: 'me', password: '…' } for socks5h://me:…@host
 */
export interface SocksLogin {
  readonly user: string;
  readonly password: string;
}

/** The `Proxy-Authorization` answers of one request to a proxy (a `CONNECT`, or one absolute-form request). */
export interface ProxyAnswers {
  /**
   * The header to send first: Basic with the proxy URL's credentials, or Digest once the proxy
   * has asked for it; `undefined` when the proxy URL has no credentials.
   */
  readonly first: string | undefined;
  /**
   * After a `407`: the header to try once more with, given the answer's `Proxy-Authenticate`
   * values; `undefined` when the 407 stands (no credentials, none that fit, or already tried).
   */
  retry(challenges: readonly string[]): string | undefined;
  /** Once a 407 stands: whether it refused credentials that were tried for a scheme it asked for (else it asked for none we can answer). */
  readonly refusedCredentials: boolean;
}

/** A proxy a request goes through: where it is, and its credentials' answers (kept private). */
export interface ProxyRoute extends ProxyEndpoint {
  /** Starts the answers for `method` on `uri` (`host:port` for `CONNECT`, the absolute URL otherwise). */
  answers(method: string, uri: string): ProxyAnswers;
  /** A SOCKS5 proxy's login (RFC 1929), when its URL has credentials. */
  socksLogin?(): SocksLogin | undefined;
}

/** What {@link targetAuthority} and {@link absoluteForm} need of a request. */
interface Target {
  readonly secure: boolean;
  readonly hostname: string;
  readonly port: number;
  readonly target: string;
}

/** `host[:port]` of a request's target as `Host` carries it: the port left out when it is the scheme's default (as node writes it). */
export function targetAuthority(wire: Target): string {
  return wire.port === (wire.secure ? 443 : 80) ? wire.hostname : `${wire.hostname}:${wire.port}`;
}

/** The request target in absolute form, as a proxy is sent an http request: `http://host:port/path?query`. */
export function absoluteForm(wire: Target, target = wire.target): string {
  return `${wire.secure ? 'https' : 'http'}://${targetAuthority(wire)}${target}`;
}

/** What a `CONNECT` names (and a Digest answer to it signs as `uri`): `host:port`, the port always written. */
export function tunnelAuthority(wire: Omit<Target, 'target' | 'secure'>): string {
  return `${wire.hostname}:${wire.port}`;
}

/**
 * The error for a proxy's refusal: a non-2xx answer to `CONNECT`, or a `407` that stands
 * (`answered`: credentials were sent for a scheme the proxy asked for, and refused).
 */
export function proxyRefused(route: ProxyEndpoint, what: string, status: { statusCode: number; message: string }, answered: boolean): ProxyError {
  const answer = `${status.statusCode}${status.message ? ` ${status.message}` : ''}`;
  if (status.statusCode !== 407) return new ProxyError(`the proxy ${route.shown} refused ${what}: ${answer}`, status.statusCode);
  const why = answered ? 'it refused the credentials' : route.hasCredentials ? 'none of its challenges can be answered' : 'the proxy URL has no credentials';
  return new ProxyError(`the proxy ${route.shown} asked for authentication for ${what}: ${answer} (${why})`, status.statusCode);
}
