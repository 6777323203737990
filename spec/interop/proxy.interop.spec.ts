// Proxies on every backend against real ones: tinyproxy, and squid open, with Basic and with
// Digest proxy auth; http targets (absolute form) and https targets (CONNECT tunnel) of the
// test server. The proxy's log and the target's records are the witnesses: what reached the
// target, what the proxy saw, how many 407s it answered, and that the proxy's credentials
// stayed between the client and the proxy.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { HttpBuilder, ProxyError } from '../../lib/index.js';
import { BACKENDS } from '../conformance/backends.js';
import type { RecordedRequest } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';
import { PASSWORD, USER, newTag, startSquid, startTinyproxy, type ProxyLogEntry, type ProxyPeer } from './servers/index.js';
import { usePeers } from './servers/use-peer.js';

const WRONG_PASSWORD = 'not-wonderland';
const JSON_BODY = { n: 1, text: 'über', list: [true, null] };
/** Requests in a row on one client. */
const ROW = 5;
/** Log waits: squid logs a tunnel once it has closed; a client that keeps it open fails here after this, not after jest's minute. */
const LOG_TIMEOUT_MS = 3000;

/** Each proxy flavour; titles (as `ProxyPeer.title`) are known before the proxies start. */
const PROXIES: ReadonlyArray<{ readonly title: string; readonly start: () => Promise<ProxyPeer> }> = [
  { title: 'tinyproxy', start: startTinyproxy },
  { title: 'squid open', start: () => startSquid('none') },
  { title: 'squid basic', start: () => startSquid('basic') },
  { title: 'squid digest', start: () => startSquid('digest') },
];

