import type { X509Certificate } from 'node:crypto';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import type { TlsOptions } from '../model/backend.js';

/** The `code` of a pin failure: `ERR_TLS_` makes it a `NetworkError` whose `reason` is `'tls'`. */
export const PIN_MISMATCH = 'ERR_TLS_CERT_PIN_MISMATCH';

/** `execution.tls.pins` as a set, or undefined when the client pins nothing. */
export function pinsOf(settings: TlsOptions | undefined): ReadonlySet<string> | undefined {
  return settings?.pins && new Set(settings.pins);
}

/**
 * No TLS session cache for a pinned client: a resumed session shows no certificate to check the
 * pins against (node gives none then), and may come from a handshake that failed them. As
 * options of an https Agent or undici's `buildConnector`.
 */
export function unresumed(settings: TlsOptions | undefined): { maxCachedSessions?: 0 } {
  return settings?.pins ? { maxCachedSessions: 0 } : {};
}

/**
 * The SHA-256 digest of a certificate's SubjectPublicKeyInfo, base64: what `execution.tls.pins`
 * lists (curl's `--pinnedpubkey sha256//...` value, without the prefix). From the DER
 * certificate (`raw`): node's `pubkey` is the SPKI for an RSA key but the bare point for an EC one.
 *
 * @example
 * // openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64
 * spkiPin(socket.getPeerCertificate().raw); // 'n3qR...='
 */
export function spkiPin(certificate: Uint8Array): string {
  return spkiOf(new (crypto().X509Certificate)(certificate));
}

/** node:crypto, loaded by the first pin checked, not with the package (only a client with execution.tls.pins needs it). */
function crypto(): typeof import('node:crypto') {
  return process.getBuiltinModule('node:crypto');
}

function spkiOf(certificate: X509Certificate): string {
  return crypto()
    .createHash('sha256')
    .update(certificate.publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64');
}

/**
 * The certificates of the chain the server sent that may count for a pin, leaf first: the leaf,
 * then each issuer node links (by `issuerCertificate`) only while every link so far is a real
 * signature. Node links them by name and key id alone, so a leaf of an impostor could otherwise
 * claim the (public) pinned certificate as its issuer, with the chain checks off.
 */
function chainOf(leaf: PeerCertificate): X509Certificate[] {
  const chain: X509Certificate[] = [];
  const seen = new Set<PeerCertificate>();
  for (let cert: PeerCertificate | undefined = leaf; cert?.raw !== undefined && !seen.has(cert);) {
    seen.add(cert);
    const x509 = new (crypto().X509Certificate)(cert.raw);
    const child = chain.at(-1);
    if (child !== undefined && !child.verify(x509.publicKey)) break;
    chain.push(x509);
    cert = (cert as PeerCertificate & { issuerCertificate?: PeerCertificate }).issuerCertificate;
  }
  return chain;
}

/**
 * Why a just-secured connection fails the pins (none of them matches a certificate of the chain
 * the server sent, leaf or intermediate), or undefined when one matches. Made for the moment of
 * `secureConnect`, before a byte of the request is written; on every connection, a resumed
 * session's too (its session may come from a handshake that failed them).
 */
export function pinFailure(socket: TLSSocket, pins: ReadonlySet<string>, host: string): Error | undefined {
  const seen = chainOf(socket.getPeerCertificate(true)).map(spkiOf);
  if (seen.some((pin) => pins.has(pin))) return undefined;
  const chain = seen.map((pin) => `sha256//${pin}`).join(', ') || 'no certificate';
  return Object.assign(new Error(`the certificate of ${host} matches none of execution.tls.pins (its chain: ${chain})`), { code: PIN_MISMATCH });
}

/**
 * Checks the pins on `socket` as soon as it is secured, first of its `secureConnect` listeners:
 * a connection that fails them is destroyed with the failure before anyone writes on it. Node's
 * own `checkServerIdentity` would not do: node skips it when `rejectUnauthorized: false` (a
 * pinned self-signed server is the classic case) and when the chain was already refused.
 * For node's https agents, whose requests wait for the socket's 'error': the later
 * `secureConnect` listeners still run, so not for a socket an HTTP/2 session waits on (node's
 * http2 aborts the process setting up a session on a destroyed socket): see {@link securedAndPinned}.
 *
 * @example
 * guardPins(tls.connect(options), pinsOf(settings), 'api.example.com');
 */
export function guardPins<S extends TLSSocket>(socket: S, pins: ReadonlySet<string> | undefined, host: string): S {
  if (pins === undefined) return socket;
  socket.prependOnceListener('secureConnect', () => {
    const failure = pinFailure(socket, pins, host);
    if (failure) socket.destroy(failure);
  });
  return socket;
}

/**
 * `socket` once it is secured and has passed the pins (rejects with the failure, or the
 * connection's error): for whoever sets up an HTTP/2 session on it, which must get a socket
 * that stays up.
 *
 * @example
 * const socket = await securedAndPinned(tls.connect(options), pins, 'api.example.com');
 * http2.connect(origin, { createConnection: () => socket });
 */
export function securedAndPinned(socket: TLSSocket, pins: ReadonlySet<string>, host: string): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('secureConnect', () => {
      socket.off('error', reject);
      const failure = pinFailure(socket, pins, host);
      if (!failure) return resolve(socket);
      socket.destroy();
      reject(failure);
    });
  });
}
