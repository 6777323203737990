// hb's TLS flags as curl reads them: --cacert, --cert/--key/--pass/--cert-type, --pinnedpubkey,
// --http2, and the error hints naming the flags, against HTTPS servers on 127.0.0.1 with
// certificates made by openssl at test time.
import { describe, expect, it } from '@jest/globals';
import { copyFileSync } from 'node:fs';
import { ProxyServer } from '../support/proxy-server.js';
import { useTestServer } from '../support/use-test-server.js';
import { runHb, type HbResult } from './support/run-hb.js';
import { PASSPHRASE, useTlsSetup } from './support/tls-fixtures.js';

const holder = useTestServer();
const tls = useTlsSetup();

function hb(...args: string[]): Promise<HbResult> {
  return runHb(tls.cli, args);
}

/** exit code, stdout and stderr in one object, so that a failure shows all three. */
function outcome(result: HbResult): { code: number | null; stdout: string; stderr: string } {
  return { code: result.code, stdout: result.stdout.toString('utf8'), stderr: result.stderr };
}

/** With `args`, the server's pin lets alice in and another pin is refused, naming the server's. */
async function expectPinned(args: readonly string[]): Promise<void> {
  const pinned = await hb('get', tls.required.url, ...args, '--pinnedpubkey', tls.files.serverPin);
  expect(outcome(pinned)).toEqual({ code: 0, stdout: 'alice HTTP/1.1', stderr: '' });
  const refused = outcome(await hb('get', tls.required.url, ...args, '--pinnedpubkey', tls.files.otherPin));
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(`matches none of --pinnedpubkey (its chain: ${tls.files.serverPin})`);
}

function ok(path: string): string {
  holder.server.expect({ method: 'GET', path, respond: { headers: { 'Content-Type': 'text/plain' }, body: 'trusted' } });
  return `${holder.server.httpsUrl}${path}`;
}

describe('hb --cacert', () => {
  it('trusts the server certified by the file', async () => {
    expect(outcome(await hb('get', ok('/ca'), '--cacert', tls.files.serverCa))).toEqual({ code: 0, stdout: 'trusted', stderr: '' });
  });

  it('reads every certificate of a bundle', async () => {
    expect(outcome(await hb('get', ok('/bundle'), '--cacert', tls.files.bundle))).toEqual({ code: 0, stdout: 'trusted', stderr: '' });
  });

  it('trusts only the file: another CA refuses the server (exit 1), the hint naming --cacert, not the library setting', async () => {
    const result = outcome(await hb('get', ok('/other'), '--cacert', tls.files.otherCa));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^hb: NetworkError: self-signed certificate .*\(to trust a private CA, use --cacert <file>; -k\/--insecure skips the checks\)\n$/,
    );
    expect(result.stderr).not.toContain('execution.tls');
    expect(holder.server.requests).toHaveLength(0);
  });

  it('without it the self-signed server is refused with the same hint; -k skips the checks', async () => {
    const refused = outcome(await hb('get', ok('/none')));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('(to trust a private CA, use --cacert <file>; -k/--insecure skips the checks)');
    expect(outcome(await hb('get', ok('/none'), '-k'))).toEqual({ code: 0, stdout: 'trusted', stderr: '' });
  });

  it('a file without a PEM certificate, or none at all: exit 2 naming the flag and the file, nothing sent', async () => {
    const noCertificate = outcome(await hb('get', ok('/bad'), '--cacert', tls.files.aliceKey));
    expect(noCertificate).toEqual({
      code: 2,
      stdout: '',
      stderr: `hb: --cacert: '${tls.files.aliceKey}' holds no PEM certificate (-----BEGIN CERTIFICATE-----); see hb --help\n`,
    });
    const broken = outcome(await hb('get', ok('/bad'), '--cacert', tls.files.brokenCa));
    expect(broken).toEqual({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^hb: --cacert: certificate 1 of '[^']+broken-ca\.pem' cannot be read \(.+\); see hb --help\n$/),
    });
    const missing = outcome(await hb('get', ok('/bad'), '--cacert', `${tls.files.dir}/missing.pem`));
    expect(missing).toEqual({ code: 2, stdout: '', stderr: `hb: --cacert: cannot read '${tls.files.dir}/missing.pem' (ENOENT); see hb --help\n` });
    expect(holder.server.requests).toHaveLength(0);
  });
});

