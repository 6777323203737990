// hb's transport flags and --netrc cross-checked against curl: the same request made by curl and
// by hb, with the flag of the same meaning, against the same local servers (the test server on
// 127.0.0.1, an HTTP server on a Unix socket, a listener that never completes a connection, one
// that never answers TLS), agrees on the outcome (success, failure, bad input), on the body, and
// on what each server saw (method, target, Host, Authorization).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtCli } from '../cli/support/built-cli.js';
import { runHb } from '../cli/support/run-hb.js';
import { headerValue } from '../support/recorded-request.js';
import { stalledListener, type StalledListener } from '../support/stalled-listener.js';
import { useTestServer } from '../support/use-test-server.js';

type Outcome = 'ok' | 'bad input' | 'failed';

/** One client's run: its outcome, its stdout, and what the server saw of it. */
interface Run {
  readonly outcome: Outcome;
  readonly body: string;
  readonly seen: readonly string[];
}

// curl's exit code for an option it cannot use
const CURL_BAD_INPUT: ReadonlySet<number> = new Set([2, 49]);

const holder = useTestServer();
let cli = '';
const home = mkdtempSync(join(tmpdir(), 'hb-transport-interop-'));
beforeAll(async () => {
  cli = await builtCli();
}, 180_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

function curl(args: readonly string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile('curl', ['-sS', '--max-time', '10', ...args], { timeout: 20_000, env: { ...process.env, HOME: home } }, (error, stdout) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout });
    });
  });
}

/** A request as a line: what must arrive identically whoever sends it. */
function line(method: string, target: string, host: string | undefined, authorization: string | undefined): string {
  return `${method} ${target} host=${host ?? '-'} auth=${authorization ?? '-'}`;
}

function testServerSeen(): string[] {
  return holder.server.requests.map((r) => line(r.method, r.target, headerValue(r.rawHeaders, 'host'), headerValue(r.rawHeaders, 'authorization')));
}

/**
 * Runs curl with `curlArgs` and hb with `hbArgs` (each after the URL), and what `seen()` reports
 * the server got meanwhile; `seen` is read and cleared by `take`.
 */
async function both(
  url: string,
  curlArgs: readonly string[],
  hbArgs: readonly string[],
  take: () => string[] = takeTestServer,
): Promise<Record<'curl' | 'hb', Run>> {
  take();
  const byCurl = await curl([url, ...curlArgs]);
  const curlRun: Run = { outcome: byCurl.code === 0 ? 'ok' : CURL_BAD_INPUT.has(byCurl.code) ? 'bad input' : 'failed', body: byCurl.stdout, seen: take() };
  const byHb = await runHb(cli, ['get', url, ...hbArgs], { env: { HOME: home } });
  if (byHb.code !== 0) expect(byHb.stderr).toMatch(/^hb: [^\n]+\n$/);
  const hbRun: Run = { outcome: byHb.code === 0 ? 'ok' : byHb.code === 2 ? 'bad input' : 'failed', body: byHb.stdout.toString('utf8'), seen: take() };
  return { curl: curlRun, hb: hbRun };
}

function takeTestServer(): string[] {
  const seen = testServerSeen();
  holder.server.requests.length = 0;
  return seen;
}

/** Both runs equal `expected`. */
async function agree(url: string, curlArgs: readonly string[], hbArgs: readonly string[], expected: Run, take?: () => string[]): Promise<void> {
  expect(await both(url, curlArgs, hbArgs, take)).toEqual({ curl: expected, hb: expected });
}

function port(): string {
  return new URL(holder.server.httpUrl).port;
}

/** `/hop/<n>` redirects to `/hop/<n-1>`; `/hop/0` answers `arrived`. */
function redirectChain(hops: number): string {
  for (let n = hops; n > 0; n--) holder.server.expect({ method: 'GET', path: `/hop/${n}`, respond: { status: 302, headers: { Location: `/hop/${n - 1}` } } });
  holder.server.expect({ method: 'GET', path: '/hop/0', respond: { body: 'arrived' } });
  return `${holder.server.httpUrl}/hop/${hops}`;
}

