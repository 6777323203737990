import type { Credentials } from '../auth/credentials.js';

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

  constructor() {
    Object.seal(this);
  }

  /** Answer `WWW-Authenticate: Basic` challenges (RFC 7617), or send up front with `preemptive`. */
  basic(user: string, password: string, options: AuthOptions = {}): void {
    this.credentials = { scheme: 'basic', user, password, preemptive: options.preemptive ?? false };
  }

  /** Answer `WWW-Authenticate: Digest` challenges (RFC 7616: MD5, SHA-256, SHA-512-256 and their -sess forms). */
  digest(user: string, password: string, options: AuthOptions = {}): void {
    this.credentials = { scheme: 'digest', user, password, preemptive: options.preemptive ?? false };
  }
}
