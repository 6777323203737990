import type tls from 'node:tls';
import { ConfigError } from '../core/errors.js';
import type { TlsOptions } from '../model/backend.js';

/** `execution.tls` as node's `tls.connect` (and so https/http2 agents, undici's connector, got) takes it. */
export type NodeTlsOptions = Pick<
  tls.ConnectionOptions,
  'ca' | 'cert' | 'key' | 'pfx' | 'passphrase' | 'rejectUnauthorized' | 'servername' | 'minVersion' | 'maxVersion' | 'ciphers'
>;

/** The options node would parse: what `createSecureContext` can refuse. */
const PARSED = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'ciphers'] as const;

// one conversion (and one check) per client's settings, however many agents and tunnels read them
const converted = new WeakMap<TlsOptions, NodeTlsOptions>();

/**
 * `execution.tls` in node's terms: Buffers where the contract allows any Uint8Array, only the
 * options that are set (so a spread never overrides a transport's own default with
 * `undefined`), `pins` left out (tls-pins.ts checks them). Certificates, keys, passphrase and
 * ciphers node cannot use are a `ConfigError` naming them (node-tls-checks.ts: when the client
 * is made), rather than a NetworkError on every connection.
 *
 * @example
 * new https.Agent({ keepAlive: true, ...nodeTls(options.tls) });
 */
export function nodeTls(settings: TlsOptions | undefined): NodeTlsOptions {
  if (settings === undefined) return {};
  let options = converted.get(settings);
  if (options === undefined) {
    options = usable(settings);
    converted.set(settings, options);
  }
  return options;
}

function usable(settings: TlsOptions): NodeTlsOptions {
  const bytes = (value: string | Uint8Array) => (typeof value === 'string' ? value : Buffer.from(value));
  const { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername, minVersion, maxVersion, ciphers } = settings;
  const options: NodeTlsOptions = {
    ca: ca === undefined ? undefined : typeof ca === 'string' || ca instanceof Uint8Array ? bytes(ca) : ca.map(bytes),
    cert: cert && bytes(cert),
    key: key && bytes(key),
    pfx: pfx && bytes(pfx),
    passphrase,
    rejectUnauthorized,
    servername,
    minVersion,
    maxVersion,
    ciphers,
  };
  for (const name of Object.keys(options) as Array<keyof NodeTlsOptions>) if (options[name] === undefined) delete options[name];
  // node skips what is not a PEM certificate in `ca` without a word: every connection would then fail as untrusted
  for (const one of ca === undefined ? [] : typeof ca === 'string' || ca instanceof Uint8Array ? [ca] : ca) {
    const text = typeof one === 'string' ? one : Buffer.from(one).toString('latin1');
    if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError("execution.tls.ca holds no PEM certificate ('-----BEGIN CERTIFICATE-----')");
  }
  const given = PARSED.filter((name) => options[name] !== undefined);
  if (given.length > 0) refusedBy(options, given);
  return Object.freeze(options);
}

/** Throws a ConfigError if node refuses these options (a bad PEM, a wrong passphrase, a key not the certificate's, no known cipher). */
function refusedBy(options: NodeTlsOptions, given: ReadonlyArray<(typeof PARSED)[number]>): void {
  // node:tls (and OpenSSL's setup) loaded here, when a client first sets execution.tls, not with the package
  const tls = process.getBuiltinModule('node:tls');
  try {
    if (options.ciphers !== undefined) tls.createSecureContext({ ciphers: options.ciphers });
  } catch (error) {
    throw new ConfigError(`execution.tls.ciphers names no cipher this node's OpenSSL has: ${(error as Error).message}`, { cause: error });
  }
  try {
    tls.createSecureContext(options);
  } catch (error) {
    // the passphrase is named, never shown
    throw new ConfigError(`execution.tls cannot be used (${given.join(', ')}): ${(error as Error).message}`, { cause: error });
  }
}
