import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { X509Certificate as X509 } from 'node:crypto';
import { PIN_MISMATCH, guardPins, spkiPin } from '../../../lib/backends/tls-pins.js';
import { selfSignedCertificate, type TlsCertificate } from '../../support/tls-certificate.js';
import { forgedLeaf, pinOf, tlsChain } from '../../support/tls-chain.js';

let certificate: TlsCertificate;
let server: tls.Server;
let port: number;
beforeAll(async () => {
  certificate = await selfSignedCertificate();
  server = tls.createServer({ key: certificate.key, cert: certificate.cert }, (socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** What a TLS connection to the server with these pins ends with: 'connected' or the error's code and message. */
function connect(pins: readonly string[], checked = true): Promise<string> {
  return new Promise((resolve) => {
    const options = checked ? { ca: certificate.cert } : { rejectUnauthorized: false };
    const socket = guardPins(tls.connect({ host: '127.0.0.1', port, servername: 'localhost', ...options }), new Set(pins), 'localhost');
    socket.once('secureConnect', () => socket.destroyed || (socket.destroy(), resolve('connected')));
    socket.once('error', (error: Error & { code?: string }) => resolve(`${error.code}: ${error.message}`));
  });
}

describe('execution.tls.pins: SPKI SHA-256 pins', () => {
  it("computes the pin openssl computes (curl's --pinnedpubkey recipe)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'pins-'));
    try {
      const pem = join(dir, 'cert.pem');
      writeFileSync(pem, certificate.cert);
      const pubkey = execFileSync('openssl', ['x509', '-in', pem, '-pubkey', '-noout']);
      const der = execFileSync('openssl', ['pkey', '-pubin', '-outform', 'der'], { input: pubkey });
      const digest = execFileSync('openssl', ['dgst', '-sha256', '-binary'], { input: der });
      expect(spkiPin(new X509(certificate.cert).raw)).toBe(digest.toString('base64'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("computes an EC key's pin as openssl does (node's pubkey is the bare point there, not the SPKI)", () => {
    const { leaf } = tlsChain();
    const pubkey = execFileSync('openssl', ['x509', '-pubkey', '-noout'], { input: leaf });
    const der = execFileSync('openssl', ['pkey', '-pubin', '-outform', 'der'], { input: pubkey });
    const digest = execFileSync('openssl', ['dgst', '-sha256', '-binary'], { input: der });
    expect(spkiPin(new X509(leaf).raw)).toBe(digest.toString('base64'));
  });

  it('connects when a pin matches the chain, among others that do not', async () => {
    const right = spkiPin(new X509(certificate.cert).raw);
    await expect(connect(['AAAA', right])).resolves.toBe('connected');
  });

  it('refuses when none matches, naming the pins and what the chain has', async () => {
    const outcome = await connect(['bm9uZQ==']);
    expect(outcome).toMatch(new RegExp(`^${PIN_MISMATCH}: the certificate of localhost matches none of execution.tls.pins \\(its chain: sha256//`));
  });

  it('refuses too when the chain is not checked (rejectUnauthorized: false), where node skips checkServerIdentity', async () => {
    const right = spkiPin(new X509(certificate.cert).raw);
    await expect(connect(['bm9uZQ=='], false)).resolves.toMatch(new RegExp(`^${PIN_MISMATCH}: `));
    await expect(connect([right], false)).resolves.toBe('connected');
  });

  it("refuses an impostor's leaf that claims the pinned intermediate as its issuer (node links by name: the signature decides)", async () => {
    const chain = tlsChain();
    const impostor = forgedLeaf();
    const forged = tls.createServer({ key: impostor.key, cert: impostor.cert + chain.intermediate }, (socket) => socket.end());
    await new Promise<void>((resolve) => forged.listen(0, '127.0.0.1', resolve));
    try {
      const outcome = await new Promise<string>((resolve) => {
        const options = { host: '127.0.0.1', port: (forged.address() as AddressInfo).port, servername: 'localhost', rejectUnauthorized: false };
        const socket = guardPins(tls.connect(options), new Set([pinOf(chain.intermediate)]), 'localhost');
        socket.once('secureConnect', () => socket.destroyed || (socket.destroy(), resolve('connected')));
        socket.once('error', (error: Error & { code?: string }) => resolve(`${error.code}: ${error.message}`));
      });
      expect(outcome).toMatch(new RegExp(`^${PIN_MISMATCH}: `));
    } finally {
      await new Promise((resolve) => forged.close(resolve));
    }
    // the forged certificate is made by openssl in the test: seconds on a busy machine
  }, 30_000);
});
