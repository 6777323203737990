import { createHash, createPublicKey, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { nodeTls } from '../backends/node-tls.js';
import type { TlsOptions } from '../model/backend.js';
import { errorCode, UsageError } from './failure.js';
import type { CliTlsFlags } from './tls-args.js';

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----\r?\n?/g;
// PRIVATE KEY, RSA PRIVATE KEY, EC PRIVATE KEY, ENCRYPTED PRIVATE KEY
const KEY_LABEL = /PRIVATE KEY$/;

/**
 * `execution.tls` for the TLS options of the command line (undefined when there are none), the
 * files read as curl reads them: `--cacert` PEM certificates (they replace the system's CAs),
 * `--cert` a PEM certificate (its key in the same file or in `--key`) or a PKCS#12 file, and
 * `--pinnedpubkey` digests or a public key file (PEM or DER). Whether node can use the
 * certificates and keys is checked here, so that a wrong passphrase is a usage error naming the
 * flags, before anything is sent.
 *
 * @throws {UsageError} naming the flag and the file; never showing the passphrase.
 * @example
 * await loadTls(flags, false); // { ca: '-----BEGIN CERTIFICATE-----...', pins: ['n3qR...='] }
 */
export async function loadTls(flags: CliTlsFlags, insecure: boolean): Promise<TlsOptions | undefined> {
  const tls: { -readonly [K in keyof TlsOptions]: TlsOptions[K] } = {};
  if (insecure) tls.rejectUnauthorized = false;
  if (flags.cacert !== undefined) tls.ca = await caCertificates(flags.cacert);
  if (flags.cert !== undefined) Object.assign(tls, await clientCertificate(flags.cert, flags));
  if (flags.pins !== undefined) tls.pins = flags.pins.from === 'digests' ? flags.pins.digests : [await publicKeyPin(flags.pins.path)];
  if (Object.keys(tls).length === 0) return undefined;
  usableByNode(tls, flags);
  return tls;
}

async function read(path: string, option: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    throw new UsageError(`${option}: cannot read '${path}' (${errorCode(error)})`);
  }
}

/** The PEM blocks of `bytes` by label, or undefined when it is not PEM text. */
function pemBlocks(bytes: Buffer): Array<{ label: string; text: string }> | undefined {
  const text = bytes.toString('latin1');
  const blocks = [...text.matchAll(PEM_BLOCK)].map(([block, label]) => ({ label, text: block }));
  return blocks.length === 0 ? undefined : blocks;
}

async function caCertificates(path: string): Promise<string> {
  const certificates = (pemBlocks(await read(path, '--cacert')) ?? []).filter((block) => block.label === 'CERTIFICATE');
  // node would quietly trust nothing (every server refused) rather than say so
  if (certificates.length === 0) throw new UsageError(`--cacert: '${path}' holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  // node skips a block it cannot read as quietly
  certificates.forEach((block, index) => {
    try {
      new X509Certificate(block.text);
    } catch (error) {
      throw new UsageError(`--cacert: certificate ${index + 1} of '${path}' cannot be read (${(error as Error).message})`);
    }
  });
  return certificates.map((block) => block.text).join('');
}

/** `cert` and `key`, or `pfx`, with the passphrase. */
async function clientCertificate(path: string, flags: CliTlsFlags): Promise<Pick<TlsOptions, 'cert' | 'key' | 'pfx' | 'passphrase'>> {
  const bytes = await read(path, '--cert');
  const blocks = pemBlocks(bytes);
  const passphrase = flags.passphrase === undefined ? {} : { passphrase: flags.passphrase };
  if (flags.certType === 'P12' || (flags.certType === undefined && blocks === undefined)) {
    if (flags.key !== undefined) throw new UsageError(`--cert: '${path}' is a PKCS#12 file, which holds the key itself: drop --key`);
    return { pfx: bytes, ...passphrase };
  }
  const certificates = (blocks ?? []).filter((block) => block.label === 'CERTIFICATE');
  if (certificates.length === 0) throw new UsageError(`--cert: '${path}' holds no PEM certificate (for a PKCS#12 file, --cert-type P12)`);
  const key = privateKey(flags.key === undefined ? (blocks ?? []) : (pemBlocks(await read(flags.key, '--key')) ?? []));
  if (key === undefined)
    throw new UsageError(
      flags.key === undefined ? `--cert: '${path}' holds no private key: give it with --key <file>` : `--key: '${flags.key}' holds no PEM private key`,
    );
  if (flags.passphrase === undefined && isEncrypted(key))
    throw new UsageError(`${flags.key === undefined ? '--cert' : '--key'}: the private key is encrypted: give its passphrase with --pass <phrase>`);
  return { cert: certificates.map((block) => block.text).join(''), key, ...passphrase };
}

function privateKey(blocks: ReadonlyArray<{ label: string; text: string }>): string | undefined {
  return blocks.find((block) => KEY_LABEL.test(block.label))?.text;
}

/** PKCS#8 `ENCRYPTED PRIVATE KEY`, or a traditional key with `Proc-Type: 4,ENCRYPTED`. */
function isEncrypted(key: string): boolean {
  return key.startsWith('-----BEGIN ENCRYPTED') || /^Proc-Type: 4,ENCRYPTED/m.test(key);
}

/**
 * curl's other `--pinnedpubkey` form: a public key file, PEM (`-----BEGIN PUBLIC KEY-----`) or
 * DER, pinned by its SPKI SHA-256 digest. A certificate or a private key is refused, as curl
 * refuses them (where curl fails after connecting, exit 90, hb says so before).
 */
async function publicKeyPin(path: string): Promise<string> {
  const bytes = await read(path, '--pinnedpubkey');
  const blocks = pemBlocks(bytes);
  const publicKey = blocks?.find((block) => block.label === 'PUBLIC KEY');
  if (blocks !== undefined && publicKey === undefined) {
    const held = blocks.some((block) => block.label === 'CERTIFICATE') ? 'a certificate' : `a ${blocks[0].label.toLowerCase()}`;
    throw new UsageError(`--pinnedpubkey: '${path}' holds ${held}, not a public key (openssl x509 -in <cert> -pubkey -noout gives the key of a certificate)`);
  }
  try {
    const key = publicKey === undefined ? createPublicKey({ key: bytes, format: 'der', type: 'spki' }) : createPublicKey(publicKey.text);
    return createHash('sha256')
      .update(key.export({ type: 'spki', format: 'der' }))
      .digest('base64');
  } catch {
    throw new UsageError(`--pinnedpubkey: '${path}' is neither sha256//<digest> nor a public key file (PEM or DER)`);
  }
}

/** Node's verdict on the certificates and keys now (as the transports will convert them), in the flags' names. */
function usableByNode(tls: TlsOptions, flags: CliTlsFlags): void {
  if (flags.cert === undefined) return;
  const given = [`--cert '${flags.cert}'`, flags.key !== undefined && `--key '${flags.key}'`, flags.passphrase !== undefined && 'the passphrase'];
  try {
    nodeTls(tls);
  } catch (error) {
    // OpenSSL's reason ('bad decrypt', 'mac verify failure', 'key values mismatch') never holds the passphrase
    const reason = ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message;
    throw new UsageError(`${given.filter(Boolean).join(', ')}: node cannot use them (${reason})`);
  }
}
