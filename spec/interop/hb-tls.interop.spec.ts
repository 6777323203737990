// hb's TLS flags cross-checked against curl: the same flags, given to curl and to hb against the
// same local servers (one that asks for alice's client certificate, one for which a certificate
// is optional), agree on success, on the class of failure (bad input vs. refused connection),
// and on what the server saw (the client certificate's CN, the HTTP version).
import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { runHb } from '../cli/support/run-hb.js';
import { PASSPHRASE, useTlsSetup, type MutualServer } from '../cli/support/tls-fixtures.js';

type Outcome = 'ok' | 'bad input' | 'refused';

/** What one client's run came to: its outcome, the body, and what the server saw of it. */
interface Run {
  readonly outcome: Outcome;
  readonly body: string;
  readonly seen: readonly string[];
}

// curl's exit codes for input it could not use: 2 bad option, 26 read error, 58 local certificate
// problem (a wrong passphrase included), 77 CA file problem. Any other failure is a refused connection.
const CURL_BAD_INPUT: ReadonlySet<number> = new Set([2, 26, 58, 77]);

function curl(args: readonly string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile('curl', ['-sS', '--max-time', '10', ...args], { timeout: 20_000 }, (error, stdout) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout });
    });
  });
}

const tls = useTlsSetup();

/** Runs `client` with `args` against `server`, and what the server saw meanwhile. */
async function observe(server: MutualServer, client: 'curl' | 'hb', args: readonly string[]): Promise<Run> {
  const before = server.seen.length;
  let outcome: Outcome;
  let body: string;
  if (client === 'curl') {
    // curl's default over https is HTTP/2 where it has nghttp2; hb's is HTTP/1.1 unless --http2
    const version = args.includes('--http2') ? [] : ['--http1.1'];
    const result = await curl([...version, ...args, server.url]);
    outcome = result.code === 0 ? 'ok' : CURL_BAD_INPUT.has(result.code) ? 'bad input' : 'refused';
    body = result.stdout;
  } else {
    const result = await runHb(tls.cli, ['get', server.url, ...args]);
    outcome = result.code === 0 ? 'ok' : result.code === 2 ? 'bad input' : 'refused';
    body = result.stdout.toString('utf8');
    // hb's failures are one line, without the passphrase
    if (result.code !== 0) expect(result.stderr).toMatch(/^hb: [^\n]+\n$/);
    expect(result.stderr).not.toContain(PASSPHRASE);
  }
  return { outcome, body, seen: server.seen.slice(before) };
}

/** Both clients' runs with the same flags; each must agree, and match what is expected. */
async function agree(server: MutualServer, args: () => string[], expected: Run): Promise<void> {
  const [byCurl, byHb] = [await observe(server, 'curl', args()), await observe(server, 'hb', args())];
  expect({ curl: byCurl, hb: byHb }).toEqual({ curl: expected, hb: expected });
}

const ok = (line: string): Run => ({ outcome: 'ok', body: line, seen: [line] });
const failed = (outcome: Outcome): Run => ({ outcome, body: '', seen: [] });