describe('hb --cert', () => {
  const trust = () => ['--cacert', tls.files.serverCa];

  it('--cert and --key: the server sees the certificate', async () => {
    const result = await hb('get', tls.required.url, ...trust(), '--cert', tls.files.aliceCert, '--key', tls.files.aliceKey);
    expect(outcome(result)).toEqual({ code: 0, stdout: 'alice HTTP/1.1', stderr: '' });
  });

  it('one PEM file holding the certificate and the key: --cert alone', async () => {
    expect(outcome(await hb('get', tls.required.url, ...trust(), '--cert', tls.files.aliceBoth))).toEqual({ code: 0, stdout: 'alice HTTP/1.1', stderr: '' });
  });

  it('a PKCS#12 file, its password after a colon, with --pass, or with --cert-type P12', async () => {
    for (const args of [
      ['--cert', `${tls.files.aliceP12}:${PASSPHRASE}`],
      ['--cert', tls.files.aliceP12, '--pass', PASSPHRASE],
      ['--cert', tls.files.aliceP12, '--cert-type', 'P12', '--pass', PASSPHRASE],
    ]) {
      expect(outcome(await hb('get', tls.required.url, ...trust(), ...args))).toEqual({ code: 0, stdout: 'alice HTTP/1.1', stderr: '' });
    }
  }, 30_000);

  it('an encrypted key with --pass; the passphrase never printed, -v included', async () => {
    const result = await hb(
      'get',
      tls.required.url,
      ...trust(),
      '--cert',
      tls.files.aliceCert,
      '--key',
      tls.files.aliceKeyEncrypted,
      '--pass',
      PASSPHRASE,
      '-v',
    );
    expect(result.code).toBe(0);
    expect(result.stdout.toString('utf8')).toBe('alice HTTP/1.1');
    expect(result.stderr).toContain('> GET / HTTP/1.1');
    expect(result.stderr).not.toContain(PASSPHRASE);
  });

  it('a wrong passphrase: exit 2 naming the flags, not the passphrase; nothing sent', async () => {
    const before = tls.required.seen.length;
    for (const args of [
      ['--cert', tls.files.aliceCert, '--key', tls.files.aliceKeyEncrypted, '--pass', 'wrong-passphrase'],
      ['--cert', `${tls.files.aliceP12}:wrong-passphrase`],
    ]) {
      const result = outcome(await hb('get', tls.required.url, ...trust(), ...args, '-v'));
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^hb: --cert '[^']+'(, --key '[^']+')?, the passphrase: node cannot use them \(.+\); see hb --help\n$/);
      expect(result.stderr).not.toContain('wrong-passphrase');
    }
    expect(tls.required.seen.length).toBe(before);
  });

  it('what is missing is said before anything is sent: the key, its passphrase, the certificate, the file', async () => {
    const cases: Array<[string[], string]> = [
      [['--cert', tls.files.aliceCert], `--cert: '${tls.files.aliceCert}' holds no private key: give it with --key <file>`],
      [['--cert', tls.files.aliceCert, '--key', tls.files.aliceKeyEncrypted], '--key: the private key is encrypted: give its passphrase with --pass <phrase>'],
      [['--cert', tls.files.aliceKey], `--cert: '${tls.files.aliceKey}' holds no PEM certificate (for a PKCS#12 file, --cert-type P12)`],
      [['--cert', tls.files.aliceCert, '--key', tls.files.aliceCert], `--key: '${tls.files.aliceCert}' holds no PEM private key`],
      [
        ['--cert', tls.files.aliceP12, '--key', tls.files.aliceKey],
        `--cert: '${tls.files.aliceP12}' is a PKCS#12 file, which holds the key itself: drop --key`,
      ],
      [['--cert', `${tls.files.dir}/nope.pem`], `--cert: cannot read '${tls.files.dir}/nope.pem' (ENOENT)`],
      [['--cert', tls.files.aliceCert, '--key', `${tls.files.dir}/nope.key`], `--key: cannot read '${tls.files.dir}/nope.key' (ENOENT)`],
      [['--key', tls.files.aliceKey], '--key is the key of a client certificate: give the certificate with --cert <file>'],
      [['--cert', `${tls.files.aliceP12}:x`, '--pass', 'y'], 'the passphrase is given twice: use --cert <file>:<password> or --pass <phrase>, not both'],
      [['--cert', tls.files.aliceBoth, '--cert-type', 'DER'], "--cert-type expects PEM or P12, got 'DER'"],
    ];
    const before = tls.required.seen.length;
    for (const [args, message] of cases) {
      expect([args.join(' '), outcome(await hb('get', tls.required.url, ...trust(), ...args))]).toEqual([
        args.join(' '),
        { code: 2, stdout: '', stderr: `hb: ${message}; see hb --help\n` },
      ]);
    }
    expect(tls.required.seen.length).toBe(before);
  }, 60_000);

  it('a colon in the file name escaped as curl reads it (\\:)', async () => {
    const odd = `${tls.files.dir}/odd:name.p12`;
    copyFileSync(tls.files.aliceP12, odd);
    const result = await hb('get', tls.required.url, ...trust(), '--cert', `${odd.replace(':', '\\:')}:${PASSPHRASE}`);
    expect(outcome(result)).toEqual({ code: 0, stdout: 'alice HTTP/1.1', stderr: '' });
  });

  it('--cache keeps the private answer for a client certificate (PEM or PKCS#12) from a run without it', async () => {
    const cache = ['--cache', `${tls.files.dir}/cache`, '--cacert', tls.files.serverCa];
    const before = tls.optional.seen.length;
    for (const [args, body] of [
      [['--cert', `${tls.files.aliceP12}:${PASSPHRASE}`], 'alice HTTP/1.1'],
      [[], '- HTTP/1.1'],
      [['--cert', `${tls.files.aliceP12}:${PASSPHRASE}`], 'alice HTTP/1.1'], // from the cache
      [['--cert', tls.files.aliceBoth], 'alice HTTP/1.1'],
      [['--cert', tls.files.aliceBoth, '-v'], 'alice HTTP/1.1'], // from the cache
      [[], '- HTTP/1.1'], // from the cache
    ] as const) {
      expect(outcome(await hb('get', tls.optional.url, ...cache, ...args))).toMatchObject({ code: 0, stdout: body });
    }
    expect(tls.optional.seen.slice(before)).toEqual(['alice HTTP/1.1', '- HTTP/1.1', 'alice HTTP/1.1']);
  }, 30_000);

  it('without a certificate the server ends the handshake: exit 1', async () => {
    const result = outcome(await hb('get', tls.required.url, ...trust()));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^hb: NetworkError: /);
  });
});