function hopsSeen(from: number, to: number, host: string): string[] {
  const seen: string[] = [];
  for (let n = from; n >= to; n--) seen.push(line('GET', `/hop/${n}`, host, undefined));
  return seen;
}

describe('hb and curl agree on the transport flags', () => {
  describe('--unix-socket', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hb-unix-interop-'));
    const socketPath = join(dir, 'api.sock');
    const seen: string[] = [];
    let server: Server;
    beforeAll(async () => {
      server = createHttpServer((req: IncomingMessage, res) => {
        seen.push(line(req.method ?? '', req.url ?? '', req.headers.host, req.headers.authorization));
        res.end('socket answer');
      });
      await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    });
    const take = () => seen.splice(0);

    it('the request goes over the socket, Host and path from the URL', () =>
      agree(
        'http://docker/v1.43/info?x=1',
        ['--unix-socket', socketPath],
        ['--unix-socket', socketPath],
        {
          outcome: 'ok',
          body: 'socket answer',
          seen: [line('GET', '/v1.43/info?x=1', 'docker', undefined)],
        },
        take,
      ));
    it('a socket that is not there fails', () =>
      agree(
        'http://docker/',
        ['--unix-socket', join(dir, 'none.sock')],
        ['--unix-socket', join(dir, 'none.sock')],
        { outcome: 'failed', body: '', seen: [] },
        take,
      ));
  });

  describe('--resolve, -4, -6', () => {
    const name = 'api.hb-interop.invalid';
    const ok = (host: string): Run => ({ outcome: 'ok', body: 'resolved', seen: [line('GET', '/r', host, undefined)] });
    const route = () => holder.server.expect({ method: 'GET', path: '/r', respond: { body: 'resolved' } });

    it('a name answered with 127.0.0.1 for its port', () => {
      route();
      const flags = ['--resolve', `${name}:${port()}:127.0.0.1`];
      return agree(`http://${name}:${port()}/r`, flags, flags, ok(`${name}:${port()}`));
    });
    it('an address list whose first address does not answer: the next one is dialled', () => {
      route();
      const flags = ['--resolve', `${name}:${port()}:[::1],127.0.0.1`];
      return agree(`http://${name}:${port()}/r`, flags, flags, ok(`${name}:${port()}`));
    });
    it('an entry for another port does not apply', () => {
      route();
      const flags = ['--resolve', `${name}:1:127.0.0.1`];
      return agree(`http://${name}:${port()}/r`, flags, flags, { outcome: 'failed', body: '', seen: [] });
    });
    it('-6 with an IPv4 entry only: no address', () => {
      route();
      const flags = ['--resolve', `${name}:${port()}:127.0.0.1`, '-6'];
      return agree(`http://${name}:${port()}/r`, flags, flags, { outcome: 'failed', body: '', seen: [] });
    });
    it('-4 reaches the IPv4 listener by name', () => {
      route();
      return agree(`http://localhost:${port()}/r`, ['-4'], ['-4'], ok(`localhost:${port()}`));
    });
    it('-6 finds nothing listening there (the test server is on 127.0.0.1 only)', () => {
      route();
      return agree(`http://localhost:${port()}/r`, ['-6'], ['-6'], { outcome: 'failed', body: '', seen: [] });
    });
  });

  describe('redirects: curl -L --max-redirs n is hb --max-redirs n; curl without -L is hb --no-follow', () => {
    const host = () => `127.0.0.1:${port()}`;
    it('--no-follow: the 302 is the answer, exit 0', () =>
      agree(redirectChain(2), [], ['--no-follow'], { outcome: 'ok', body: '', seen: hopsSeen(2, 2, host()) }));
    it('n hops allowed, n hops there', () =>
      agree(redirectChain(3), ['-L', '--max-redirs', '3'], ['--max-redirs', '3'], { outcome: 'ok', body: 'arrived', seen: hopsSeen(3, 0, host()) }));
    it('one hop more fails, the last target not requested', () =>
      agree(redirectChain(3), ['-L', '--max-redirs', '2'], ['--max-redirs', '2'], { outcome: 'failed', body: '', seen: hopsSeen(3, 1, host()) }));
    it('--max-redirs 0', () =>
      agree(redirectChain(1), ['-L', '--max-redirs', '0'], ['--max-redirs', '0'], { outcome: 'failed', body: '', seen: hopsSeen(1, 1, host()) }));
  });

  describe('--connect-timeout (curl in seconds, hb in ms)', () => {
    let stalled: StalledListener;
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => void sockets.push(socket));
    beforeAll(async () => {
      stalled = await stalledListener();
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      await stalled.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });
    const none = () => [];

    it('a TCP connect that hangs fails in time', async () => {
      const started = Date.now();
      await agree(`${stalled.url}/`, ['--connect-timeout', '0.3'], ['--connect-timeout', '300'], { outcome: 'failed', body: '', seen: [] }, none);
      expect(Date.now() - started).toBeLessThan(9_000);
    });
    it('a TLS handshake that never ends fails in time', async () => {
      const { port: silentPort } = silent.address() as { port: number };
      const started = Date.now();
      await agree(
        `https://127.0.0.1:${silentPort}/`,
        ['--connect-timeout', '0.3'],
        ['--connect-timeout', '300'],
        { outcome: 'failed', body: '', seen: [] },
        none,
      );
      expect(Date.now() - started).toBeLessThan(9_000);
    });
    it('a slow answer on a quick connection is not cut', () => {
      holder.server.expect({ method: 'GET', path: '/slow', respond: (_req, res) => void setTimeout(() => res.end('slow'), 700) });
      return agree(`${holder.server.httpUrl}/slow`, ['--connect-timeout', '0.3'], ['--connect-timeout', '300'], {
        outcome: 'ok',
        body: 'slow',
        seen: [line('GET', '/slow', `127.0.0.1:${port()}`, undefined)],
      });
    });
  });
});

