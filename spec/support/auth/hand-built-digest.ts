// Test helper for the route tests only (not a client): builds `Authorization: Digest` values
// from a challenge with digest-math, with knobs to get every parameter wrong on purpose.
import { randomBytes } from 'node:crypto';
import { param, parseChallenges, quoteString } from './auth-params.js';
import { requestDigest, toDigestAlgorithm, userhash, type DigestInput, type DigestQop } from './digest-math.js';
import { encodeExtValue } from './ext-value.js';

/** What {@link handBuiltDigest} answers, and how. */
export interface HandBuiltDigestOptions {
  /** A `WWW-Authenticate` value; its first Digest challenge is answered. */
  challenge: string;
  user: string;
  password: string;
  method: string;
  /** The `uri` parameter (normally the request-target). */
  uri: string;
  /** Use this nonce instead of the challenge's (e.g. a `nextnonce`). */
  nonce?: string;
  /** Default `00000001`. */
  nc?: string;
  /** Default 16 random bytes as hex. */
  cnonce?: string;
  /** Default the first qop the challenge offers. */
  qop?: DigestQop;
  /** The request body (hashed for auth-int). */
  body?: string | Buffer;
  /** `plain` (default) `username="..."`, `userhash` H(user:realm) with `userhash=true`, `extended` `username*=UTF-8''...`. */
  username?: 'plain' | 'userhash' | 'extended';
  /** Raw parameter texts (`value` as it goes on the wire, quotes included) replacing the computed ones, or null to drop one. */
  override?: Record<string, string | null>;
}

/** The header value and the digest input it was computed from. */
export interface HandBuiltDigest {
  header: string;
  input: DigestInput;
}

/** Builds an `Authorization: Digest` value answering `options.challenge`. */
export function handBuiltDigest(options: HandBuiltDigestOptions): HandBuiltDigest {
  const challenge = parseChallenges(options.challenge).find((c) => c.scheme.toLowerCase() === 'digest');
  if (challenge === undefined) throw new Error('no Digest challenge');
  const realm = param(challenge, 'realm') ?? '';
  const algorithmName = param(challenge, 'algorithm');
  const algorithm = toDigestAlgorithm(algorithmName);
  if (algorithm === undefined) throw new Error(`unsupported algorithm ${algorithmName}`);
  const offered = param(challenge, 'qop')
    ?.split(',')
    .map((q) => q.trim());
  const qop = options.qop ?? (offered?.[0] as DigestQop | undefined);
  const nonce = options.nonce ?? param(challenge, 'nonce') ?? '';
  const nc = options.nc ?? '00000001';
  const cnonce = options.cnonce ?? randomBytes(16).toString('hex');
  const input: DigestInput = {
    algorithm,
    username: options.user,
    realm,
    password: options.password,
    nonce,
    uri: options.uri,
    method: options.method,
    cnonce,
    ...(qop === undefined ? {} : { qop, nc }),
    ...(options.body === undefined ? {} : { body: options.body }),
  };
  const params = new Map<string, string>();
  const mode = options.username ?? 'plain';
  if (mode === 'extended') params.set('username*', encodeExtValue(options.user));
  else params.set('username', quoteString(mode === 'userhash' ? userhash(algorithm, options.user, realm) : options.user));
  params.set('realm', quoteString(realm));
  params.set('nonce', quoteString(nonce));
  params.set('uri', quoteString(options.uri));
  if (algorithmName !== undefined) params.set('algorithm', algorithmName);
  if (qop !== undefined) {
    params.set('qop', qop);
    params.set('nc', nc);
    params.set('cnonce', quoteString(cnonce));
  }
  params.set('response', quoteString(requestDigest(input)));
  const opaque = param(challenge, 'opaque');
  if (opaque !== undefined) params.set('opaque', quoteString(opaque));
  if (mode === 'userhash') params.set('userhash', 'true');
  for (const [name, value] of Object.entries(options.override ?? {})) {
    if (value === null) params.delete(name);
    else params.set(name, value);
  }
  return { header: `Digest ${[...params].map(([name, value]) => `${name}=${value}`).join(', ')}`, input };
}
