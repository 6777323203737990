// What a HAR file of MockBackend.record keeps of the secrets an exchange carries: every
// credential-like header value (request and response) and URL user info written as `***`, by
// the rule of logs and `hb -v`; the file readable by its owner alone.
import { describe, expect, it } from '@jest/globals';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { HttpBuilder, type ConfigBlock } from '../../lib/index.js';
import { MockBackend, type Har, type HarNameValue } from '../../lib/testing.js';
import { useTestServer } from '../support/use-test-server.js';
import { useHarFiles } from './support/har-files.js';

const holder = useTestServer();
const harFile = useHarFiles('hb-har-secrets-').file;
const path = (p: string) => (c: Parameters<ConfigBlock>[0]) => void (c.request.uri.path = p);
const valueOf = (headers: readonly HarNameValue[], name: string) => headers.find((h) => h.name.toLowerCase() === name)?.value;
const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

// request headers a service sends its API keys in, and a response's token
const SENT = { 'X-Api-Key': 'api-key-s3cret', 'Private-Token': 'gitlab-t0ken', 'X-Amz-Security-Token': 'amz-sess10n', 'X-Team': 'core' };
const AUTH_TOKEN = 'resp0nse-token';
const LINK_PASSWORD = 'l1nk-pass';
const PLACE_PASSWORD = 'pl4ce-pass';

describe.each([false, true])('MockBackend.record: secrets (https: %s)', (secure) => {
  it('writes every credential-like header value, request and response, and the user info of URLs in headers as ***', async () => {
    const { server } = holder;
    const origin = server.url(secure);
    const withUser = (password: string, rest: string) => `${origin.replace('//', `//ada:${password}@`)}${rest}`;
    server.expect({
      method: 'GET',
      path: '/account',
      respond: {
        headers: {
          'Content-Type': 'application/json',
          'X-Auth-Token': AUTH_TOKEN,
          'X-Request-Id': 'req-1',
          Link: `<${withUser(LINK_PASSWORD, '/account?page=2')}>; rel="next", </account?page=9>; rel="last"`,
          'Content-Location': withUser(PLACE_PASSWORD, '/account/42'),
        },
        body: '{"id":42}',
      },
    });
    const file = harFile();
    const http = HttpBuilder.configure((c) => {
      c.request.uri = origin;
      c.client.backend = MockBackend.record(file);
      c.execution.tls = { ca: server.ca };
      c.request.headers = { ...SENT };
    });
    expect(await http.get(path('/account'))).toEqual({ id: 42 });
    await http.close();

    const text = await readFile(file, 'utf8');
    for (const secret of [...Object.values(SENT).filter((v) => v !== 'core'), AUTH_TOKEN, LINK_PASSWORD, PLACE_PASSWORD]) expect(text).not.toContain(secret);
    const [entry] = (JSON.parse(text) as Har).log.entries;
    const sent = entry.request.headers;
    expect([valueOf(sent, 'x-api-key'), valueOf(sent, 'private-token'), valueOf(sent, 'x-amz-security-token'), valueOf(sent, 'x-team')]).toEqual([
      '***',
      '***',
      '***',
      'core',
    ]);
    const received = entry.response.headers;
    expect([valueOf(received, 'x-auth-token'), valueOf(received, 'x-request-id')]).toEqual(['***', 'req-1']);
    // user info hidden, the rest as it came: a replay still follows the links
    expect(valueOf(received, 'link')).toBe(`<${origin.replace('//', '//***@')}/account?page=2>; rel="next", </account?page=9>; rel="last"`);
    expect(valueOf(received, 'content-location')).toBe(`${origin.replace('//', '//***@')}/account/42`);
    expect(await modeOf(file)).toBe(0o600);
  });
});

describe('MockBackend.record: the file is its owner’s alone', () => {
  it('creates the file with mode 0600, and a file that was there with a looser mode ends 0600 too', async () => {
    const { server } = holder;
    server.expect({ method: 'GET', path: '/ping', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'pong' } });
    const fresh = harFile();
    const existing = harFile();
    const empty: Har = { log: { version: '1.2', creator: { name: 'someone', version: '1' }, entries: [] } };
    await writeFile(existing, JSON.stringify(empty));
    await chmod(existing, 0o644);
    for (const file of [fresh, existing]) {
      const http = HttpBuilder.configure((c) => {
        c.request.uri = server.httpUrl;
        c.client.backend = MockBackend.record(file);
      });
      expect(await http.get(path('/ping'))).toBe('pong');
      await http.get(path('/ping')); // an append rewrites the file: still 0600
      await http.close();
      expect(await modeOf(file)).toBe(0o600);
      expect((JSON.parse(await readFile(file, 'utf8')) as Har).log.entries).toHaveLength(2);
    }
  }, 20_000); // four recorded exchanges, each a file rewrite: slow on a loaded machine
});
