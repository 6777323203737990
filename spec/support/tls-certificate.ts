import { generate } from 'selfsigned';

/** A PEM key pair for the HTTPS test listener. */
export interface TlsCertificate {
  /** PEM private key, for the server. */
  key: string;
  /** PEM certificate; clients pass it as `ca` to trust the server. */
  cert: string;
}

// RSA key generation takes a noticeable fraction of a second, so one certificate serves the
// whole process (every TestServer in a jest worker). The promise is cached, not the result,
// so concurrent first callers share a single generation.
let cached: Promise<TlsCertificate> | undefined;

/**
 * A self-signed certificate for `localhost` and `127.0.0.1`, generated at the first call and
 * cached for the process.
 *
 * It is its own CA (`basicConstraints cA: true`), so passing `cert` as a client's `ca` is
 * enough for full verification, including host-name checks against either SAN.
 */
export function selfSignedCertificate(): Promise<TlsCertificate> {
  cached ??= create().catch((err: unknown) => {
    cached = undefined; // let a later call retry instead of caching the failure
    throw err;
  });
  return cached;
}

async function create(): Promise<TlsCertificate> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}
