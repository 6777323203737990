import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate, createHash } from 'node:crypto';

/** A root CA, an intermediate it signed, and a leaf for localhost/127.0.0.1 the intermediate signed; PEM. */
export interface TlsChain {
  readonly root: string;
  readonly intermediate: string;
  /** The server's certificate; serve `${leaf}${intermediate}` as its chain. */
  readonly leaf: string;
  readonly leafKey: string;
  /** A client certificate (CN `client`, signed by the root) and its key, also as a PKCS#12 file encrypted with `passphrase`. */
  readonly client: { readonly cert: string; readonly key: string; readonly pfx: Buffer; readonly passphrase: string };
}

/** The SHA-256 SPKI pin (base64) of a PEM certificate, as `execution.tls.pins` lists it. */
export function pinOf(pem: string): string {
  return createHash('sha256')
    .update(new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64');
}

/**
 * Generates a three-level chain with the openssl command (EC keys: fast), in a temporary folder
 * removed afterwards. Made at test time: no key material lives in the repository.
 */
export function tlsChain(): TlsChain {
  const dir = mkdtempSync(join(tmpdir(), 'hb-chain-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const file = (name: string) => readFileSync(join(dir, name), 'utf8');
  try {
    const key = (name: string) => run('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`);
    writeFileSync(join(dir, 'ca.ext'), 'basicConstraints=critical,CA:true\nkeyUsage=critical,keyCertSign,cRLSign\n');
    writeFileSync(join(dir, 'leaf.ext'), 'basicConstraints=CA:false\nsubjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
    writeFileSync(join(dir, 'client.ext'), 'basicConstraints=CA:false\nextendedKeyUsage=clientAuth\n');
    for (const name of ['root', 'intermediate', 'leaf', 'client']) key(name);
    run(
      'req',
      '-x509',
      '-new',
      '-key',
      'root.key',
      '-subj',
      '/CN=Test Root',
      '-days',
      '2',
      '-out',
      'root.pem',
      '-addext',
      'basicConstraints=critical,CA:true',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
    const sign = (name: string, cn: string, issuer: string, ext: string) => {
      run('req', '-new', '-key', `${name}.key`, '-subj', `/CN=${cn}`, '-out', `${name}.csr`);
      run(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        `${issuer}.pem`,
        '-CAkey',
        `${issuer}.key`,
        '-CAcreateserial',
        '-days',
        '2',
        '-extfile',
        ext,
        '-out',
        `${name}.pem`,
      );
    };
    sign('intermediate', 'Test Intermediate', 'root', 'ca.ext');
    sign('leaf', 'localhost', 'intermediate', 'leaf.ext');
    sign('client', 'client', 'root', 'client.ext');
    const passphrase = 'chain-test-passphrase';
    run('pkcs12', '-export', '-in', 'client.pem', '-inkey', 'client.key', '-out', 'client.p12', '-passout', `pass:${passphrase}`);
    return {
      root: file('root.pem'),
      intermediate: file('intermediate.pem'),
      leaf: file('leaf.pem'),
      leafKey: file('leaf.key'),
      client: { cert: file('client.pem'), key: file('client.key'), pfx: readFileSync(join(dir, 'client.p12')), passphrase },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * An impostor's leaf for localhost: signed by a key of the attacker's own under a CA named as the
 * chain's intermediate, without key identifiers, so that node links it (by name) to the genuine
 * intermediate the impostor sends after it. What a pin check that trusted node's links would let through.
 */
export function forgedLeaf(): { readonly cert: string; readonly key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hb-forged-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    for (const name of ['fake-ca', 'impostor']) run('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`);
    run('req', '-x509', '-new', '-key', 'fake-ca.key', '-subj', '/CN=Test Intermediate', '-days', '2', '-out', 'fake-ca.pem');
    writeFileSync(
      join(dir, 'impostor.ext'),
      'basicConstraints=CA:false\nsubjectAltName=DNS:localhost,IP:127.0.0.1\nauthorityKeyIdentifier=none\nsubjectKeyIdentifier=none\n',
    );
    run('req', '-new', '-key', 'impostor.key', '-subj', '/CN=localhost', '-out', 'impostor.csr');
    run(
      'x509',
      '-req',
      '-in',
      'impostor.csr',
      '-CA',
      'fake-ca.pem',
      '-CAkey',
      'fake-ca.key',
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      'impostor.ext',
      '-out',
      'impostor.pem',
    );
    return { cert: readFileSync(join(dir, 'impostor.pem'), 'utf8'), key: readFileSync(join(dir, 'impostor.key'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
