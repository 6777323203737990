import { createHash } from 'node:crypto';
import tls, { type PeerCertificate } from 'node:tls';

/** The `code` of a pin failure: `ERR_TLS_` makes it a `NetworkError` whose `reason` is `'tls'`. */
export const PIN_MISMATCH = 'ERR_TLS_CERT_PIN_MISMATCH';

/**
 * The SHA-256 digest of a certificate's SubjectPublicKeyInfo, base64: what `execution.tls.pins`
 * lists (curl's `--pinnedpubkey sha256//...` value, without the prefix).
 *
 * @example
 * // openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64
 * spkiPin(socket.getPeerCertificate()); // 'n3qR...='
 */
export function spkiPin(certificate: { readonly pubkey: Uint8Array }): string {
  return createHash('sha256').update(certificate.pubkey).digest('base64');
}

/** Every certificate of the chain the server sent, leaf first (node links them by `issuerCertificate`, a root to itself). */
function chainOf(leaf: PeerCertificate): PeerCertificate[] {
  const chain: PeerCertificate[] = [];
  for (let cert: PeerCertificate | undefined = leaf; cert !== undefined && !chain.includes(cert);) {
    if (cert.pubkey === undefined) break;
    chain.push(cert);
    cert = (cert as PeerCertificate & { issuerCertificate?: PeerCertificate }).issuerCertificate;
  }
  return chain;
}

/**
 * A `checkServerIdentity` for node's TLS (https agents, `tls.connect` through a `CONNECT`
 * tunnel, `http2.connect`, undici's connector, got): node's own host-name check, then the pins,
 * any one of which must match a certificate of the chain (leaf or intermediate). Node calls it
 * on every new connection, before a byte of the request is written.
 */
export function pinnedIdentity(pins: readonly string[]): (hostname: string, certificate: PeerCertificate) => Error | undefined {
  const wanted = new Set(pins);
  return (hostname, certificate) => {
    const wrongHost = tls.checkServerIdentity(hostname, certificate);
    if (wrongHost !== undefined) return wrongHost;
    const seen = chainOf(certificate).map((cert) => spkiPin({ pubkey: cert.pubkey! }));
    if (seen.some((pin) => wanted.has(pin))) return undefined;
    const error = new Error(
      `the certificate of ${hostname} matches none of execution.tls.pins (its chain: ${seen.map((pin) => `sha256//${pin}`).join(', ') || 'no public key'})`,
    );
    return Object.assign(error, { code: PIN_MISMATCH });
  };
}
