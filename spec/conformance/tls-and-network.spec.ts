import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { inspect } from 'node:util';
import { HttpBuilder, NetworkError } from '../../lib/index.js';
import { TestServer } from '../support/test-server.js';
import { BACKENDS } from './backends.js';

describe('TLS and network failures', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.start();
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  for (const backend of BACKENDS) {
    describe(backend.name, () => {
      const clientFor = (url: string, tls?: { ca?: string; rejectUnauthorized?: boolean }) =>
        HttpBuilder.configure((c) => {
          c.request.uri = url;
          c.client.backend = backend.choice;
          if (tls) c.execution.tls = tls;
        });

      it('a self-signed server is rejected without ca, with a NetworkError naming TLS', async () => {
        server.expect({ method: 'GET', path: '/tls', respond: { body: 'ok' } });
        const client = clientFor(server.httpsUrl);
        try {
          const error = (await client.get((c) => void (c.request.uri.path = '/tls')).catch((e: unknown) => e)) as NetworkError;
          expect(error).toBeInstanceOf(NetworkError);
          expect([error.code, error.reason]).toEqual(['ERR_NETWORK', 'tls']);
          expect(error.message).toMatch(/self-signed certificate.*execution\.tls\.ca/);
          expect(error.cause).toBeDefined();
          expect(server.requests).toHaveLength(0);
        } finally {
          await client.close();
        }
      });

      it('the private CA given as execution.tls.ca is trusted', async () => {
        server.expect({ method: 'GET', path: '/tls', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'trusted' } });
        const client = clientFor(server.httpsUrl, { ca: server.ca });
        try {
          expect(await client.get((c) => void (c.request.uri.path = '/tls'))).toBe('trusted');
        } finally {
          await client.close();
        }
      });

      it('a CA that did not sign the certificate is rejected', async () => {
        const other = await import('node:tls').then((tls) => tls.rootCertificates[0]);
        const client = clientFor(server.httpsUrl, { ca: other });
        try {
          await expect(client.get()).rejects.toMatchObject({ name: 'NetworkError', reason: 'tls' });
        } finally {
          await client.close();
        }
      });

      it('https to a plain-HTTP port is a NetworkError naming TLS (a retry would not fix it)', async () => {
        const client = clientFor(server.httpUrl.replace(/^http:/, 'https:'), { ca: server.ca });
        try {
          await expect(client.get()).rejects.toMatchObject({ name: 'NetworkError', reason: 'tls' });
          expect(server.requests).toHaveLength(0);
        } finally {
          await client.close();
        }
      });

      it('rejectUnauthorized: false turns the check off (explicitly)', async () => {
        server.expect({ method: 'GET', path: '/tls', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'unchecked' } });
        const client = clientFor(server.httpsUrl, { rejectUnauthorized: false });
        try {
          expect(await client.get((c) => void (c.request.uri.path = '/tls'))).toBe('unchecked');
        } finally {
          await client.close();
        }
      });

      it('no credential reaches the error, its cause chain, inspect or JSON', async () => {
        const closed = await TestServer.start();
        await closed.close();
        const client = clientFor(closed.httpsUrl);
        try {
          const error = await client
            .get((c) => {
              c.request.headers.Authorization = 'Basic c2VjcmV0LXRva2Vu';
              c.request.cookies = { session: 'cookie-secret' };
            })
            .catch((e: unknown) => e);
          expect(error).toBeInstanceOf(NetworkError);
          for (const text of [inspect(error, { depth: 10, showHidden: true }), JSON.stringify(error)]) {
            expect(text).not.toMatch(/c2VjcmV0LXRva2Vu|cookie-secret/);
          }
        } finally {
          await client.close();
        }
      });

      // each transport read them its own way: a TypeError while the client was made, or a NetworkError on every request
      it.each([
        [{ ca: 123 }, /^execution.tls.ca must be PEM text or bytes, or a list of them, not a number/],
        [{ ca: ['pem', 5] }, /^execution.tls.ca must be PEM text or bytes, or a list of them, not an array/],
        [{ cert: {} }, /^execution.tls.cert must be PEM text or bytes, not an object/],
        [{ servername: 5 }, /^execution.tls.servername must be a string, not a number/],
        [{ rejectUnauthorized: 'false' }, /^execution.tls.rejectUnauthorized must be true or false, not a string/],
        [{ pfx: 'client.p12' }, /^execution.tls.pfx must be the bytes of a PKCS#12 file \(a Uint8Array, e.g. fs.readFileSync\('client.p12'\)\), not a string/],
        [{ pfx: new Uint8Array(4), key: 'pem' }, /^execution.tls.pfx holds the certificate and its key: give either pfx or cert and key, not both/],
        [{ passphrase: 1234 }, /^execution.tls.passphrase must be a string, not a number$/],
        [{ minVersion: 'TLS1.3' }, /^execution.tls.minVersion must be one of 'TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3', not a string \("TLS1.3"\)/],
        [{ minVersion: 'TLSv1.3', maxVersion: 'TLSv1.2' }, /^execution.tls.minVersion 'TLSv1.3' is newer than maxVersion 'TLSv1.2': no TLS version is left/],
        [{ ciphers: ' ' }, /^execution.tls.ciphers must be an OpenSSL cipher list/],
        [{ pins: [] }, /^execution.tls.pins must be a non-empty list of base64 SHA-256 digests, not an array/],
        [{ pins: `sha256//${'A'.repeat(43)}=` }, /^execution.tls.pins must be a non-empty list of base64 SHA-256 digests, not a string/],
        [{ pins: [`sha256//${'A'.repeat(43)}=`] }, /^execution.tls.pins\[0\] is 'sha256\/\/A+=': give the digest without curl's 'sha256\/\/' prefix/],
        [
          { pins: [`${'A'.repeat(43)}=`, 'abc'] },
          /^execution.tls.pins\[1\] must be the base64 SHA-256 digest of a public key \(44 characters ending in '='\), not a string \("abc"\)/,
        ],
        [
          { rejectUnauthorised: false },
          /^execution.tls has no option 'rejectUnauthorised' \(known: ca, cert, key, pfx, passphrase, rejectUnauthorized, servername, minVersion, maxVersion, ciphers, pins\)/,
        ],
      ])('execution.tls %j is a ConfigError when the client is made', (tls, message) => {
        expect(() =>
          HttpBuilder.configure((c) => {
            c.client.backend = backend.choice;
            c.execution.tls = tls as never;
          }),
        ).toThrow(expect.objectContaining({ name: 'ConfigError', message: expect.stringMatching(message) }));
      });

      it('a refused connection rejects with NetworkError reason refused', async () => {
        const closed = await TestServer.start();
        await closed.close();
        const client = clientFor(closed.httpUrl);
        try {
          const error = (await client.get().catch((e: unknown) => e)) as NetworkError;
          expect(error).toBeInstanceOf(NetworkError);
          expect(error.reason).toBe('refused');
          expect(error.message).toContain(closed.httpUrl);
        } finally {
          await client.close();
        }
      });

      it("a transport error's message hides credential-like query values, as the log does", async () => {
        const closed = await TestServer.start();
        await closed.close();
        const client = clientFor(`${closed.httpUrl}/x?page=2&access_token=Sup3rS3cretPW`);
        try {
          const error = (await client.get().catch((e: unknown) => e)) as NetworkError;
          expect(error).toBeInstanceOf(NetworkError);
          expect(error.message).toContain('/x?page=2&access_token=***');
          expect(inspect(error, { depth: 10, showHidden: true })).not.toContain('Sup3rS3cretPW');
        } finally {
          await client.close();
        }
      });
    });
  }
});