function header(request: RecordedRequest | undefined, name: string): string | undefined {
  const value = request?.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Every request the target got came from the proxy's outgoing address: it carried them, tunnels included. */
function expectCarriedBy(proxy: ProxyPeer, requests: readonly RecordedRequest[]): void {
  expect(requests.map((request) => request.remoteAddress)).toEqual(requests.map(() => proxy.outgoingAddress));
}

function shown(entries: readonly ProxyLogEntry[]): string[] {
  return entries.map((entry) => `${entry.method} ${String(entry.status)} ${entry.user ?? '-'}`);
}

/** The target's answer to POST /echo: the request's own body and content type. */
function echo(request: RecordedRequest, response: ServerResponse): void {
  response.setHeader('Content-Type', String(request.headers['content-type']));
  response.end(request.body);
}

describe('proxies on every backend (tinyproxy, squid open, Basic and Digest)', () => {
  const target = useTestServer();
  // all four at once, stopped at once: squid takes about 2 s to stop
  const proxies = usePeers(PROXIES.map(({ start }) => start));

  for (const [index, { title }] of PROXIES.entries()) {
    describe(title, () => {
      const proxy = (): ProxyPeer => proxies.servers[index];
      const authenticated = title === 'squid basic' || title === 'squid digest';
      // the credentials go as Basic with the first request or CONNECT (as curl): only a Digest proxy answers it with a 407
      const challenged = title === 'squid digest';
      const squid = title.startsWith('squid');

      for (const backend of BACKENDS) {
        for (const secure of [false, true]) {
          describe(`${backend.name}, ${secure ? 'https' : 'http'} target`, () => {
            const open: HttpBuilder[] = [];
            afterEach(async () => {
              await Promise.all(open.splice(0).map((http) => http.close()));
            });
            beforeEach(() => {
              target.server.expect({ method: 'GET', path: '/hello', respond: { headers: { 'Content-Type': 'application/json' }, body: '{"hello":"proxy"}' } });
              target.server.expect({ method: 'POST', path: '/echo', respond: echo });
            });

            /** A client of the target through the proxy, with alice's password (or `password`) in the proxy URL when the proxy asks for one. */
            function client(password = PASSWORD): HttpBuilder {
              const http = HttpBuilder.configure((c) => {
                c.request.uri = target.server.url(secure);
                c.client.backend = backend.choice;
                c.client.proxy = proxy().url(authenticated ? { user: USER, password } : undefined);
                if (secure) c.execution.tls = { ca: target.server.ca };
              });
              open.push(http);
              return http;
            }

            function get(http: HttpBuilder, tag: string): Promise<unknown> {
              return http.get((c) => {
                c.request.uri.path = '/hello';
                c.request.uri.query = { t: tag };
              });
            }

            const authority = (): string => new URL(target.server.httpsUrl).host;
            const okStatus = squid ? 200 : undefined; // tinyproxy logs no statuses
            const user = authenticated ? USER : '-';

            it(`a GET reaches the target; the proxy saw ${secure ? 'CONNECT host:port and nothing of the request' : 'it in absolute form'}`, async () => {
              const tag = newTag();
              const since = secure ? await proxy().accessLog.checkpoint() : 0; // CONNECT lines carry no tag
              const http = client();
              expect(await get(http, tag)).toEqual({ hello: 'proxy' });
              await http.close(); // squid logs a tunnel once it has closed

              expect(target.server.requests).toHaveLength(1);
              const [received] = target.server.requests;
              expect(received).toMatchObject({ method: 'GET', target: `/hello?t=${tag}`, secure, matched: true });
              expectCarriedBy(proxy(), target.server.requests);
              expect(header(received, 'proxy-authorization')).toBeUndefined();
              // the proxy names itself in Via on what it forwards; inside a tunnel it cannot
              if (secure) expect(header(received, 'via')).toBeUndefined();
              else expect(header(received, 'via')).toContain(proxy().via);

              const first = challenged ? 2 : 1; // Digest: a 407 to the Basic, then the Digest answer
              if (secure) {
                const connects = await proxy().accessLog.connects(authority(), { since, atLeast: first, timeoutMs: LOG_TIMEOUT_MS });
                expect(shown(connects)).toEqual([...(challenged ? ['CONNECT 407 -'] : []), `CONNECT ${String(okStatus)} ${user}`]);
                expect(await proxy().accessLog.tagged(tag)).toEqual([]);
              } else {
                const entries = await proxy().accessLog.tagged(tag, { atLeast: first, timeoutMs: LOG_TIMEOUT_MS });
                expect(entries.map((entry) => entry.target)).toEqual(entries.map(() => `${target.server.httpUrl}/hello?t=${tag}`));
                expect(shown(entries)).toEqual([...(challenged ? ['GET 407 -'] : []), `GET ${String(okStatus)} ${user}`]);
              }
            });

            it('a POST with a JSON body reaches the target once and its answer comes back', async () => {
              const tag = newTag();
              const answer = await client().post((c) => {
                c.request.uri.path = '/echo';
                c.request.uri.query = { t: tag };
                c.request.contentType = 'application/json';
                c.request.body = JSON_BODY;
              });
              expect(answer).toEqual(JSON_BODY);
              // after a 407 (Digest) the body goes to the proxy again, but to the target only once
              expect(target.server.requests).toHaveLength(1);
              expect(target.server.requests[0]).toMatchObject({ method: 'POST', target: `/echo?t=${tag}` });
              expectCarriedBy(proxy(), target.server.requests);
              expect(JSON.parse(target.server.requests[0]?.body.toString('utf8') ?? '')).toEqual(JSON_BODY);
              expect(header(target.server.requests[0], 'proxy-authorization')).toBeUndefined();
            });

            it(`${ROW} requests in a row on one client all get through${challenged ? '; the proxy challenged once' : authenticated ? '; no 407 at all (Basic up front)' : ''}${title === 'tinyproxy' && !secure ? ' (tinyproxy closes each connection after its answer)' : ''}`, async () => {
              const tag = newTag();
              const since = secure && authenticated ? await proxy().accessLog.checkpoint() : 0;
              const http = client();
              for (let i = 0; i < ROW; i++) expect(await get(http, tag)).toEqual({ hello: 'proxy' });
              await http.close();
              expect(target.server.requests).toHaveLength(ROW);
              expectCarriedBy(proxy(), target.server.requests);
              expect(target.server.requests.filter((request) => header(request, 'proxy-authorization') !== undefined)).toEqual([]);
              if (!authenticated) return;
              // the credentials go along with every request (and tunnel): Basic from the first, Digest once the proxy has challenged
              const entries = secure
                ? await proxy().accessLog.connects(authority(), { since, atLeast: challenged ? 2 : 1, timeoutMs: LOG_TIMEOUT_MS })
                : await proxy().accessLog.tagged(tag, { atLeast: challenged ? ROW + 1 : ROW, timeoutMs: LOG_TIMEOUT_MS });
              expect(entries.filter((entry) => entry.status === 407)).toHaveLength(challenged ? 1 : 0);
              if (challenged) expect(entries[0]?.status).toBe(407);
            });

            if (secure) {
              // soft, in a test of its own: tunnels are kept and reused like direct connections
              // (fetch may spread sequential requests over two, as it does without a proxy)
              it(`reuses its tunnel: ${ROW} requests, at most ${backend.traits.sequentialSockets} CONNECT`, async () => {
                const tag = newTag();
                const since = await proxy().accessLog.checkpoint();
                const http = client();
                for (let i = 0; i < ROW; i++) await get(http, tag);
                await http.close();
                const connects = await proxy().accessLog.connects(authority(), { since, atLeast: challenged ? 2 : 1, timeoutMs: LOG_TIMEOUT_MS });
                const tunnels = connects.filter((entry) => entry.status !== 407).length;
                expect(tunnels).toBeGreaterThanOrEqual(1);
                expect(tunnels).toBeLessThanOrEqual(backend.traits.sequentialSockets);
                expectCarriedBy(proxy(), target.server.requests);
                expect(new Set(target.server.requests.map((request) => request.remotePort)).size).toBeLessThanOrEqual(backend.traits.sequentialSockets);
              });
            }

            if (authenticated) {
              it(`a wrong password: ProxyError ERR_PROXY 407 (${challenged ? 'the Basic, then the Digest refused' : 'the Basic refused'}, no loop), nothing reaches the target, no secret shown`, async () => {
                const tag = newTag();
                const since = secure ? await proxy().accessLog.checkpoint() : 0;
                const error = await get(client(WRONG_PASSWORD), tag).then(
                  () => undefined,
                  (failure: unknown) => failure,
                );
                expect(error).toBeInstanceOf(ProxyError);
                expect(error).toMatchObject({ code: 'ERR_PROXY', statusCode: 407 });
                expect(target.server.requests).toEqual([]);
                // no loop: the Basic up front, and for Digest one Digest answer, each refused
                const tries = challenged ? 2 : 1;
                const entries = secure
                  ? await proxy().accessLog.connects(authority(), { since, atLeast: tries, timeoutMs: LOG_TIMEOUT_MS })
                  : await proxy().accessLog.tagged(tag, { atLeast: tries, timeoutMs: LOG_TIMEOUT_MS });
                expect(entries.map((entry) => entry.status)).toEqual(Array.from({ length: tries }, () => 407));
                const shownError = `${inspect(error, { depth: 10, showHidden: true })} ${JSON.stringify(error)} ${String(error)}`;
                expect(shownError).not.toContain(WRONG_PASSWORD);
                expect(shownError).not.toContain(Buffer.from(`${USER}:${WRONG_PASSWORD}`).toString('base64'));
              });
            }
          });
        }
      }
    });
  }
});
