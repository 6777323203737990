// Certificates and servers for hb's TLS flags, made at test time with the openssl command (as a
// user would make them), shared by spec/cli/hb-tls.spec.ts and the curl cross-check in
// spec/interop/hb-tls.interop.spec.ts.
import { afterAll, beforeAll } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http2 from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { promisify } from 'node:util';
import { selfSignedCertificate } from '../../support/tls-certificate.js';
import { builtCli } from './built-cli.js';

const run = promisify(execFile);

/** The passphrase of the encrypted key and of the PKCS#12 file. */
export const PASSPHRASE = 'correct-horse-battery';

/** Files in a temporary folder, named for what they hold. */
export interface TlsFiles {
  readonly dir: string;
  /** the server's certificate (its own CA) */
  readonly serverCa: string;
  /** another self-signed certificate: trusts nothing the servers show */
  readonly otherCa: string;
  /** a CERTIFICATE block that is no certificate */
  readonly brokenCa: string;
  /** otherCa and serverCa in one file */
  readonly bundle: string;
  /** alice's client certificate, and its key apart, in one file, encrypted, and as PKCS#12 */
  readonly aliceCert: string;
  readonly aliceKey: string;
  readonly aliceBoth: string;
  readonly aliceKeyEncrypted: string;
  readonly aliceP12: string;
  /** the server's public key, PEM and DER (curl's --pinnedpubkey file forms) */
  readonly serverPubPem: string;
  readonly serverPubDer: string;
  /** another public key (PEM) */
  readonly otherPubPem: string;
  /** `sha256//...` of the server's key, computed with the openssl pipeline docs/cli.md shows */
  readonly serverPin: string;
  /** `sha256//...` of another key */
  readonly otherPin: string;
  remove(): void;
}

async function openssl(...args: string[]): Promise<void> {
  await run('openssl', args, { timeout: 30_000 });
}

/** The documented pin recipe: `openssl x509 -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`. */
async function pinOf(certFile: string): Promise<string> {
  const pipeline = `openssl x509 -in "$0" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`;
  const { stdout } = await run('sh', ['-c', pipeline, certFile], { timeout: 30_000 });
  return `sha256//${stdout.trim()}`;
}

/** Writes every file of {@link TlsFiles} for a server whose certificate is `serverCert`. */
export async function makeTlsFiles(serverCert: string): Promise<TlsFiles> {
  const dir = mkdtempSync(join(tmpdir(), 'hb-tls-'));
  const at = (name: string) => join(dir, name);
  writeFileSync(at('server-ca.pem'), serverCert);
  const selfSigned = (name: string, cn: string) =>
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', at(`${name}-key.pem`), '-out', at(`${name}.pem`), '-subj', `/CN=${cn}`, '-days', '2');
  await Promise.all([selfSigned('other', 'other'), selfSigned('alice', 'alice')]);
  writeFileSync(at('broken-ca.pem'), '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n');
  writeFileSync(at('bundle.pem'), readFileSync(at('other.pem'), 'utf8') + serverCert);
  writeFileSync(at('alice-both.pem'), readFileSync(at('alice.pem'), 'utf8') + readFileSync(at('alice-key.pem'), 'utf8'));
  await Promise.all([
    openssl('pkey', '-in', at('alice-key.pem'), '-aes256', '-passout', `pass:${PASSPHRASE}`, '-out', at('alice-key-enc.pem')),
    openssl('pkcs12', '-export', '-in', at('alice.pem'), '-inkey', at('alice-key.pem'), '-passout', `pass:${PASSPHRASE}`, '-out', at('alice.p12')),
    openssl('x509', '-in', at('server-ca.pem'), '-pubkey', '-noout', '-out', at('server-pub.pem')),
    openssl('x509', '-in', at('other.pem'), '-pubkey', '-noout', '-out', at('other-pub.pem')),
  ]);
  await openssl('pkey', '-pubin', '-in', at('server-pub.pem'), '-outform', 'der', '-out', at('server-pub.der'));
  const [serverPin, otherPin] = await Promise.all([pinOf(at('server-ca.pem')), pinOf(at('other.pem'))]);
  return {
    dir,
    serverCa: at('server-ca.pem'),
    otherCa: at('other.pem'),
    brokenCa: at('broken-ca.pem'),
    bundle: at('bundle.pem'),
    aliceCert: at('alice.pem'),
    aliceKey: at('alice-key.pem'),
    aliceBoth: at('alice-both.pem'),
    aliceKeyEncrypted: at('alice-key-enc.pem'),
    aliceP12: at('alice.p12'),
    serverPubPem: at('server-pub.pem'),
    serverPubDer: at('server-pub.der'),
    otherPubPem: at('other-pub.pem'),
    serverPin,
    otherPin,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A server that asks for a client certificate (alice's) and answers `<CN> HTTP/<version>`;
 * `optional`: a client without one is answered too, as `- HTTP/<version>`.
 */
export interface MutualServer {
  readonly url: string;
  /** what each request was answered with, in order */
  readonly seen: string[];
  close(): Promise<void>;
}

/** Starts a {@link MutualServer} on 127.0.0.1 (HTTP/1.1 and h2) with the server's key and certificate. */
export async function startMutualServer(server: { key: string; cert: string }, clientCa: string, optional = false): Promise<MutualServer> {
  const seen: string[] = [];
  const options = { ...server, allowHTTP1: true, requestCert: true, rejectUnauthorized: !optional, ca: clientCa };
  const listener = http2.createSecureServer(options, (req, res) => {
    const socket = req.socket as TLSSocket;
    const line = `${socket.authorized ? String(socket.getPeerCertificate().subject.CN) : '-'} HTTP/${req.httpVersion}`;
    seen.push(line);
    // cacheable for its client alone: hb --cache must keep it from a client without the certificate
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'private, max-age=60' });
    res.end(line);
  });
  const sockets = new Set<Socket>();
  listener.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(listener.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        listener.close(() => resolve());
      }),
  };
}

/** What {@link useTlsSetup} makes: the built hb, the files, and two servers with the test server's certificate. */
export interface TlsSetup {
  readonly cli: string;
  readonly files: TlsFiles;
  /** requires alice's certificate */
  readonly required: MutualServer;
  /** takes alice's certificate, or none */
  readonly optional: MutualServer;
}

/**
 * Jest helper: builds hb, writes the files and starts both servers in `beforeAll`, and stops
 * and removes them in `afterAll`. Read the holder's fields inside tests.
 */
export function useTlsSetup(): TlsSetup {
  const setup: { -readonly [K in keyof TlsSetup]?: TlsSetup[K] } = {};
  beforeAll(async () => {
    const server = await selfSignedCertificate();
    const [cli, files] = await Promise.all([builtCli(), makeTlsFiles(server.cert)]);
    const alice = readFileSync(files.aliceCert, 'utf8');
    Object.assign(setup, { cli, files }, { required: await startMutualServer(server, alice), optional: await startMutualServer(server, alice, true) });
  }, 180_000);
  afterAll(async () => {
    await Promise.all([setup.required?.close(), setup.optional?.close()]);
    setup.files?.remove();
  });
  return setup as TlsSetup;
}
