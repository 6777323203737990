// Basic and Digest for the portable server, checked with the test-side auth helpers of
// spec/support/auth/ (written from the RFCs, independent of lib/auth).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { param, parseCredentials, quoteString } from '../support/auth/auth-params.js';
import { requestDigest, type DigestAlgorithm } from '../support/auth/digest-math.js';

/** The one account the portable server knows. */
export const PORTABLE_USER = { user: 'alice', password: 'wonder land' } as const;

const REALM = 'portable';

/** Whether `request` carries Basic credentials of {@link PORTABLE_USER}. */
export function basicAccepted(request: IncomingMessage): boolean {
  const expected = `Basic ${Buffer.from(`${PORTABLE_USER.user}:${PORTABLE_USER.password}`).toString('base64')}`;
  return request.headers.authorization === expected;
}

export function basicChallenge(): string {
  return `Basic realm="${REALM}", charset="UTF-8"`;
}

/** The nonces handed out, each with the last `nc` seen (a replayed count is refused). */
const nonces = new Map<string, number>();

export function digestChallenge(algorithm: DigestAlgorithm): string {
  const nonce = randomBytes(12).toString('hex');
  if (nonces.size > 10_000) nonces.clear();
  nonces.set(nonce, 0);
  return `Digest realm=${quoteString(REALM)}, qop="auth", algorithm=${algorithm}, nonce=${quoteString(nonce)}, opaque="portable-opaque"`;
}

/** Whether `request` answers one of this server's Digest challenges for `algorithm` rightly (RFC 7616, qop=auth). */
export function digestAccepted(request: IncomingMessage, algorithm: DigestAlgorithm): boolean {
  const header = request.headers.authorization;
  if (header === undefined || !/^digest /i.test(header)) return false;
  let credentials;
  try {
    credentials = parseCredentials(header);
  } catch {
    return false;
  }
  const get = (name: string) => param(credentials, name);
  const nonce = get('nonce') ?? '';
  const nc = get('nc') ?? '';
  const seen = nonces.get(nonce);
  if (seen === undefined || !/^[0-9a-f]{8}$/i.test(nc) || parseInt(nc, 16) <= seen) return false;
  if (get('username') !== PORTABLE_USER.user || get('realm') !== REALM || get('uri') !== request.url) return false;
  if ((get('algorithm') ?? 'MD5').toUpperCase() !== algorithm.toUpperCase() || get('qop') !== 'auth' || get('opaque') !== 'portable-opaque') return false;
  const expected = requestDigest({
    algorithm,
    username: PORTABLE_USER.user,
    realm: REALM,
    password: PORTABLE_USER.password,
    nonce,
    cnonce: get('cnonce') ?? '',
    nc,
    qop: 'auth',
    uri: get('uri') ?? '',
    method: request.method ?? 'GET',
  });
  if (get('response') !== expected) return false;
  nonces.set(nonce, parseInt(nc, 16));
  return true;
}
