// `hb --proxy socks5h://…` and ALL_PROXY: the library's SOCKS5 proxies on the command line.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SocksServer } from '../support/socks-server.js';
import { useTestServer } from '../support/use-test-server.js';
import { builtCli } from './support/built-cli.js';
import { runHb } from './support/run-hb.js';

const holder = useTestServer();
let cli = '';
let socks: SocksServer;
beforeAll(async () => {
  cli = await builtCli();
  socks = await SocksServer.start({ login: { user: 'su', password: 'socks-secret' } });
}, 180_000);
afterAll(() => socks.close());

describe('hb through a SOCKS5 proxy', () => {
  it('--proxy socks5h://user:pass@… sends the name and the login; -v shows the proxy without its password', async () => {
    holder.server.expect({ method: 'GET', path: '/socks', respond: { body: 'tunnelled' } });
    const url = `${holder.server.httpUrl.replace('127.0.0.1', 'localhost')}/socks`;
    const result = await runHb(cli, ['get', url, '--proxy', socks.url('socks5h', 'su:socks-secret'), '-v']);
    expect([result.code, result.stdout.toString('utf8')]).toEqual([0, 'tunnelled']);
    expect(result.stderr).toContain(`* via the proxy socks5h://***@127.0.0.1:${socks.port}`);
    expect(result.stderr).not.toContain('socks-secret');
    expect(socks.seen).toEqual([{ host: 'localhost', port: Number(new URL(url).port), kind: 'name', user: 'su' }]);
  });

  it('ALL_PROXY with a wrong password: one line naming the proxy, exit 1, the password nowhere', async () => {
    socks.reset();
    const result = await runHb(cli, ['get', `${holder.server.httpUrl}/never`], { env: { ALL_PROXY: socks.url('socks5', 'su:wrong-secret') } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^hb: ProxyError: the proxy socks5:\/\/\*\*\*@127\.0\.0\.1:\d+ refused the credentials[^\n]*\n$/);
    expect(result.stderr).not.toContain('wrong-secret');
    expect(socks.refusedLogins).toBe(1);
    expect(holder.server.requests).toHaveLength(0);
  });
});
