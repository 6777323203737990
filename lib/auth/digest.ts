import { randomBytes, toHex } from '../core/bytes.js';
import type { Challenge } from './challenges.js';
import {
  DIGEST_ALGORITHMS,
  digestHash,
  digestResponse,
  expectedRspauth,
  strength,
  userRealmBytes,
  type DigestAlgorithm,
  type DigestInput,
} from './digest-math.js';
import '../pipeline/shared-chunk.js'; // loads with the client's modules in one chunk

/** A Digest challenge we can answer, as kept for the protection space. */
export interface DigestChallenge {
  readonly realm: string;
  readonly nonce: string;
  readonly opaque: string | undefined;
  readonly algorithm: DigestAlgorithm;
  readonly qop: 'auth' | 'auth-int' | undefined;
  readonly userhash: boolean;
  readonly domain: string | undefined;
}

/** The strongest Digest challenge we support among those offered (RFC 7616 §3.7), or undefined. */
export function pickDigest(challenges: readonly Challenge[]): DigestChallenge | undefined {
  let best: DigestChallenge | undefined;
  for (const { scheme, params } of challenges) {
    if (scheme !== 'digest' || !params.nonce) continue;
    const algorithm = DIGEST_ALGORITHMS.find((known) => known.toLowerCase() === (params.algorithm ?? 'MD5').toLowerCase());
    const offered = (params.qop ?? '').split(',').map((q) => q.trim().toLowerCase());
    // auth when offered; auth-int only when it is the only choice; none for RFC 2069 servers
    const qop = offered.includes('auth') ? 'auth' : offered.includes('auth-int') ? 'auth-int' : params.qop === undefined ? undefined : null;
    if (!algorithm || qop === null) continue;
    const candidate: DigestChallenge = {
      realm: params.realm ?? '',
      nonce: params.nonce,
      opaque: params.opaque,
      algorithm,
      qop,
      userhash: params.userhash?.toLowerCase() === 'true',
      domain: params.domain,
    };
    if (!best || strength(algorithm) > strength(best.algorithm)) best = candidate;
  }
  return best;
}

/** What in a Digest challenge we cannot answer (one {@link pickDigest} passed over). */
export function whyUnanswerable(challenge: Challenge): string {
  const { algorithm = 'MD5', qop, nonce } = challenge.params;
  if (!nonce) return 'it has no nonce';
  if (!DIGEST_ALGORITHMS.some((known) => known.toLowerCase() === algorithm.toLowerCase())) {
    return `algorithm ${algorithm} is not supported (${DIGEST_ALGORITHMS.join(', ')} are)`;
  }
  return `qop ${qop} is not supported (auth and auth-int are)`;
}

/** What one answer to a Digest challenge needs beyond the challenge. */
export interface DigestAnswer {
  readonly user: string;
  readonly password: string;
  readonly method: string;
  readonly uri: string;
  /** 1-based count of requests with this nonce. */
  readonly nc: number;
  /** The body bytes, for `auth-int`. */
  readonly body: Uint8Array | undefined;
}

/** `Authorization: Digest ...` for the challenge, and the rspauth the server should send back. */
export function digestAuthorization(challenge: DigestChallenge, answer: DigestAnswer): { header: string; rspauth: string } {
  const input: DigestInput = {
    algorithm: challenge.algorithm,
    username: answer.user,
    realm: challenge.realm,
    password: answer.password,
    method: answer.method,
    uri: answer.uri,
    nonce: challenge.nonce,
    nc: answer.nc.toString(16).padStart(8, '0'),
    cnonce: toHex(randomBytes(16)), // RFC 7616 §3.4: unpredictable
    qop: challenge.qop,
    bodyHash: challenge.qop === 'auth-int' ? digestHash(challenge.algorithm, answer.body ?? new Uint8Array(0)) : undefined,
  };
  const params = [userParam(challenge, answer.user), `realm=${quote(challenge.realm)}`, `nonce=${quote(challenge.nonce)}`, `uri=${quote(answer.uri)}`];
  params.push(`response=${quote(digestResponse(input))}`, `algorithm=${challenge.algorithm}`);
  if (challenge.qop) params.push(`qop=${challenge.qop}`, `nc=${input.nc}`, `cnonce=${quote(input.cnonce)}`);
  if (challenge.opaque !== undefined) params.push(`opaque=${quote(challenge.opaque)}`);
  if (challenge.userhash) params.push('userhash=true');
  return { header: `Digest ${params.join(', ')}`, rspauth: expectedRspauth(input) };
}

/** `username`, its hash (userhash=true), or `username*` (RFC 8187) when it cannot be a quoted-string. */
function userParam(challenge: DigestChallenge, user: string): string {
  if (challenge.userhash) return `username=${quote(digestHash(challenge.algorithm, userRealmBytes(user, challenge.realm)))}`;
  if (/^[\x20-\x7e]*$/.test(user)) return `username=${quote(user)}`;
  return `username*=UTF-8''${encodeURIComponent(user).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

function quote(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}
