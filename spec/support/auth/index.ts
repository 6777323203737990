// Server side of HTTP authentication for the tests, written from the RFCs (7617, 7616, 2617,
// 7235, 8187) and independent of lib/auth, so client and server cannot share a mistake.
export { basicRoute, basicMismatch, type BasicRouteOptions } from './basic-route.js';
export { digestRoute, type DigestRouteOptions } from './digest-route.js';
export type { AuthRouteHandle } from './route-stats.js';
export { DEFAULT_AUTH_METHODS, OK_TEXT } from './auth-responses.js';
export { AuthSyntaxError, param, parseChallenges, parseCredentials, quoteString, type AuthChallenge } from './auth-params.js';
export { decodeExtValue, encodeExtValue, type ExtValue } from './ext-value.js';
export {
  DIGEST_ALGORITHMS,
  digestHash,
  ha1,
  isSessionAlgorithm,
  kd,
  requestDigest,
  responseDigest,
  toDigestAlgorithm,
  userhash,
  type DigestAlgorithm,
  type DigestInput,
  type DigestQop,
} from './digest-math.js';
