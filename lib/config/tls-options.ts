import { ConfigError } from '../core/errors.js';
import { describeValue } from '../core/describe-value.js';
import type { TlsOptions } from '../model/backend.js';
import { checkObject } from './execution-options.js';

const TLS_OPTIONS: ReadonlySet<string> = new Set(['ca', 'cert', 'key', 'rejectUnauthorized', 'servername']);

/**
 * `execution.tls` checked when it is set: each transport reads these options its own way, and
 * a wrong type failed on one as a TypeError when the client was made, on another as a
 * NetworkError on every request (and a misspelled option was ignored).
 */
/** @internal (node-checks.ts plugs it in: platform-checks.ts) */
export function checkTls(tls: TlsOptions): TlsOptions {
  checkObject(tls, 'execution.tls', TLS_OPTIONS);
  const pem = (value: unknown) => typeof value === 'string' || value instanceof Uint8Array;
  const { ca, cert, key, rejectUnauthorized, servername } = tls as Record<string, unknown>;
  if (ca !== undefined && !pem(ca) && !(Array.isArray(ca) && ca.every(pem)))
    throw new ConfigError(`execution.tls.ca must be PEM text or bytes, or a list of them, not ${describeValue(ca)}`);
  for (const [name, value] of [
    ['cert', cert],
    ['key', key],
  ] as const) {
    if (value !== undefined && !pem(value)) throw new ConfigError(`execution.tls.${name} must be PEM text or bytes, not ${describeValue(value)}`);
  }
  if (rejectUnauthorized !== undefined && typeof rejectUnauthorized !== 'boolean')
    throw new ConfigError(`execution.tls.rejectUnauthorized must be true or false, not ${describeValue(rejectUnauthorized)}`);
  if (servername !== undefined && typeof servername !== 'string')
    throw new ConfigError(`execution.tls.servername must be a string, not ${describeValue(servername)}`);
  // a copy: the caller's object changed later is not what was checked
  return Object.freeze({ ...tls });
}
