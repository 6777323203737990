import { createHmac, randomBytes } from 'node:crypto';
import type CachePolicy from 'http-cache-semantics';
import { redactUrl } from '../core/redact.js';
import type { WireRequest } from '../model/backend.js';
import type { Credentials } from '../config/auth-config.js';
import { digestIdentity } from './digest-identity.js';
import { isCredential } from './credential-names.js';

export { isCredential } from './credential-names.js';

/**
 * A request as the cache reads it: every credential in it replaced by a digest, so that what
 * it keeps for matching (the key, the URL and the `Vary` headers of an entry) can go to any
 * store, and two requests with the same credentials still match.
 */
export interface CacheView {
  /** The URL without its fragment, credential-like query and path parameter values digested. */
  readonly url: string;
  /** For http-cache-semantics: that URL, and the headers (lower case) with credential values digested. */
  readonly request: CachePolicy.HttpRequest;
  /** A digest of all the request's credentials, or undefined for a request without any. */
  readonly credentials: string | undefined;
  /** The client's connection identity (a digest: client certificate, Unix socket, local address), or undefined. */
  readonly connection: string | undefined;
}

/** A digest of a credential for the store ({@link keyedDigest}). */
export type Digest = (value: string) => string;

/** What a client's cache reads a request with: its digest, and its connection identity. */
export interface Keying {
  readonly digest: Digest;
  /** A digest of how the client connects (client certificate, Unix socket, local address), or undefined. */
  readonly connection: string | undefined;
}

/**
 * What the cache reads of `wire`. Credentials are `Authorization`, `Cookie` and every header
 * whose name is credential-like by the rule of log redaction ({@link isCredentialHeader}: `X-Api-Key`,
 * `Private-Token`, `Proxy-Authorization`, ...). A Digest `Authorization` made with the call's
 * `auth.digest()` credentials counts as those credentials: its value changes with every request.
 */
export function cacheView(wire: WireRequest, credentials: Credentials | undefined, { digest, connection }: Keying): CacheView {
  const url = storedUrl(wire.url, digest);
  const headers: Record<string, string> = {};
  const digests: string[] = [];
  for (const [name, value] of Object.entries(wire.headers)) {
    const lower = name.toLowerCase();
    let kept = value;
    if (isCredential(name, lower)) {
      const identity = lower === 'authorization' ? digestIdentity(value, wire, credentials) : undefined;
      // the name too: the same key as X-Api-Key and as Private-Token are two credentials
      kept = digest(`${lower}\0${identity ?? value}`);
      digests.push(kept);
    }
    headers[lower] = headers[lower] === undefined ? kept : `${headers[lower]}, ${kept}`;
  }
  // one credential (the usual case) is its own digest: no second hash
  const all = digests.length < 2 ? digests[0] : digest(digests.sort().join('\n'));
  return { url, request: { url, method: wire.method, headers }, credentials: all, connection };
}

/** `url` as the cache keeps it: without its fragment, the values of credential-like parameters digested. */
export function storedUrl(url: string, digest: Digest): string {
  const hash = url.indexOf('#');
  const whole = hash === -1 ? url : url.slice(0, hash);
  // the usual URL has no parameters: no parse
  return whole.includes('?') || whole.includes(';') ? redactUrl(whole, digest) : whole;
}

/** The secret of the stores that were given none: random, this process's only. */
let processSecret: Buffer | undefined;

/**
 * The digest of credentials for a store: HMAC-SHA-256 keyed with `secret` (else a random key of
 * this process's), base64url. It matches the same value again and tells nothing of it; without
 * the key, a stolen store cannot be used to test guesses of a password offline.
 */
export function keyedDigest(secret: string | Uint8Array | undefined): Digest {
  const key = secret ?? (processSecret ??= randomBytes(32));
  return (value) => `hmac:${createHmac('sha256', key).update(value).digest('base64url')}`;
}
