import { ConfigError } from '../core/errors.js';
import { describeValue } from '../core/describe-value.js';
import type { TlsOptions, TlsVersion } from '../model/backend.js';
import { checkObject } from './execution-options.js';

const TLS_OPTIONS: ReadonlySet<string> = new Set([
  'ca',
  'cert',
  'key',
  'pfx',
  'passphrase',
  'rejectUnauthorized',
  'servername',
  'minVersion',
  'maxVersion',
  'ciphers',
  'pins',
]);

/** Node's names, oldest first. */
const VERSIONS: readonly TlsVersion[] = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'];

/** A SHA-256 digest in base64: 32 bytes are 43 characters and one `=`. */
const PIN = /^[A-Za-z0-9+/]{43}=$/;

/**
 * `execution.tls` checked when it is set: each transport reads these options its own way, and
 * a wrong type failed on one as a TypeError when the client was made, on another as a
 * NetworkError on every request (and a misspelled option was ignored). Whether node can use the
 * certificates, key and ciphers is checked right after, by node's TLS (backends/node-tls-checks.ts).
 */
/** @internal (node-checks.ts plugs it in: platform-checks.ts) */
export function checkTls(tls: TlsOptions): TlsOptions {
  checkObject(tls, 'execution.tls', TLS_OPTIONS);
  const pem = (value: unknown) => typeof value === 'string' || value instanceof Uint8Array;
  const { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername, minVersion, maxVersion, ciphers, pins } = tls as Record<string, unknown>;
  if (ca !== undefined && !pem(ca) && !(Array.isArray(ca) && ca.every(pem)))
    throw new ConfigError(`execution.tls.ca must be PEM text or bytes, or a list of them, not ${describeValue(ca)}`);
  for (const [name, value] of [
    ['cert', cert],
    ['key', key],
  ] as const) {
    if (value !== undefined && !pem(value)) throw new ConfigError(`execution.tls.${name} must be PEM text or bytes, not ${describeValue(value)}`);
  }
  if (pfx !== undefined && !(pfx instanceof Uint8Array))
    throw new ConfigError(
      `execution.tls.pfx must be the bytes of a PKCS#12 file (a Uint8Array, e.g. fs.readFileSync('client.p12')), not ${describeValue(pfx)}`,
    );
  if (pfx !== undefined && (cert !== undefined || key !== undefined))
    throw new ConfigError('execution.tls.pfx holds the certificate and its key: give either pfx or cert and key, not both');
  for (const [name, value] of [
    ['passphrase', passphrase],
    ['servername', servername],
  ] as const) {
    if (value !== undefined && typeof value !== 'string') throw new ConfigError(`execution.tls.${name} must be a string, not ${describeValue(value)}`);
  }
  if (rejectUnauthorized !== undefined && typeof rejectUnauthorized !== 'boolean')
    throw new ConfigError(`execution.tls.rejectUnauthorized must be true or false, not ${describeValue(rejectUnauthorized)}`);
  checkVersions(minVersion, maxVersion);
  if (ciphers !== undefined && (typeof ciphers !== 'string' || ciphers.trim() === ''))
    throw new ConfigError(
      `execution.tls.ciphers must be an OpenSSL cipher list (e.g. 'TLS_AES_256_GCM_SHA384:ECDHE-RSA-AES256-GCM-SHA384'), not ${describeValue(ciphers)}`,
    );
  // a copy: the caller's object changed later is not what was checked
  return Object.freeze({ ...tls, ...(pins !== undefined && { pins: checkPins(pins) }) });
}

function checkVersions(min: unknown, max: unknown): void {
  for (const [name, value] of [
    ['minVersion', min],
    ['maxVersion', max],
  ] as const) {
    if (value !== undefined && !VERSIONS.includes(value as TlsVersion))
      throw new ConfigError(`execution.tls.${name} must be one of ${VERSIONS.map((v) => `'${v}'`).join(', ')}, not ${describeValue(value, true)}`);
  }
  if (min !== undefined && max !== undefined && VERSIONS.indexOf(min as TlsVersion) > VERSIONS.indexOf(max as TlsVersion))
    throw new ConfigError(`execution.tls.minVersion '${min as string}' is newer than maxVersion '${max as string}': no TLS version is left`);
}

function checkPins(pins: unknown): readonly string[] {
  if (!Array.isArray(pins) || pins.length === 0)
    throw new ConfigError(`execution.tls.pins must be a non-empty list of base64 SHA-256 digests, not ${describeValue(pins)}`);
  pins.forEach((pin: unknown, index) => {
    if (typeof pin === 'string' && pin.startsWith('sha256//'))
      throw new ConfigError(`execution.tls.pins[${index}] is '${pin}': give the digest without curl's 'sha256//' prefix`);
    if (typeof pin !== 'string' || !PIN.test(pin))
      throw new ConfigError(
        `execution.tls.pins[${index}] must be the base64 SHA-256 digest of a public key (44 characters ending in '='), not ${describeValue(pin, true)}`,
      );
  });
  return Object.freeze([...(pins as string[])]);
}