describe('hb and curl agree on the TLS flags', () => {
  describe('--cacert and -k', () => {
    it('the server certified by the file', () => agree(tls.optional, () => ['--cacert', tls.files.serverCa], ok('- HTTP/1.1')));
    it('a bundle holding it among others', () => agree(tls.optional, () => ['--cacert', tls.files.bundle], ok('- HTTP/1.1')));
    it('another CA only: refused', () => agree(tls.optional, () => ['--cacert', tls.files.otherCa], failed('refused')));
    it('no CA for a self-signed server: refused', () => agree(tls.optional, () => [], failed('refused')));
    it('-k: no checks', () => agree(tls.optional, () => ['-k'], ok('- HTTP/1.1')));
    it('a CA file that is not there: bad input', () => agree(tls.optional, () => ['--cacert', `${tls.files.dir}/missing.pem`], failed('bad input')));
  });

  describe('--cert, --key, --pass, --cert-type', () => {
    const trust = () => ['--cacert', tls.files.serverCa];
    it('certificate and key apart', () =>
      agree(tls.required, () => [...trust(), '--cert', tls.files.aliceCert, '--key', tls.files.aliceKey], ok('alice HTTP/1.1')));
    it('certificate and key in one PEM file', () => agree(tls.required, () => [...trust(), '--cert', tls.files.aliceBoth], ok('alice HTTP/1.1')));
    it('PKCS#12 with its password after a colon', () =>
      agree(tls.required, () => [...trust(), '--cert-type', 'P12', '--cert', `${tls.files.aliceP12}:${PASSPHRASE}`], ok('alice HTTP/1.1')));
    it('PKCS#12 with --pass', () =>
      agree(tls.required, () => [...trust(), '--cert-type', 'P12', '--cert', tls.files.aliceP12, '--pass', PASSPHRASE], ok('alice HTTP/1.1')));
    it('an encrypted key with --pass', () =>
      agree(tls.required, () => [...trust(), '--cert', tls.files.aliceCert, '--key', tls.files.aliceKeyEncrypted, '--pass', PASSPHRASE], ok('alice HTTP/1.1')));
    it('a wrong passphrase: bad input', () =>
      agree(
        tls.required,
        () => [...trust(), '--cert', tls.files.aliceCert, '--key', tls.files.aliceKeyEncrypted, '--pass', 'wrong-phrase'],
        failed('bad input'),
      ));
    it('a certificate file that is not there: bad input', () =>
      agree(tls.required, () => [...trust(), '--cert', `${tls.files.dir}/nope.pem`], failed('bad input')));
    it('no certificate for a server that requires one: refused', () => agree(tls.required, () => trust(), failed('refused')));
    it('a certificate where it is optional: the server sees it', () =>
      agree(tls.optional, () => [...trust(), '--cert', tls.files.aliceBoth], ok('alice HTTP/1.1')));
  });

  describe('--pinnedpubkey', () => {
    it('the right pin with -k', () => agree(tls.optional, () => ['-k', '--pinnedpubkey', tls.files.serverPin], ok('- HTTP/1.1')));
    it('the right pin with --cacert', () =>
      agree(tls.optional, () => ['--cacert', tls.files.serverCa, '--pinnedpubkey', tls.files.serverPin], ok('- HTTP/1.1')));
    it('a wrong pin: refused, also with -k', () => agree(tls.optional, () => ['-k', '--pinnedpubkey', tls.files.otherPin], failed('refused')));
    it('one of two', () => agree(tls.optional, () => ['-k', '--pinnedpubkey', `${tls.files.otherPin};${tls.files.serverPin}`], ok('- HTTP/1.1')));
    it('a PEM public key file', () => agree(tls.optional, () => ['-k', '--pinnedpubkey', tls.files.serverPubPem], ok('- HTTP/1.1')));
    it('a DER public key file', () => agree(tls.optional, () => ['-k', '--pinnedpubkey', tls.files.serverPubDer], ok('- HTTP/1.1')));
    it('another public key file: refused', () => agree(tls.optional, () => ['-k', '--pinnedpubkey', tls.files.otherPubPem], failed('refused')));
    it('a value it cannot use: curl connects and fails (exit 90), hb refuses before connecting (exit 2); neither sends a request', async () => {
      const before = tls.optional.seen.length;
      for (const value of ['sha256//not-a-digest', tls.files.serverCa, `${tls.files.dir}/missing.pem`]) {
        const [byCurl, byHb] = [
          await curl(['-k', '--pinnedpubkey', value, tls.optional.url]),
          await runHb(tls.cli, ['get', tls.optional.url, '-k', '--pinnedpubkey', value]),
        ];
        expect([value, byCurl.code, byHb.code, byHb.stderr]).toEqual([value, 90, 2, expect.stringMatching(/^hb: --pinnedpubkey/)]);
      }
      expect(tls.optional.seen.length).toBe(before);
    });
    it('with a client certificate', () =>
      agree(tls.required, () => ['--cacert', tls.files.serverCa, '--cert', tls.files.aliceBoth, '--pinnedpubkey', tls.files.serverPin], ok('alice HTTP/1.1')));
  });

  describe('--http2', () => {
    it("without it hb stays on HTTP/1.1, where curl's default is HTTP/2", async () => {
      const before = tls.optional.seen.length;
      expect(await curl(['--cacert', tls.files.serverCa, tls.optional.url])).toEqual({ code: 0, stdout: '- HTTP/2.0' });
      expect((await runHb(tls.cli, ['get', tls.optional.url, '--cacert', tls.files.serverCa])).stdout.toString('utf8')).toBe('- HTTP/1.1');
      expect(tls.optional.seen.slice(before)).toEqual(['- HTTP/2.0', '- HTTP/1.1']);
    });

    it('HTTP/2 by ALPN', () => agree(tls.optional, () => ['--cacert', tls.files.serverCa, '--http2'], ok('- HTTP/2.0')));
    it('with a client certificate and a pin', () =>
      agree(
        tls.required,
        () => ['--cacert', tls.files.serverCa, '--http2', '--cert', tls.files.aliceBoth, '--pinnedpubkey', tls.files.serverPin],
        ok('alice HTTP/2.0'),
      ));
  });
});
