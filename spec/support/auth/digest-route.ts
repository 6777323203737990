// A Digest-protected route for the test server, written from RFC 7616 (and RFC 2617, RFC 7235).
import { randomBytes } from 'node:crypto';
import type { RecordedRequest } from '../recorded-request.js';
import type { TestServer } from '../test-server.js';
import { AuthSyntaxError, param, parseChallenges, parseCredentials, quoteString, type AuthChallenge } from './auth-params.js';
import { authorizationLines, DEFAULT_AUTH_METHODS, okBody, sendChallenge, sendOk } from './auth-responses.js';
import { checkDigest, type DigestVerdict } from './digest-check.js';
import { responseDigest, type DigestAlgorithm } from './digest-math.js';
import { NonceBook, type NonceContext } from './nonce-book.js';
import { RouteStats, type AuthRouteHandle } from './route-stats.js';

/** Options of {@link digestRoute}. */
export interface DigestRouteOptions {
  /** Default `/digest`; requests with any query on this path are answered too. */
  path?: string;
  /** Default `digest-realm`. */
  realm?: string;
  /** The `domain` parameter of the challenge; default the path. */
  domain?: string;
  user: string;
  password: string;
  /** Default `MD5`. */
  algorithm?: DigestAlgorithm;
  /** The qop offered; default `auth`. */
  qop?: 'auth' | 'auth-int' | 'auth,auth-int';
  /** Send an `opaque` (one random value per route) and require it echoed; default true. */
  opaque?: boolean;
  /** Add `userhash=true` to the challenge; hashed and plain user names are then both accepted (RFC 7616 §3.4.4). */
  userhash?: boolean;
  /**
   * `'once'`: the first answer with a right digest that uses the first nonce this route issued
   * gets a 401 with a fresh nonce and `stale=true`; that first nonce stays expired (any later
   * use of it gets `stale=true` again), every other nonce works normally. `'always'`: every
   * answer with a right digest gets that 401 (`stale=true`, a fresh nonce), its nonce expired.
   */
  stale?: 'once' | 'always';
  /** Put `nextnonce` in `Authentication-Info`; default true. */
  nextnonce?: boolean;
  /** Send a wrong `rspauth` (the right one with its first hex digit changed). */
  badRspauth?: boolean;
  /**
   * Extra raw `WWW-Authenticate` values sent after the route's own challenge on every 401 (one
   * field line each), e.g. Digest challenges with other algorithms. The nonce of each Digest
   * challenge in them is accepted with that challenge's realm, algorithm, qop, opaque and
   * userhash (its `nc` tracked like any other); its `nextnonce`s inherit the same.
   */
  challenges?: string[];
  /** Default GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS. */
  methods?: string[];
  /** Extra headers on the 200 answer (e.g. `Cache-Control`). */
  headers?: Record<string, string>;
}

/**
 * Registers a Digest-protected route on `server` (one expectation per method; register it
 * again after `server.reset()`).
 *
 * - Without `Authorization`: 401 with `WWW-Authenticate: Digest realm="<realm>",
 *   domain="<domain>", nonce="<nonce>", opaque="<opaque>", algorithm=<alg>, qop="<qop>"`
 *   (then `stale=true`, `userhash=true` when they apply), a fresh random nonce each time,
 *   followed by the `challenges` option's values.
 * - Right credentials (see `checkDigest`: realm, issued nonce, opaque, algorithm, uri = the
 *   request-target as received, qop, nc unused for that nonce, cnonce, user name in any of
 *   its three forms, response digest): 200 `text/plain` `ok-text` (no body for HEAD) with
 *   `Authentication-Info: nextnonce="<new>", qop="<qop>", rspauth="<rspauth>",
 *   cnonce="<cnonce>", nc=<nc>`. The rspauth uses A2 = `:uri`, for auth-int `:uri:H(body)`
 *   with the RESPONSE body (RFC 2617 §3.2.3 / RFC 7616 §3.5: it protects the response).
 *   The nextnonce is accepted from then on; the used nonce stays valid.
 * - Anything else: 401 with a fresh challenge (`stale=true` only for a right digest on an
 *   expired nonce), counted in `rejected` with a reason.
 */
