// `hb -w`: curl's write-out variables after the body, as a script reads them.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { closedPort } from '../support/closed-port.js';
import { useTestServer } from '../support/use-test-server.js';
import { builtCli } from './support/built-cli.js';
import { runHb, type HbResult } from './support/run-hb.js';

const holder = useTestServer();
let cli = '';
beforeAll(async () => {
  cli = await builtCli();
}, 180_000);

function hb(...args: string[]): Promise<HbResult> {
  return runHb(cli, args);
}

const SECONDS = /^\d+\.\d{6}$/;

describe('hb -w', () => {
  it('writes the status, the times in seconds and the version after the body, \\n unescaped', async () => {
    holder.server.expect({ method: 'GET', path: '/w', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'hello' } });
    const format =
      '\\n%{http_code}|%{http_version}|%{size_download}|%{num_redirects}|%{time_namelookup}|%{time_connect}|%{time_appconnect}|%{time_starttransfer}|%{time_total}|100%%\\n';
    const result = await hb('get', `${holder.server.httpUrl}/w`, '-w', format);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const [body, line, end] = result.stdout.toString('utf8').split('\n');
    expect([body, end]).toEqual(['hello', '']);
    const [code, version, size, redirects, lookup, connect, appconnect, firstByte, total, percent] = line.split('|');
    expect([code, version, size, redirects, percent]).toEqual(['200', '1.1', '5', '0', '100%']);
    for (const time of [lookup, connect, appconnect, firstByte, total]) expect(time).toMatch(SECONDS);
    expect(appconnect).toBe('0.000000'); // plain http: no TLS handshake
    expect(Number(connect)).toBeGreaterThanOrEqual(Number(lookup));
    expect(Number(firstByte)).toBeGreaterThanOrEqual(Number(connect));
    expect(Number(total)).toBeGreaterThanOrEqual(Number(firstByte));
  });

  it('over https: time_appconnect is the TLS handshake, after time_connect', async () => {
    holder.server.expect({ method: 'GET', path: '/w', respond: { body: 'x' } });
    const result = await hb('get', `${holder.server.httpsUrl}/w`, '--insecure', '-w', '|%{time_connect} %{time_appconnect} %{url_effective}');
    expect(result.code).toBe(0);
    const [body, written] = result.stdout.toString('utf8').split('|');
    expect(body).toBe('x');
    const [connect, appconnect, url] = written.split(' ');
    expect(Number(appconnect)).toBeGreaterThan(Number(connect));
    expect(url).toBe(`${holder.server.httpsUrl}/w`);
  });

  it('after a redirect: num_redirects and url_effective are the final ones; a 404 still writes, exit 4', async () => {
    holder.server.expect({ method: 'GET', path: '/old', respond: { status: 302, headers: { Location: '/new' } } });
    holder.server.expect({ method: 'GET', path: '/new', respond: { status: 404, body: '' } });
    const result = await hb('get', `${holder.server.httpUrl}/old?token=s3cret`, '-w', '%{http_code} %{num_redirects} %{url_effective}');
    expect(result.code).toBe(4);
    expect(result.stdout.toString('utf8')).toBe(`404 1 ${holder.server.httpUrl}/new`);
  });

  it('a refused connection: http_code 000, then the error on stderr, exit 1', async () => {
    const port = await closedPort();
    const result = await hb('get', `http://127.0.0.1:${port}/`, '-w', '%{http_code} %{time_total}');
    expect(result.code).toBe(1);
    expect(result.stdout.toString('utf8')).toMatch(/^000 \d+\.\d{6}$/);
    expect(result.stderr).toMatch(/^hb: .*refused/i);
  });

  it('an unknown variable is a usage error before anything is sent', async () => {
    const result = await hb('get', `${holder.server.httpUrl}/w`, '-w', '%{time_redirect}');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/-w: unknown variable %\{time_redirect\} \(known: http_code, /);
    expect(holder.server.requests).toHaveLength(0);
  });
});
