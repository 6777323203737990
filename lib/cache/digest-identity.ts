import { parseChallenges } from '../auth/challenges.js';
import { DIGEST_ALGORITHMS, digestHash, digestResponse } from '../auth/digest-math.js';
import type { Credentials } from '../config/auth-config.js';
import type { WireRequest } from '../model/backend.js';

/**
 * What stands for a Digest `Authorization` in the cache: every request's answer has a new
 * `cnonce` and `nc`, so its value never matches the last one. When the answer was made with the
 * call's own user and password (its `response` is what they give), the user and password stand
 * for it; otherwise undefined (the value itself stands for it, and matches nothing later). The
 * check is the server's own, so a request with the same user name and another password is
 * never taken for that user.
 */
export function digestIdentity(authorization: string, wire: WireRequest, credentials: Credentials | undefined): string | undefined {
  if (credentials === undefined || credentials.scheme === 'bearer' || !/^digest\s/i.test(authorization)) return undefined;
  const params = parseChallenges([authorization])[0]?.params ?? {};
  const algorithm = DIGEST_ALGORITHMS.find((known) => known.toLowerCase() === (params.algorithm ?? 'MD5').toLowerCase());
  const qop = params.qop === 'auth' || params.qop === 'auth-int' ? params.qop : undefined;
  if (algorithm === undefined || params.response === undefined || (params.qop !== undefined && qop === undefined)) return undefined;
  const expected = digestResponse({
    algorithm,
    username: credentials.user,
    realm: params.realm ?? '',
    password: credentials.password,
    method: wire.method,
    uri: params.uri ?? '',
    nonce: params.nonce ?? '',
    nc: params.nc ?? '',
    cnonce: params.cnonce ?? '',
    qop,
    bodyHash: qop === 'auth-int' ? digestHash(algorithm, wire.body?.bytes ?? new Uint8Array(0)) : undefined,
  });
  if (expected !== params.response.toLowerCase()) return undefined;
  return `digest\0${credentials.user}\0${params.realm ?? ''}\0${credentials.password}`;
}