export function digestRoute(server: TestServer, options: DigestRouteOptions): AuthRouteHandle {
  const path = options.path ?? '/digest';
  const realm = options.realm ?? 'digest-realm';
  const domain = options.domain ?? path;
  const algorithm = options.algorithm ?? 'MD5';
  const qop = options.qop ?? 'auth';
  const userhash = options.userhash === true;
  const context: NonceContext = {
    realm,
    algorithm,
    qop: qop.split(','),
    opaque: options.opaque === false ? undefined : randomBytes(16).toString('hex'),
    userhash,
  };
  const extras = options.challenges ?? [];
  const book = new NonceBook();
  for (const raw of extras) {
    for (const challenge of parseChallenges(raw)) {
      const nonce = param(challenge, 'nonce');
      if (challenge.scheme.toLowerCase() === 'digest' && nonce !== undefined) book.register(nonce, contextOf(challenge));
    }
  }
  const stats = new RouteStats();
  let firstNonce: string | undefined;
  let staleSent = false;

  const issue = (ctx: NonceContext): string => {
    const nonce = book.issue(ctx);
    stats.issuedNonces.push(nonce);
    return nonce;
  };

  const challenge = (stale: boolean): string[] => {
    const nonce = issue(context);
    firstNonce ??= nonce;
    const parts = [`realm=${quoteString(realm)}`, `domain=${quoteString(domain)}`, `nonce=${quoteString(nonce)}`];
    if (context.opaque !== undefined) parts.push(`opaque=${quoteString(context.opaque)}`);
    parts.push(`algorithm=${algorithm}`, `qop=${quoteString(qop)}`);
    if (stale) parts.push('stale=true');
    if (userhash) parts.push('userhash=true');
    return [`Digest ${parts.join(', ')}`, ...extras];
  };

  const judge = (line: string, req: RecordedRequest): DigestVerdict => {
    let credentials: AuthChallenge;
    try {
      // node hands header bytes over as latin1; take them back to bytes and read them as UTF-8
      credentials = parseCredentials(Buffer.from(line, 'latin1').toString('utf8'));
    } catch (err) {
      if (err instanceof AuthSyntaxError) return { ok: false, stale: false, reason: `Authorization syntax: ${err.message}` };
      throw err;
    }
    if (credentials.scheme.toLowerCase() !== 'digest') {
      return { ok: false, stale: false, reason: `scheme ${credentials.scheme}, not Digest` };
    }
    stats.lastAuthorization = { ...credentials.params };
    const [nonce, nc] = [param(credentials, 'nonce'), param(credentials, 'nc')];
    if (nonce !== undefined && nc !== undefined) stats.ncSeen.push({ nonce, nc });
    if (credentials.token68 !== undefined) return { ok: false, stale: false, reason: 'Digest credentials without parameters' };
    const verdict = checkDigest(credentials, { user: options.user, password: options.password, method: req.method, target: req.target, body: req.body }, book);
    if (verdict.ok && options.stale === 'always') {
      verdict.entry.expired = true;
      return { ok: false, stale: true, reason: 'stale always: every nonce expires at its first right answer' };
    }
    if (verdict.ok && options.stale === 'once' && !staleSent && verdict.nonce === firstNonce) {
      staleSent = true;
      verdict.entry.expired = true;
      return { ok: false, stale: true, reason: 'stale once: the first nonce has expired' };
    }
    return verdict;
  };

  for (const method of options.methods ?? DEFAULT_AUTH_METHODS) {
    server.expect({
      method,
      path,
      respond: (req, res) => {
        stats.requests.push(req);
        const lines = authorizationLines(req);
        if (lines.length === 0) {
          stats.challenged();
          sendChallenge(req, res, challenge(false));
          return;
        }
        const verdict: DigestVerdict = lines.length > 1 ? { ok: false, stale: false, reason: `${lines.length} Authorization headers` } : judge(lines[0], req);
        if (!verdict.ok) {
          stats.challenged(verdict.reason);
          sendChallenge(req, res, challenge(verdict.stale));
          return;
        }
        const info: string[] = [];
        if (options.nextnonce !== false) info.push(`nextnonce=${quoteString(issue(verdict.entry.context))}`);
        if (verdict.qop !== undefined) {
          const { cnonce = '', nc = '' } = verdict.input;
          let rspauth = responseDigest({ ...verdict.input, body: okBody(req) });
          if (options.badRspauth === true) rspauth = ((parseInt(rspauth[0], 16) + 1) % 16).toString(16) + rspauth.slice(1);
          info.push(`qop=${quoteString(verdict.qop)}`, `rspauth=${quoteString(rspauth)}`, `cnonce=${quoteString(cnonce)}`, `nc=${nc}`);
        }
        stats.authorized++;
        sendOk(req, res, { ...options.headers, ...(info.length === 0 ? {} : { 'Authentication-Info': info.join(', ') }) });
      },
    });
  }
  return stats;
}

// What an answer to an extra raw Digest challenge must match.
function contextOf(challenge: AuthChallenge): NonceContext {
  const qop = param(challenge, 'qop');
  return {
    realm: param(challenge, 'realm') ?? '',
    algorithm: param(challenge, 'algorithm'),
    qop:
      qop === undefined
        ? []
        : qop
            .split(',')
            .map((q) => q.trim())
            .filter((q) => q !== ''),
    opaque: param(challenge, 'opaque'),
    userhash: param(challenge, 'userhash')?.toLowerCase() === 'true',
  };
}