describe('hb --pinnedpubkey', () => {
  it('the right pin, with -k (a pinned self-signed server) or with --cacert', async () => {
    expect(outcome(await hb('get', ok('/pin'), '-k', '--pinnedpubkey', tls.files.serverPin))).toEqual({ code: 0, stdout: 'trusted', stderr: '' });
    expect(outcome(await hb('get', ok('/pin'), '--cacert', tls.files.serverCa, '--pinnedpubkey', tls.files.serverPin))).toEqual({
      code: 0,
      stdout: 'trusted',
      stderr: '',
    });
  });

  it('one of two pins matching is enough', async () => {
    const both = `${tls.files.otherPin};${tls.files.serverPin}`;
    expect(outcome(await hb('get', ok('/pin'), '-k', '--pinnedpubkey', both))).toEqual({ code: 0, stdout: 'trusted', stderr: '' });
  });

  it('a wrong pin: exit 1 before the request is sent, naming --pinnedpubkey and the pin the server has (also with -k)', async () => {
    const result = outcome(await hb('get', ok('/pin'), '-k', '--pinnedpubkey', tls.files.otherPin));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`matches none of --pinnedpubkey (its chain: ${tls.files.serverPin})`);
    expect(result.stderr).not.toContain('execution.tls');
    expect(holder.server.requests).toHaveLength(0);
  });

  it('through a proxy tunnel (CONNECT) too, with a client certificate', async () => {
    const proxy = await ProxyServer.start();
    try {
      await expectPinned(['--proxy', proxy.url, '--cacert', tls.files.serverCa, '--cert', tls.files.aliceBoth]);
      expect(proxy.seen.map((seen) => `${seen.method} ${seen.status}`)).toEqual(['CONNECT 200', 'CONNECT 200']);
    } finally {
      await proxy.close();
    }
  }, 30_000);

  it('a public key file, PEM or DER, as curl takes it', async () => {
    for (const file of [tls.files.serverPubPem, tls.files.serverPubDer]) {
      expect(outcome(await hb('get', ok('/pin'), '-k', '--pinnedpubkey', file))).toEqual({ code: 0, stdout: 'trusted', stderr: '' });
    }
    const wrong = outcome(await hb('get', ok('/pin'), '-k', '--pinnedpubkey', tls.files.otherPubPem));
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`matches none of --pinnedpubkey (its chain: ${tls.files.serverPin})`);
  });

  it('a malformed value or a file that is no key: exit 2 naming the flag', async () => {
    for (const [value, message] of [
      [
        'sha256//not-a-digest',
        "--pinnedpubkey expects sha256//<base64 SHA-256 digest> (44 characters ending in '='), ';'-separated, got 'sha256//not-a-digest'",
      ],
      [
        `${tls.files.serverPin};md5//abc`,
        "--pinnedpubkey expects sha256//<base64 SHA-256 digest> (44 characters ending in '='), ';'-separated, got 'md5//abc'",
      ],
      [tls.files.aliceP12, `--pinnedpubkey: '${tls.files.aliceP12}' is neither sha256//<digest> nor a public key file (PEM or DER)`],
      [
        tls.files.serverCa,
        `--pinnedpubkey: '${tls.files.serverCa}' holds a certificate, not a public key (openssl x509 -in <cert> -pubkey -noout gives the key of a certificate)`,
      ],
      [
        tls.files.aliceKey,
        `--pinnedpubkey: '${tls.files.aliceKey}' holds a private key, not a public key (openssl x509 -in <cert> -pubkey -noout gives the key of a certificate)`,
      ],
      [`${tls.files.dir}/none.pem`, `--pinnedpubkey: cannot read '${tls.files.dir}/none.pem' (ENOENT)`],
    ]) {
      expect(outcome(await hb('get', ok('/pin'), '-k', '--pinnedpubkey', value))).toEqual({ code: 2, stdout: '', stderr: `hb: ${message}; see hb --help\n` });
    }
    expect(holder.server.requests).toHaveLength(0);
  }, 30_000);
});

