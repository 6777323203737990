import { ConfigError } from '../core/errors.js';
import { describeValue } from '../core/describe-value.js';
import { isRecord } from '../core/scalar.js';

/** Credentials for one client or request, and how to use them. */
export interface Credentials {
  /** `basic` or `digest`: answer only that scheme (URL credentials are Basic). */
  readonly scheme: 'basic' | 'digest';
  readonly user: string;
  readonly password: string;
  /** Basic: send with the first request, before any challenge. */
  readonly preemptive: boolean;
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
