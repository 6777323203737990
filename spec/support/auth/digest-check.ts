// Verification of `Authorization: Digest` credentials, RFC 7616 §3.4 (and RFC 2617 §3.2.2).
import { param, type AuthChallenge } from './auth-params.js';
import { requestDigest, toDigestAlgorithm, userhash, type DigestAlgorithm, type DigestInput, type DigestQop } from './digest-math.js';
import { decodeExtValue } from './ext-value.js';
import type { NonceBook, NonceEntry } from './nonce-book.js';

/** The request being checked and what the route expects. */
export interface DigestRequest {
  method: string;
  /** The request-target exactly as received: `uri` must equal it. */
  target: string;
  /** The raw request body, hashed for `auth-int`. */
  body: Buffer;
  user: string;
  password: string;
}

/** The outcome of {@link checkDigest}. */
export type DigestVerdict =
  | {
      ok: true;
      nonce: string;
      entry: NonceEntry;
      algorithm: DigestAlgorithm;
      /** Undefined in the RFC 2069 compatible form (the challenge offered no qop). */
      qop: DigestQop | undefined;
      /** What the request digest was computed from; the response digest needs the same. */
      input: DigestInput;
    }
  /** `stale`: the digest was right but the nonce is no longer accepted (RFC 7616 §3.3 `stale`). */
  | { ok: false; stale: boolean; reason: string };

// RFC 7616 §3.4: "a sender MUST only generate the quoted string syntax for ... username, realm,
// nonce, uri, response, cnonce, and opaque" and "MUST NOT generate the quoted string syntax for
// ... algorithm, qop, and nc". username* is an RFC 8187 ext-value, which is never quoted.
const MUST_QUOTE = ['username', 'realm', 'nonce', 'uri', 'response', 'cnonce', 'opaque'];
const MUST_NOT_QUOTE = ['algorithm', 'qop', 'nc', 'username*'];
const NC = /^[0-9a-f]{8}$/; // nc-value = 8LHEX

/**
 * Checks Digest credentials against the nonces of `book` and the expected user and password.
 * On success the `nc` is recorded as used with the nonce (so a replay fails); a failure says
 * which parameter is at fault without showing any secret.
 */
export function checkDigest(credentials: AuthChallenge, request: DigestRequest, book: NonceBook): DigestVerdict {
  const reject = (reason: string): DigestVerdict => ({ ok: false, stale: false, reason });
  const get = (name: string): string | undefined => param(credentials, name);

  for (const name of MUST_QUOTE) {
    if (get(name) !== undefined && !credentials.quoted.has(name)) return reject(`${name} must be a quoted-string`);
  }
  for (const name of MUST_NOT_QUOTE) {
    if (credentials.quoted.has(name)) return reject(`${name} must not be a quoted-string`);
  }
  const [realm, nonce, uri, response] = ['realm', 'nonce', 'uri', 'response'].map(get);
  if (realm === undefined || nonce === undefined || uri === undefined || response === undefined) {
    return reject('one of realm, nonce, uri, response is missing');
  }

  const entry = book.lookup(nonce);
  if (entry === undefined) return reject('nonce was never issued by this route');
  const context = entry.context;
  if (realm !== context.realm) return reject('realm differs from the challenge');
  if (context.opaque === undefined ? get('opaque') !== undefined : get('opaque') !== context.opaque) {
    return reject(context.opaque === undefined ? 'opaque sent but none was issued' : 'opaque not echoed');
  }
  const algorithm = toDigestAlgorithm(context.algorithm);
  if (algorithm === undefined) return reject('the challenge of this nonce named an unsupported algorithm');
  if (toDigestAlgorithm(get('algorithm')) !== algorithm) return reject('algorithm differs from the challenge');
  if (uri !== request.target) return reject('uri is not the request-target');

  const cnonce = get('cnonce');
  const nc = get('nc');
  let qop: DigestQop | undefined;
  if (context.qop.length > 0) {
    const sent = get('qop');
    if (sent === undefined) return reject('qop is missing');
    if (!context.qop.includes(sent) || (sent !== 'auth' && sent !== 'auth-int')) return reject('qop was not offered');
    qop = sent;
    if (nc === undefined || !NC.test(nc) || nc === '00000000') return reject('nc is not 8 lower-case hex digits above 0');
    if (cnonce === undefined || cnonce === '') return reject('cnonce is missing');
  } else if (get('qop') !== undefined || nc !== undefined) {
    return reject('qop or nc sent but the challenge offered no qop');
  }

  const who = username(credentials, algorithm, realm, context.userhash, request.user);
  if (typeof who !== 'string') return reject(who.reason);
  if (who !== request.user) return reject('unknown user');

  const input: DigestInput = {
    algorithm,
    username: who,
    realm,
    password: request.password,
    nonce,
    uri,
    method: request.method,
    body: request.body,
    ...(cnonce === undefined ? {} : { cnonce }),
    ...(nc === undefined ? {} : { nc }),
    ...(qop === undefined ? {} : { qop }),
  };
  if (algorithm.endsWith('-sess') && cnonce === undefined) return reject('cnonce is missing');
  if (response !== requestDigest(input)) return reject('response digest does not match (wrong password?)');
  if (entry.expired) return { ok: false, stale: true, reason: 'nonce is stale' };
  if (nc !== undefined && !book.claimNc(nonce, nc)) return reject(`nc ${nc} was already used with this nonce`);
  return { ok: true, nonce, entry, algorithm, qop, input };
}

/**
 * The user name the credentials claim: from `username`, from the RFC 8187 `username*`, or
 * resolved from the userhash (`username` = H(user ":" realm), RFC 7616 §3.4.4): a route has
 * one user, so a userhash names `user` when it equals that user's hash and nobody otherwise.
 */
function username(credentials: AuthChallenge, algorithm: DigestAlgorithm, realm: string, userhashOffered: boolean, user: string): string | { reason: string } {
  const plain = param(credentials, 'username');
  const extended = param(credentials, 'username*');
  const flag = param(credentials, 'userhash');
  if (flag !== undefined && !/^(true|false)$/i.test(flag)) return { reason: 'userhash is neither true nor false' };
  if (plain !== undefined && extended !== undefined) return { reason: 'both username and username* sent' };
  if (flag?.toLowerCase() === 'true') {
    if (!userhashOffered) return { reason: 'userhash=true but the challenge did not offer it' };
    if (plain === undefined) return { reason: 'userhash=true needs a username with the hash' };
    return plain === userhash(algorithm, user, realm) ? user : { reason: 'unknown user (userhash)' };
  }
  if (extended !== undefined) {
    try {
      return decodeExtValue(extended).value;
    } catch {
      return { reason: 'username* is not a valid RFC 8187 ext-value' };
    }
  }
  return plain ?? { reason: 'username is missing' };
}
