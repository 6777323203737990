import { expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { HttpException, type Attempt, type AttemptResponse, type RetryInfo } from '../../lib/index.js';
import { digestRoute } from '../support/auth/index.js';
import type { RecordedRequest } from '../support/test-server.js';
import { conformance } from './kit.js';
import { expectNoLeak } from './no-leak.js';

const QUICK = { backoff: () => 5 };
const SECRET = 'hook-secret';
const BIG = 'y'.repeat(4 * 1024 * 1024);

/** HMAC-SHA256 over method, request-target and body: what the client's hook and the server's check compute alike. */
function hmac(secret: string, method: string, target: string, body: Uint8Array | undefined): string {
  return createHmac('sha256', secret)
    .update(`${method}\n${target}\n`)
    .update(body ?? new Uint8Array())
    .digest('hex');
}

/** The request-signing hook of the tests: `X-Signature` on every attempt. */
const signWith = (secret: string) => (attempt: Attempt) => void (attempt.headers['X-Signature'] = hmac(secret, attempt.method, attempt.target, attempt.body));

const signedRight = (req: RecordedRequest) => req.headers['x-signature'] === hmac(SECRET, req.method, req.target, req.body);

conformance('execution.hooks', (kit) => {
  it('a Digest round is two attempts: beforeAttempt twice, the second with the Authorization the auth stage set', async () => {
    const route = digestRoute(kit.server, { user: 'alice', password: 'wonderland' });
    const seen: Array<string | undefined> = [];
    const statuses: number[] = [];
    const client = kit.client((c) => {
      c.request.auth.digest('alice', 'wonderland');
      c.execution.hooks = {
        beforeAttempt: (a) => void seen.push(a.headers.Authorization?.split(' ')[0]),
        afterAttempt: (_a, r) => void statuses.push(r.statusCode),
      };
    });
    expect(await client.get((c) => void (c.request.uri.path = '/digest'))).toBe('ok-text');
    expect(seen).toEqual([undefined, 'Digest']);
    expect(statuses).toEqual([401, 200]);
    expect(route.authorized).toBe(1);
  });

  it('a retry: beforeAttempt twice, beforeRetry once (retryCount 1, the 503, its delay); afterAttempt sees each status and its headers', async () => {
    let calls = 0;
    kit.server.expect({
      method: 'GET',
      path: '/flaky',
      respond: (_req, res) => {
        if (++calls === 1) res.writeHead(503, { 'X-Attempt': '1' }).end('busy');
        else res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Attempt': '2' }).end('ok');
      },
    });
    const events: string[] = [];
    const retries: RetryInfo[] = [];
    const responses: AttemptResponse[] = [];
    const client = kit.client((c) => {
      c.execution.retry = { limit: 2, ...QUICK };
      c.execution.hooks = {
        beforeAttempt: () => void events.push('beforeAttempt'),
        afterAttempt: (_a, r) => void (events.push('afterAttempt'), responses.push(r)),
        beforeRetry: (_a, r) => void (events.push('beforeRetry'), retries.push(r)),
      };
    });
    expect(await client.get((c) => void (c.request.uri.path = '/flaky'))).toBe('ok');
    expect(events).toEqual(['beforeAttempt', 'afterAttempt', 'beforeRetry', 'beforeAttempt', 'afterAttempt']);
    expect(retries).toEqual([{ statusCode: 503, retryCount: 1, delay: 5 }]);
    expect(responses.map((r) => [r.statusCode, r.headers.get('x-attempt')])).toEqual([
      [503, '1'],
      [200, '2'],
    ]);
  });

  it('a redirect: beforeRedirect gets from and to, and a header set in to.headers arrives at the next hop', async () => {
    kit.server.expect({ method: 'GET', path: '/hop-a', respond: { status: 302, headers: { Location: '/hop-b' } } });
    kit.server.expect({ method: 'GET', path: '/hop-b', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'arrived' } });
    const hops: string[] = [];
    const client = kit.client((c) => {
      c.execution.hooks = {
        beforeRedirect(from, to) {
          hops.push(`${from.method} ${new URL(from.url).pathname} → ${to.method} ${new URL(to.url).pathname} (${to.statusCode})`);
          expect(to.url).toBe(`${kit.server.url(kit.secure)}/hop-b`);
          to.headers['X-Redirected-From'] = from.target;
        },
      };
    });
    expect(await client.get((c) => void (c.request.uri.path = '/hop-a'))).toBe('arrived');
    expect(hops).toEqual(['GET /hop-a → GET /hop-b (302)']);
    const [first, second] = kit.server.requests;
    expect([first.headers['x-redirected-from'], second.headers['x-redirected-from']]).toEqual([undefined, '/hop-a']);
  });

  it('signing: the server verifies an HMAC of method, target and body on every attempt, across a retry and a redirect', async () => {
    const verified: string[] = [];
    let first = true;
    const signed =
      (answer: (req: RecordedRequest) => { status: number; headers?: Record<string, string>; body?: string }) =>
      (req: RecordedRequest, res: ServerResponse) => {
        if (!signedRight(req)) return void res.writeHead(401, { 'Content-Type': 'text/plain' }).end('bad signature');
        verified.push(`${req.method} ${req.target}`);
        const { status, headers = {}, body = '' } = answer(req);
        res.writeHead(status, headers).end(body);
      };
    kit.server.expect({
      method: 'POST',
      path: '/signed',
      respond: signed(() => (first ? ((first = false), { status: 503 }) : { status: 307, headers: { Location: '/signed/next?step=2' } })),
    });
    kit.server.expect({
      method: 'POST',
      path: '/signed/next',
      respond: signed((req) => ({ status: 200, headers: { 'Content-Type': 'text/plain' }, body: `signed ${req.body.toString()}` })),
    });
    const post = (secret: string) =>
      kit
        .client((c) => {
          c.execution.retry = { limit: 1, methods: ['POST'], statusCodes: [503], ...QUICK };
          c.execution.hooks = { beforeAttempt: signWith(secret) };
        })
        .post((c) => {
          c.request.uri.path = '/signed';
          c.request.contentType = 'text/plain';
          c.request.body = 'payload';
        });
    expect(await post(SECRET)).toBe('signed payload');
    expect(verified).toEqual(['POST /signed', 'POST /signed', 'POST /signed/next?step=2']);
    // the check is real: a wrong key gets the 401
    await expect(post('wrong key')).rejects.toMatchObject({ constructor: HttpException, statusCode: 401 });
  });

  it("headers changed in beforeAttempt go on that attempt's wire request only, never into the config", async () => {
    kit.server.expect({ method: 'GET', path: '/mutate', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'ok' } });
    const headers = { 'X-Fixed': 'kept' };
    let n = 0;
    const client = kit.client((c) => {
      c.request.headers = headers;
      c.execution.hooks = {
        beforeAttempt(a) {
          if (++n > 1) return;
          a.headers['X-Once'] = 'first only';
          delete a.headers['X-Fixed'];
        },
      };
    });
    await client.get((c) => void (c.request.uri.path = '/mutate'));
    await client.get((c) => void (c.request.uri.path = '/mutate'));
    expect(kit.server.requests.map((r) => [r.headers['x-once'], r.headers['x-fixed']])).toEqual([
      ['first only', undefined],
      [undefined, 'kept'],
    ]);
    expect(headers).toEqual({ 'X-Fixed': 'kept' });
  });

  for (const hook of ['beforeAttempt', 'afterAttempt'] as const) {
    it(`a throwing ${hook} rejects with that very error, nothing retried, the connection released`, async () => {
      let calls = 0;
      kit.server.expect({
        method: 'GET',
        path: '/big-503',
        respond: (_req, res) => void (calls++, res.writeHead(503, { 'Content-Type': 'text/plain' }).end(BIG)),
      });
      const thrown = new Error(`${hook} says no`);
      const client = kit.client((c) => void (c.execution.retry = { limit: 3, ...QUICK }));
      const outcome = await expectNoLeak(kit, client, () =>
        client.get((c) => {
          c.request.uri.path = '/big-503';
          // on this request only: the leak check's requests run without it
          c.execution.hooks = {
            [hook]: () => {
              throw thrown;
            },
          };
        }),
      );
      expect(outcome).toBe(thrown);
      expect(calls).toBe(hook === 'beforeAttempt' ? 0 : 1);
    });
  }
});
