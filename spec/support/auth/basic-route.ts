// A Basic-protected route for the test server, written from RFC 7617 (and RFC 7235 §4.1-4.2).
import type { TestServer } from '../test-server.js';
import { AuthSyntaxError, parseCredentials, quoteString } from './auth-params.js';
import { authorizationLines, DEFAULT_AUTH_METHODS, sendChallenge, sendOk } from './auth-responses.js';
import { RouteStats, type AuthRouteHandle } from './route-stats.js';

/** Options of {@link basicRoute}. */
export interface BasicRouteOptions {
  /** Default `/basic`; requests with any query on this path are answered too. */
  path?: string;
  /** Default `basic-realm`. */
  realm?: string;
  user: string;
  password: string;
  /** Default GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS. */
  methods?: string[];
}

// RFC 4648 base64 with its padding (the token68 of RFC 7617 §2).
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Registers a Basic-protected route on `server` (one expectation per method; register it
 * again after `server.reset()`).
 *
 * - No `Authorization` header: 401 with `WWW-Authenticate: Basic realm="<realm>"`.
 * - `Authorization: Basic base64(utf8(user ":" password))` with the right pair (split at the
 *   first `:`): 200 `text/plain` `ok-text` (no body for HEAD).
 * - Anything else (wrong pair, other scheme, bad base64 or UTF-8, no `:`, several
 *   `Authorization` headers): the same 401, counted in `rejected` with a reason.
 */
export function basicRoute(server: TestServer, options: BasicRouteOptions): AuthRouteHandle {
  const path = options.path ?? '/basic';
  const challenge = `Basic realm=${quoteString(options.realm ?? 'basic-realm')}`;
  const stats = new RouteStats();
  for (const method of options.methods ?? DEFAULT_AUTH_METHODS) {
    server.expect({
      method,
      path,
      respond: (req, res) => {
        stats.requests.push(req);
        const lines = authorizationLines(req);
        if (lines.length === 0) {
          stats.challenged();
          sendChallenge(req, res, [challenge]);
          return;
        }
        const reason = lines.length > 1 ? `${lines.length} Authorization headers` : basicMismatch(lines[0], options);
        if (reason === undefined) {
          stats.authorized++;
          sendOk(req, res);
        } else {
          stats.challenged(reason);
          sendChallenge(req, res, [challenge]);
        }
      },
    });
  }
  return stats;
}

/** Why `authorization` does not carry the route's user and password; undefined when it does. */
export function basicMismatch(authorization: string, expected: { user: string; password: string }): string | undefined {
  let token68: string | undefined;
  try {
    const credentials = parseCredentials(authorization);
    if (credentials.scheme.toLowerCase() !== 'basic') return `scheme ${credentials.scheme}, not Basic`;
    token68 = credentials.token68;
  } catch (err) {
    if (err instanceof AuthSyntaxError) return `Authorization syntax: ${err.message}`;
    throw err;
  }
  if (token68 === undefined || !BASE64.test(token68)) return 'credentials are not padded base64';
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(token68, 'base64'));
  } catch {
    return 'credentials are not UTF-8';
  }
  const colon = text.indexOf(':');
  if (colon < 0) return 'no ":" in the credentials';
  if (text.slice(0, colon) !== expected.user) return 'unknown user';
  if (text.slice(colon + 1) !== expected.password) return 'wrong password';
  return undefined;
}
