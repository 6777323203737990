import { describeValue } from '../core/describe-value.js';
import { ConfigError } from '../core/errors.js';
import { hideUserInfoIn } from '../core/redact.js';
import { CONTROL, escape } from '../core/text.js';
import type { SocksVersion } from '../model/proxy-route.js';

/** A proxy's address and credentials, parsed once. */
export interface ProxyAddress {
  /** An `https://` proxy: TLS to the proxy itself. */
  readonly secure: boolean;
  /** A SOCKS5 proxy: `'socks5'` (the client resolves target names) or `'socks5h'` (the proxy does); `undefined` for an HTTP proxy. */
  readonly socks: SocksVersion | undefined;
  /** As in the URL (lower case, IDN as punycode); IPv6 literals with brackets, e.g. `[::1]`. */
  readonly hostname: string;
  /** The URL's port, else 80 for `http:`, 443 for `https:` and 1080 for SOCKS. */
  readonly port: number;
  /** Percent-decoded user name; `undefined` when the URL has no user info. */
  readonly user: string | undefined;
  /** Percent-decoded password (`''` for `user@host`); `undefined` when the URL has no user info. */
  readonly password: string | undefined;
  /** For messages: `http://host:port`, or `http://***@host:port` with user info; never the credentials. */
  readonly shown: string;
}

export type { SocksVersion } from '../model/proxy-route.js';

const SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'socks5', 'socks5h']);
/** RFC 1929: the user name and the password are 1 to 255 bytes each. */
const SOCKS_LOGIN_BYTES = 255;

/**
 * Parses a proxy URL (`client.proxy`, `HTTPS_PROXY`, `--proxy`, ...). Without `scheme://` it is
 * an `http://` proxy, as in curl (`HTTP_PROXY=proxy:3128`). `http:` and `https:` proxies, and
 * SOCKS5 ones: `socks5:` (the client resolves target names) and `socks5h:` (the proxy does), with
 * an optional RFC 1929 login. No path (a lone `/` is fine), query or fragment. Errors name
 * `source`, never the credentials.
 *
 * @example
 * const proxy = parseProxyUrl('http://ada:p%40ss@proxy.corp:3128', 'HTTPS_PROXY');
 * proxy.password; // 'p@ss'
 * proxy.shown; // 'http://***@proxy.corp:3128'
 * parseProxyUrl('socks5h://127.0.0.1', 'ALL_PROXY').port; // 1080
 */
export function parseProxyUrl(value: string | URL, source: string): ProxyAddress {
  if (typeof value !== 'string' && !(value instanceof URL)) {
    throw new ConfigError(`${source} must be a proxy URL (a string or a URL), not ${describeValue(value)}`);
  }
  const given = typeof value === 'string' ? value.trim() : value.href;
  // what messages show: user info hidden up to the last '@', whatever the URL's shape
  const shownInput = `'${escape(hideUserInfoIn(given))}'`;
  if (given === '') throw new ConfigError(`${source} is an empty proxy URL`);
  // WHATWG parsing silently drops CR, LF and tabs: refuse them instead of using something else
  if (CONTROL.test(given)) throw new ConfigError(`${source}: the proxy URL ${shownInput} contains a control character (CR, LF, NUL, ...)`);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(given)?.[1].toLowerCase();
  if (scheme !== undefined && !SCHEMES.has(scheme)) {
    throw new ConfigError(`${source}: ${escape(scheme)}: proxies are not supported; use an http://, https://, socks5:// or socks5h:// proxy (${shownInput})`);
  }
  const socks = scheme === 'socks5' || scheme === 'socks5h' ? scheme : undefined;
  let url: URL;
  try {
    // a SOCKS URL parsed as an http one: WHATWG leaves a non-special scheme's host as written (no lower case, no punycode)
    url = new URL(scheme === undefined ? `http://${given}` : socks ? `http${given.slice(socks.length)}` : given);
  } catch {
    // no cause: node's TypeError keeps the raw input, credentials included
    throw new ConfigError(`${source} is not a valid proxy URL: ${shownInput}`);
  }
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    throw new ConfigError(`${source}: a proxy URL is only scheme://[user:password@]host[:port], without path, query or fragment: ${shownInput}`);
  }
  if (url.port === '0') throw new ConfigError(`${source}: the proxy URL has port 0: ${shownInput}`);
  const secure = url.protocol === 'https:';
  const port = url.port === '' ? (socks ? 1080 : secure ? 443 : 80) : Number(url.port);
  const hasUserInfo = url.username !== '' || url.password !== '';
  const shown = `${socks ? `${socks}:` : url.protocol}//${hasUserInfo ? '***@' : ''}${url.hostname}:${port}`;
  if (!hasUserInfo) return new Address(secure, socks, url.hostname, port, undefined, undefined, shown);
  const decode = (text: string) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(text);
    } catch {
      throw new ConfigError(`${source}: the user info of the proxy URL ${shown} has an invalid percent-encoding`);
    }
    // a decoded CR/LF would end a Digest `username="..."` line early
    if (CONTROL.test(decoded)) throw new ConfigError(`${source}: the user info of the proxy URL ${shown} contains an encoded control character`);
    return decoded;
  };
  const user = decode(url.username);
  if (socks)
    return new Address(
      secure,
      socks,
      url.hostname,
      port,
      socksLogin(user, source, shown, 'user name'),
      socksLogin(decode(url.password), source, shown, 'password'),
      shown,
    );
  // RFC 7617: the first ':' ends the user-id, so Basic would send `ali:ce` as `ali` (as for request.uri)
  if (user.includes(':'))
    throw new ConfigError(`${source}: the user name of the proxy URL ${shown} cannot contain ':' (%3A decoded; Basic sends user:password)`);
  return new Address(secure, socks, url.hostname, port, user, decode(url.password), shown);
}

/** One half of an RFC 1929 login, checked: 1 to 255 bytes (a password may be empty: some servers take one). */
function socksLogin(text: string, source: string, shown: string, what: 'user name' | 'password'): string {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > SOCKS_LOGIN_BYTES)
    throw new ConfigError(`${source}: the ${what} of the proxy URL ${shown} is ${bytes} bytes long; SOCKS5 takes at most 255 (RFC 1929)`);
  if (what === 'user name' && bytes === 0)
    throw new ConfigError(`${source}: the proxy URL ${shown} has a password but no user name; a SOCKS5 login needs both (RFC 1929)`);
  return text;
}

/**
 * The credentials live in #private fields behind prototype getters: `JSON.stringify`,
 * `util.inspect`, `Object.keys`, spreading and `structuredClone` see `secure`, `socks`, `hostname`,
 * `port` and `shown` only.
 */
class Address implements ProxyAddress {
  readonly #user: string | undefined;
  readonly #password: string | undefined;

  constructor(
    readonly secure: boolean,
    readonly socks: SocksVersion | undefined,
    readonly hostname: string,
    readonly port: number,
    user: string | undefined,
    password: string | undefined,
    readonly shown: string,
  ) {
    this.#user = user;
    this.#password = password;
    Object.freeze(this);
  }

  get user(): string | undefined {
    return this.#user;
  }

  get password(): string | undefined {
    return this.#password;
  }

  /** `shown`: a template literal never prints the credentials either. */
  toString(): string {
    return this.shown;
  }

  /** Even `inspect(address, { showHidden: true, getters: true })` would call the getters: show a copy without them. */
  [Symbol.for('nodejs.util.inspect.custom')](_depth: number, options: object, inspect: (value: unknown, options: object) => string): string {
    return `ProxyAddress ${inspect({ ...this }, options)}`;
  }
}