describe('hb --netrc and curl --netrc send the same credentials', () => {
  const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;
  const route = () => holder.server.expect({ method: 'GET', path: '/me', respond: { body: 'me' } });
  const ok = (authorization: string | undefined, host = `127.0.0.1:${port()}`): Run => ({
    outcome: 'ok',
    body: 'me',
    seen: [line('GET', '/me', host, authorization)],
  });

  beforeAll(() => writeFileSync(join(home, '.netrc'), 'machine 127.0.0.1 login ada password "pa ss\\"word"\nmachine localhost login lone\n'));

  it("~/.netrc: the host's entry, quoted password and all", () => {
    route();
    return agree(`${holder.server.httpUrl}/me`, ['--netrc'], ['--netrc'], ok(basic('ada:pa ss"word')));
  });
  it('a login without a password: an empty one', () => {
    route();
    return agree(`http://localhost:${port()}/me`, ['--netrc', '-4'], ['--netrc', '-4'], ok(basic('lone:'), `localhost:${port()}`));
  });
  it('not read without the flag', () => {
    route();
    return agree(`${holder.server.httpUrl}/me`, [], [], ok(undefined));
  });
  it('--netrc-file with a default entry; -u / --basic wins over it', async () => {
    const file = join(home, 'other.netrc');
    writeFileSync(file, 'machine elsewhere login x password y\ndefault login anon password guest\n');
    route();
    await agree(`${holder.server.httpUrl}/me`, ['--netrc-file', file], ['--netrc-file', file], ok(basic('anon:guest')));
    await agree(`${holder.server.httpUrl}/me`, ['--netrc-file', file, '-u', 'zoe:zz'], ['--netrc-file', file, '--basic', 'zoe:zz'], ok(basic('zoe:zz')));
  });
  it('a --netrc-file that is not there: no credentials, no failure', () => {
    route();
    const missing = join(home, 'missing.netrc');
    return agree(`${holder.server.httpUrl}/me`, ['--netrc-file', missing], ['--netrc-file', missing], ok(undefined));
  });
});
