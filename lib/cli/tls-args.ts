import { UsageError } from './failure.js';

/** The TLS options of the command line, as curl spells them; the files are read later (tls-files.ts). */
export interface CliTlsFlags {
  /** `--cacert <file>`: PEM certificates trusted instead of the system's. */
  readonly cacert: string | undefined;
  /** `--cert <file[:password]>`: the client certificate (PEM, with or without its key, or PKCS#12). */
  readonly cert: string | undefined;
  /** `--cert-type PEM|P12`: how to read `--cert` (by default: PEM when the file is PEM text, else PKCS#12). */
  readonly certType: 'PEM' | 'P12' | undefined;
  /** `--key <file>`: the PEM private key of `--cert`. */
  readonly key: string | undefined;
  /** `--pass <phrase>` or the password of `--cert file:password`: never printed. */
  readonly passphrase: string | undefined;
  /** `--pinnedpubkey`: curl's `sha256//<base64>` digests (any one must match), or a public key file. */
  readonly pins: { readonly from: 'digests'; readonly digests: readonly string[] } | { readonly from: 'file'; readonly path: string } | undefined;
}

/** What parseArgs gave for the TLS options, each at most once. */
export interface TlsFlagValues {
  readonly cacert: string | undefined;
  readonly cert: string | undefined;
  readonly certType: string | undefined;
  readonly key: string | undefined;
  readonly pass: string | undefined;
  readonly pinnedpubkey: string | undefined;
}

/** A SHA-256 digest in base64: 32 bytes are 43 characters and one `=`. */
const DIGEST = /^[A-Za-z0-9+/]{43}=$/;
const PIN_PREFIX = 'sha256//';

/**
 * Reads the TLS options as curl does: `--cert file:password` (a `\:` in the file name is a
 * colon, `\\` a backslash), `--pass`, `--cert-type PEM|P12`, `--pinnedpubkey
 * 'sha256//a;sha256//b'` or a public key file. Checks what can be checked without reading a file.
 *
 * @throws {UsageError} naming the flag; never showing a password.
 * @example
 * tlsFlags({ cert: 'client.pem:s3cret', ... }); // { cert: 'client.pem', passphrase: 's3cret', ... }
 */
export function tlsFlags(values: TlsFlagValues): CliTlsFlags {
  const cert = values.cert === undefined ? undefined : certAndPassword(values.cert);
  if (cert?.password !== undefined && values.pass !== undefined)
    throw new UsageError('the passphrase is given twice: use --cert <file>:<password> or --pass <phrase>, not both');
  if (values.key !== undefined && cert === undefined) throw new UsageError('--key is the key of a client certificate: give the certificate with --cert <file>');
  if (values.pass === '') throw new UsageError('--pass needs a passphrase');
  return {
    cacert: fileName(values.cacert, '--cacert'),
    cert: cert?.path,
    certType: certType(values.certType),
    key: fileName(values.key, '--key'),
    passphrase: cert?.password ?? values.pass,
    pins: pins(values.pinnedpubkey),
  };
}

/** `file`, `file:password`; `\:` and `\\` escape a colon and a backslash in the file name (curl's rule). */
function certAndPassword(text: string): { path: string; password: string | undefined } {
  let path = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\' && (text[i + 1] === ':' || text[i + 1] === '\\')) path += text[++i];
    else if (char === ':') return { path: fileName(path, '--cert')!, password: text.slice(i + 1) };
    else path += char;
  }
  return { path: fileName(path, '--cert')!, password: undefined };
}

function certType(text: string | undefined): CliTlsFlags['certType'] {
  if (text === undefined) return undefined;
  const type = text.toUpperCase();
  if (type === 'PEM' || type === 'P12') return type;
  throw new UsageError(`--cert-type expects PEM or P12, got '${text}'`);
}

/** curl's `sha256//a;sha256//b` (any one matching), else the name of a public key file. */
function pins(text: string | undefined): CliTlsFlags['pins'] {
  if (text === undefined) return undefined;
  if (!text.startsWith(PIN_PREFIX)) return { from: 'file', path: fileName(text, '--pinnedpubkey')! };
  const digests = text.split(';').map((pin) => {
    const digest = pin.trim();
    if (!digest.startsWith(PIN_PREFIX) || !DIGEST.test(digest.slice(PIN_PREFIX.length)))
      throw new UsageError(`--pinnedpubkey expects sha256//<base64 SHA-256 digest> (44 characters ending in '='), ';'-separated, got '${pin}'`);
    return digest.slice(PIN_PREFIX.length);
  });
  return { from: 'digests', digests };
}

function fileName(text: string | undefined, option: string): string | undefined {
  if (text === '') throw new UsageError(`${option} needs a file name`);
  return text;
}
