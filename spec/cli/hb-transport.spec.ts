// hb's transport flags against real servers on this machine: --unix-socket (a server listening on
// a path), --resolve (a made-up name answered with 127.0.0.1, only on its port), -4/-6,
// --no-follow, --max-redirs (curl's count) and --connect-timeout (TCP and TLS set-up).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKENDS, parseCommandLine } from '../../lib/cli/args.js';
import { stalledListener } from '../support/stalled-listener.js';
import { useTestServer } from '../support/use-test-server.js';
import { outcome } from './support/hb-outcome.js';
import { useBuiltHb } from './support/use-built-hb.js';

const holder = useTestServer();
const { hb } = useBuiltHb();

function port(): string {
  return new URL(holder.server.httpUrl).port;
}

/** `/hop/<n>` redirects to `/hop/<n-1>` and `/hop/0` answers `arrived`. */
function redirectChain(hops: number): string {
  for (let n = hops; n > 0; n--) holder.server.expect({ method: 'GET', path: `/hop/${n}`, respond: { status: 302, headers: { Location: `/hop/${n - 1}` } } });
  holder.server.expect({ method: 'GET', path: '/hop/0', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'arrived' } });
  return `${holder.server.httpUrl}/hop/${hops}`;
}

// a server on a Unix socket, for --unix-socket
const dir = mkdtempSync(join(tmpdir(), 'hb-transport-'));
const socketPath = join(dir, 'api.sock');
const seen: Array<{ url: string | undefined; headers: IncomingHttpHeaders }> = [];
let server: Server;
beforeAll(async () => {
  server = createHttpServer((req, res) => {
    seen.push({ url: req.url, headers: req.headers });
    res.end('over the socket');
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('hb --unix-socket', () => {
  it('sends the request over the socket, the URL giving Host and path', async () => {
    expect(outcome(await hb('get', 'http://docker/v1.43/containers/json?all=1', '--unix-socket', socketPath))).toEqual({
      code: 0,
      stdout: 'over the socket',
      stderr: '',
    });
    expect(seen.at(-1)).toMatchObject({ url: '/v1.43/containers/json?all=1', headers: { host: 'docker' } });
  });

  it('a socket that is not there fails (exit 1), as a refused connection', async () => {
    const result = outcome(await hb('get', 'http://docker/', '--unix-socket', join(dir, 'missing.sock')));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^hb: NetworkError: .*ENOENT/);
  });
});

describe('hb --resolve', () => {
  it('answers the name with the address for that port: no DNS, Host stays the name', async () => {
    holder.server.expect({ method: 'GET', path: '/r', headers: { Host: `api.hb-test.invalid:${port()}` }, respond: { body: 'resolved' } });
    const result = await hb('get', `http://api.hb-test.invalid:${port()}/r`, '--resolve', `api.hb-test.invalid:${port()}:127.0.0.1`);
    expect(outcome(result)).toEqual({ code: 0, stdout: 'resolved', stderr: '' });
  });

  it('only for that port: the name on another port is asked of DNS (and fails)', async () => {
    const result = outcome(await hb('get', `http://api.hb-test.invalid:${port()}/r`, '--resolve', 'api.hb-test.invalid:1:127.0.0.1'));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ENOTFOUND api.hb-test.invalid');
    expect(holder.server.requests).toHaveLength(0);
  });

  it('several entries, names in any case, an address list', async () => {
    holder.server.expect({ method: 'GET', path: '/two', respond: { body: 'second name' } });
    const url = `http://Two.hb-test.invalid:${port()}/two`;
    const result = await hb('get', url, '--resolve', `one.hb-test.invalid:${port()}:127.0.0.2`, '--resolve', `TWO.hb-test.invalid:${port()}:127.0.0.1,[::1]`);
    expect(outcome(result)).toEqual({ code: 0, stdout: 'second name', stderr: '' });
  });

  it('with -6 an IPv4-only entry gives no address', async () => {
    const result = outcome(await hb('get', `http://api.hb-test.invalid:${port()}/r`, '--resolve', `api.hb-test.invalid:${port()}:127.0.0.1`, '-6'));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ENOTFOUND');
  });
});

describe('--resolve and --unix-socket on every backend', () => {
  it.each(BACKENDS)('%s', async (backend) => {
    holder.server.expect({ method: 'GET', path: '/each', respond: { body: backend } });
    const result = await hb('get', `http://each.hb-test.invalid:${port()}/each`, '--resolve', `each.hb-test.invalid:${port()}:127.0.0.1`, '--backend', backend);
    expect(outcome(result)).toEqual({ code: 0, stdout: backend, stderr: '' });
    expect(outcome(await hb('get', 'http://docker/each', '--unix-socket', socketPath, '--backend', backend))).toEqual({
      code: 0,
      stdout: 'over the socket',
      stderr: '',
    });
  });
});

describe('--resolve over https', () => {
  it('TLS checks the certificate against the name, not the address', async () => {
    const ca = join(dir, 'ca.pem');
    writeFileSync(ca, holder.server.ca);
    holder.server.expect({ method: 'GET', path: '/tls', respond: { body: 'named' } });
    const httpsPort = new URL(holder.server.httpsUrl).port;
    const named = await hb('get', `https://localhost:${httpsPort}/tls`, '--resolve', `localhost:${httpsPort}:127.0.0.1`, '--cacert', ca);
    expect(outcome(named)).toEqual({ code: 0, stdout: 'named', stderr: '' });
    const other = outcome(
      await hb('get', `https://other.hb-test.invalid:${httpsPort}/tls`, '--resolve', `other.hb-test.invalid:${httpsPort}:127.0.0.1`, '--cacert', ca),
    );
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('other.hb-test.invalid');
    expect(holder.server.requests).toHaveLength(1);
  });
});

describe('hb -4 and -6', () => {
  it('-4 reaches the IPv4 listener by name; -6 finds no IPv6 address there (127.0.0.1 only)', async () => {
    holder.server.expect({ method: 'GET', path: '/v4', respond: { body: 'v4' } });
    const url = `http://localhost:${port()}/v4`;
    expect(outcome(await hb('get', url, '-4'))).toEqual({ code: 0, stdout: 'v4', stderr: '' });
    const six = outcome(await hb('get', url, '--resolve', `localhost:${port()}:127.0.0.1`, '-6'));
    expect(six.code).toBe(1);
    expect(holder.server.requests).toHaveLength(1);
  });
});

describe('hb --no-follow and --max-redirs', () => {
  it('--no-follow: the 3xx is the answer, exit 0, -i shows its Location', async () => {
    const result = outcome(await hb('get', redirectChain(1), '--no-follow', '-i'));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^HTTP\/1\.1 302 Found\r?\n/);
    expect(result.stdout).toMatch(/Location: \/hop\/0/);
    expect(holder.server.requests.map((r) => r.path)).toEqual(['/hop/1']);
  });

  it('--max-redirs n follows n hops', async () => {
    expect(outcome(await hb('get', redirectChain(3), '--max-redirs', '3'))).toEqual({ code: 0, stdout: 'arrived', stderr: '' });
  });

  it('one more hop fails as a RedirectError (exit 1), the last hop not requested', async () => {
    const result = outcome(await hb('get', redirectChain(3), '--max-redirs', '2'));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^hb: RedirectError: more than 2 redirects/);
    expect(holder.server.requests.map((r) => r.path)).toEqual(['/hop/3', '/hop/2', '/hop/1']);
  });

  it('--max-redirs 0 follows none', async () => {
    expect(outcome(await hb('get', redirectChain(1), '--max-redirs', '0')).code).toBe(1);
    expect(holder.server.requests).toHaveLength(1);
  });
});

describe('hb --connect-timeout', () => {
  it('gives up on a TCP connect that hangs, in about that many ms', async () => {
    const stalled = await stalledListener();
    try {
      const started = Date.now();
      const result = outcome(await hb('get', `${stalled.url}/`, '--connect-timeout', '300'));
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^hb: TimeoutError: .*connect/);
      expect(Date.now() - started).toBeLessThan(8_000);
    } finally {
      await stalled.close();
    }
  });

  it('covers the TLS handshake: a server that accepts but never answers it', async () => {
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port: silentPort } = silent.address() as { port: number };
      const result = outcome(await hb('get', `https://127.0.0.1:${silentPort}/`, '--connect-timeout', '300', '--timeout', '15000'));
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^hb: TimeoutError: .*connect/);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('a connection made in time is not limited afterwards', async () => {
    holder.server.expect({ method: 'GET', path: '/slow', respond: (_req, res) => void setTimeout(() => res.end('late but fine'), 600) });
    expect(outcome(await hb('get', `${holder.server.httpUrl}/slow`, '--connect-timeout', '300'))).toEqual({ code: 0, stdout: 'late but fine', stderr: '' });
    // and --timeout still limits the whole call beside it
    const total = outcome(await hb('get', `${holder.server.httpUrl}/slow`, '--connect-timeout', '5000', '--timeout', '200'));
    expect(total.code).toBe(1);
    expect(total.stderr).toMatch(/^hb: TimeoutError: total timeout/);
  });
});

