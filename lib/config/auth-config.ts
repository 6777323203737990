import { ConfigError } from '../core/errors.js';
import { describeValue } from '../core/describe-value.js';
import { isRecord } from '../core/scalar.js';

/** Credentials for one client or request, and how to use them: a user and password, or a bearer token. */
export type Credentials = UserCredentials | BearerCredentials;

/** A user and password for Basic or Digest. */
export interface UserCredentials {
  /** `basic` or `digest`: answer only that scheme (URL credentials are Basic). */
  readonly scheme: 'basic' | 'digest';
  readonly user: string;
  readonly password: string;
  /** Basic: send with the first request, before any challenge. */
  readonly preemptive: boolean;
}

/** A bearer token, sent with every request (`auth.bearer()`). */
export interface BearerCredentials {
  readonly scheme: 'bearer';
  readonly token: BearerToken;
  readonly refresh: BearerRefresh | undefined;
}

/**
 * What `auth.bearer()`'s `refresh` is: given the token that got a 401, it gives a new one (sync
 * or async). One function can serve every user of a client: the expired token says whose it is.
 *
 * @example
 * // e.g. your token endpoint's refresh_token grant for the session `expired` belongs to
 * const refresh: BearerRefresh = (expired) => sessions.renew(expired);
 * await http.get((c) => c.request.auth.bearer(user.token, { refresh }));
 */
export type BearerRefresh = (expired: string) => string | Promise<string>;

/** What `auth.bearer()` takes: the token, or a function (sync or async) that gives it, called per request. */
export type BearerToken = string | (() => string | Promise<string>);

/** Options of `auth.bearer()`. */
export interface BearerOptions {
  /**
   * Gives a new token (sync or async) for the token that got a 401 (its argument): the request
   * is sent once more with it, and later requests of the client configured with that same
   * token (and a `refresh`, whichever function it is) send the new one instead. It replaces only
   * the token it refreshed: requests with other tokens (other users) keep theirs. Requests that
   * get a 401 to the same token while its refresh runs wait for that one.
   */
  readonly refresh?: BearerRefresh;
}

/** Options of `auth.basic()` and `auth.digest()`. */
export interface AuthOptions {
  /**
   * Basic: send the credentials with the first request instead of waiting for a challenge.
   * Digest needs a challenge's nonce first; later requests into a protection space that
   * challenged before are always answered up front.
   */
  readonly preemptive?: boolean;
}

/**
 * Credentials: `c.request.auth` in a client or request block.
 *
 * @example
 * HttpBuilder.configure((c) => {
 *   c.request.uri = 'https://api.example.com';
 *   c.request.auth.digest('alice', 'wonderland');
 * });
 * await http.get((c) => { c.request.auth.basic('bob', 's3cret', { preemptive: true }); });
 */
export class AuthConfig {
  /** @internal what this level set */
  credentials: Credentials | undefined;

  /** Answer `WWW-Authenticate: Basic` challenges (RFC 7617), or send up front with `preemptive`. */
  basic(user: string, password: string, options?: AuthOptions): void {
    checkCredentials('basic', user, password);
    checkBasicUser(user, 'auth.basic(): the user name');
    this.credentials = { scheme: 'basic', user, password, preemptive: preemptiveOf(options, 'auth.basic()') };
  }

  /** Answer `WWW-Authenticate: Digest` challenges (RFC 7616: MD5, SHA-256, SHA-512-256 and their -sess forms). */
  digest(user: string, password: string, options?: AuthOptions): void {
    checkCredentials('digest', user, password);
    this.credentials = { scheme: 'digest', user, password, preemptive: preemptiveOf(options, 'auth.digest()') };
  }

  /**
   * Send `Authorization: Bearer <token>` with every request (to this origin: a redirect to
   * another drops it). `token` is a string, or a function (sync or async) called per request.
   * With `refresh`, a 401 gets one more try with a new token; requests of the client that get a
   * 401 to the same token while its refresh runs share it. A refreshed token replaces only the
   * token it refreshed. Never loops: a second 401 goes to the handlers.
   *
   * @example
   * c.request.auth.bearer(() => tokens.current(), { refresh: () => tokens.renew() });
   * // one refresh function for every user: it is told which token expired
   * await http.get((c) => c.request.auth.bearer(user.token, { refresh: (expired) => sessions.renew(expired) }));
   */
  bearer(token: BearerToken, options?: BearerOptions): void {
    if (typeof token === 'string') checkToken(token, 'auth.bearer(): the token');
    else if (typeof token !== 'function')
      throw new ConfigError(`auth.bearer(): the token must be a string or a function that gives one, not ${describeValue(token)}`);
    if (options !== undefined && !isRecord(options))
      throw new ConfigError(`auth.bearer(): the options must be an object ({ refresh }), not ${describeValue(options)}`);
    const refresh: unknown = options?.refresh;
    if (refresh !== undefined && typeof refresh !== 'function')
      throw new ConfigError(`auth.bearer(): refresh must be a function that gives a new token, not ${describeValue(refresh)}`);
    const unknown = Object.keys(options ?? {}).filter((key) => key !== 'refresh');
    if (unknown.length > 0) throw new ConfigError(`auth.bearer(): unknown option ${unknown.map((key) => `'${key}'`).join(', ')} (known: refresh)`);
    this.credentials = { scheme: 'bearer', token, refresh: refresh as BearerCredentials['refresh'] };
  }
}

/**
 * A token as it can go in `Authorization: Bearer` (RFC 6750 b64token, and any other visible
 * ASCII a gateway may use): non-empty, no spaces or control characters. The value stays out of the message.
 */
export function checkToken(token: unknown, what: string): asserts token is string {
  if (typeof token !== 'string') throw new ConfigError(`${what} must be a string, not ${describeValue(token)}`);
  if (!/^[\x21-\x7e]+$/.test(token))
    throw new ConfigError(`${what} must be visible ASCII without spaces (${token === '' ? 'it is empty' : 'it has another character'})`);
}

/** `options.preemptive`, a boolean: `'no'` would be truthy, and send the credentials up front. */
function preemptiveOf(options: AuthOptions | null | undefined, method: string): boolean {
  if (options === undefined) return false;
  if (!isRecord(options)) throw new ConfigError(`${method}: the options must be an object ({ preemptive }), not ${describeValue(options)}`);
  const { preemptive } = options;
  if (preemptive !== undefined && typeof preemptive !== 'boolean')
    throw new ConfigError(`${method}: preemptive must be true or false, not ${describeValue(preemptive)}`);
  return preemptive ?? false;
}

/**
 * RFC 7617: the first ':' ends the user-id, so a Basic user name with one would reach the
 * server cut short (`ali:ce` read as `ali`). For `auth.basic()` and for a URL's user info.
 */
export function checkBasicUser(user: string, setting: string): void {
  if (user.includes(':')) throw new ConfigError(`${setting} cannot contain ':' (Basic sends user:password)`);
}

/** Text a challenge can be answered with: strings, with no lone UTF-16 surrogate (which has no UTF-8 form). The values stay out of the message. */
function checkCredentials(scheme: 'basic' | 'digest', user: unknown, password: unknown): void {
  for (const [what, value] of [
    ['user name', user],
    ['password', password],
  ] as const) {
    if (typeof value !== 'string') throw new ConfigError(`auth.${scheme}(): the ${what} must be a string`);
    if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value)) {
      throw new ConfigError(`auth.${scheme}(): the ${what} contains a lone UTF-16 surrogate, which has no UTF-8 form`);
    }
  }
}