describe('hb --http2', () => {
  it('speaks HTTP/2 over https: the server sees it, -i and -w say so', async () => {
    const result = await hb('get', ok('/h2'), '--cacert', tls.files.serverCa, '--http2', '-i', '-w', '\\n%{http_version}');
    expect(outcome(result)).toEqual({ code: 0, stdout: expect.stringMatching(/^HTTP\/2 200\ncontent-type: text\/plain\n[\s\S]*\n\ntrusted\n2$/), stderr: '' });
    expect(holder.server.requests.map((request) => request.httpVersion)).toEqual(['2.0']);
  });

  it('with a client certificate and -v', async () => {
    const result = await hb('get', tls.required.url, '--cacert', tls.files.serverCa, '--cert', tls.files.aliceBoth, '--http2', '-v');
    expect(result.stdout.toString('utf8')).toBe('alice HTTP/2.0');
    expect(result.stderr).toContain('< HTTP/2 200\n');
  });

  it('without it, HTTP/1.1; over http:// it stays HTTP/1.1 (no h2c upgrade)', async () => {
    expect(outcome(await hb('get', ok('/h1'), '--cacert', tls.files.serverCa, '-w', ' %{http_version}'))).toEqual({
      code: 0,
      stdout: 'trusted 1.1',
      stderr: '',
    });
    holder.server.expect({ method: 'GET', path: '/plain', respond: { body: 'plain' } });
    expect(outcome(await hb('get', `${holder.server.httpUrl}/plain`, '--http2', '-w', ' %{http_version}'))).toEqual({
      code: 0,
      stdout: 'plain 1.1',
      stderr: '',
    });
    expect(holder.server.requests.map((request) => request.httpVersion)).toEqual(['1.1', '1.1']);
  });

  it('with the axios backend, which has no HTTP/2: exit 2 naming the flag', async () => {
    expect(outcome(await hb('get', ok('/h2'), '--http2', '--backend', 'axios'))).toEqual({
      code: 2,
      stdout: '',
      stderr: 'hb: --http2: the axios backend cannot speak HTTP/2 (use native, undici, got or fetch); see hb --help\n',
    });
  });
});

describe('hb TLS flags on every backend', () => {
  for (const backend of ['native', 'undici', 'axios', 'got', 'fetch']) {
    it(`${backend}: --cacert, --cert and --pinnedpubkey${backend === 'axios' ? '' : ', and with --http2'}`, async () => {
      const args = ['--backend', backend, '--cacert', tls.files.serverCa, '--cert', tls.files.aliceBoth];
      await expectPinned(args);
      if (backend !== 'axios') {
        const h2 = await hb('get', tls.required.url, ...args, '--pinnedpubkey', tls.files.serverPin, '--http2');
        expect(outcome(h2)).toEqual({ code: 0, stdout: 'alice HTTP/2.0', stderr: '' });
      }
    }, 30_000);
  }
});

describe('hb help tls', () => {
  it('lists every TLS flag', async () => {
    const help = (await hb('help', 'tls')).stdout.toString('utf8');
    for (const flag of [
      '-k, --insecure',
      '--cacert <file>',
      '--cert <file[:pass]>',
      '--cert-type <PEM|P12>',
      '--key <file>',
      '--pass <phrase>',
      '--pinnedpubkey <pins>',
      '--http2',
    ])
      expect(help).toContain(`  ${flag}  `);
  });
});