describe('reading the transport flags', () => {
  it('-4 and -6 are also --ipv4 and --ipv6, as in curl', () => {
    const family = (flag: string) => {
      const command = parseCommandLine(['get', 'h', flag]);
      return command.kind === 'request' ? command.request.transport.family : command.kind;
    };
    expect([family('-4'), family('--ipv4'), family('-6'), family('--ipv6')]).toEqual([4, 4, 6, 6]);
  });
});

describe('bad transport flags: exit 2, nothing sent', () => {
  it.each([
    [['--resolve', 'nocolons'], "--resolve expects host:port:address, got 'nocolons'"],
    [['--resolve', 'h:0:127.0.0.1'], '--resolve expects host:port:address'],
    [['--resolve', 'h:80:not-an-ip'], "--resolve h:80: 'not-an-ip' is not an IP address"],
    [['-4', '-6'], '-4 and -6 cannot be combined'],
    [['--no-follow', '--max-redirs', '2'], '--no-follow and --max-redirs cannot be combined'],
    [['--max-redirs', '-1'], '--max-redirs'],
    [['--max-redirs', 'x'], "--max-redirs expects a whole number >= 0, got 'x'"],
    [['--connect-timeout', '1.5'], "--connect-timeout expects a whole number from 0 to 2147483647, got '1.5'"],
    [['--unix-socket', ''], '--unix-socket needs the path of a Unix domain socket'],
    [['--unix-socket', 'a', '--unix-socket', 'b'], '--unix-socket given more than once'],
  ])('%j', async (flags, message) => {
    const result = outcome(await hb('get', `${holder.server.httpUrl}/never`, ...flags));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(holder.server.requests).toHaveLength(0);
  });
});

describe('hb --help', () => {
  it('lists the transport, pagination and .netrc flags', async () => {
    const text = (await hb('--help')).stdout.toString('utf8');
    for (const flag of [
      '--unix-socket',
      '--resolve',
      '-4, -6',
      '--no-follow',
      '--max-redirs',
      '--connect-timeout',
      '--netrc',
      '--netrc-file',
      '--items',
      '--next',
      '--cursor-param',
    ]) {
      expect(text).toContain(flag);
    }
  });
});
