// The API the documentation samples talk to: https://api.example.com in a sample is this route
// table on the local test server (installed again before every sample, so counters start afresh).
import { writeFileSync } from 'node:fs';
import { tlsChain, type TlsChain } from './tls-chain.js';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { basicRoute, digestRoute } from './auth/index.js';
import { parseMultipart } from './multipart-parser.js';
import { headerValue, type RecordedRequest } from './recorded-request.js';
import { writeResponse, type ResponseSpec } from './response-writer.js';
import type { TestServer } from './test-server.js';

const USERS: Record<string, { id: number; name: string; email: string; createdAt: string }> = {
  '42': { id: 42, name: 'Ada Lovelace', email: 'ada@example.com', createdAt: '2024-05-01T10:00:00.000Z' },
  '43': { id: 43, name: 'Grace Hopper', email: 'grace@example.com', createdAt: '2024-06-01T10:00:00.000Z' },
};

function json(value: unknown, status = 200, headers: Record<string, string> = {}): ResponseSpec {
  return { status, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(value) };
}

function text(body: string, contentType = 'text/plain; charset=utf-8', status = 200): ResponseSpec {
  return { status, headers: { 'Content-Type': contentType }, body };
}

/** What `/echo` answers: the request as the server received it. */
function echo(req: RecordedRequest): ResponseSpec {
  const headers: Record<string, string> = {};
  for (const [name, value] of req.rawHeaders)
    headers[name.toLowerCase()] = headers[name.toLowerCase()] === undefined ? value : `${headers[name.toLowerCase()]}, ${value}`;
  return json({ method: req.method, path: req.path, target: req.target, query: req.query, headers, cookies: req.cookies, body: req.body.toString('utf8') });
}

/** Registers the routes; call after every `server.reset()`. */
export function installDocFixtures(server: TestServer): void {
  const route = (method: string, path: string, respond: ResponseSpec | ((req: RecordedRequest) => ResponseSpec)) => {
    for (const prefix of ['', '/v1']) {
      server.expect({
        method,
        path: `${prefix}${path}`,
        respond: typeof respond === 'function' ? (req, res) => writeResponse(res, respond(req)) : respond,
      });
    }
  };

  for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'QUERY']) route(method, '/echo', echo);

  // users
  for (const [id, user] of Object.entries(USERS)) {
    route('GET', `/users/${id}`, json(user, 200, { ETag: `"user-${id}-v1"` }));
    route('HEAD', `/users/${id}`, { headers: { 'Content-Type': 'application/json', ETag: `"user-${id}-v1"` } });
    route('PUT', `/users/${id}`, (req) => json({ ...user, ...(JSON.parse(req.body.toString()) as object) }));
    route('PATCH', `/users/${id}`, (req) => json({ ...user, ...(JSON.parse(req.body.toString()) as object) }));
    route('DELETE', `/users/${id}`, { status: 204 });
  }
  route('GET', '/users/7', json({ error: 'no such user' }, 404));
  route('GET', '/users', (req) => json(Object.values(USERS).slice(0, Number(req.query.limit?.[0] ?? 10))));
  route('POST', '/users', (req) => {
    const body = JSON.parse(req.body.toString()) as { name?: string };
    if (body.name === 'Ada Lovelace') return json({ error: 'already there' }, 409);
    return json({ id: 44, ...body }, 201, { Location: '/v1/users/44' });
  });
  route('OPTIONS', '/users', { status: 204, headers: { Allow: 'GET, POST, OPTIONS' } });

  // authentication
  digestRoute(server, { path: '/private/report', user: 'alice', password: 'wonderland', realm: 'reports' });
  basicRoute(server, { path: '/admin', user: 'bob', password: 's3cret', realm: 'admin' });
  // a bearer token that has expired, and the one a refresh gives
  route('GET', '/profile', (req) =>
    req.headers.authorization === 'Bearer fresh-token'
      ? json({ name: 'Ada Lovelace' })
      : { status: 401, headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"', 'Content-Type': 'text/plain' }, body: 'token expired' },
  );
  // two users' tokens on one service: Ada's has expired (a refresh gives ada-fresh), Alan's is valid
  const users: Record<string, string> = { 'ada-fresh': 'Ada', 'alan-token': 'Alan' };
  route('GET', '/whoami', (req) => {
    const user = users[String(req.headers.authorization).replace(/^Bearer /, '')];
    return user
      ? text(user)
      : { status: 401, headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"', 'Content-Type': 'text/plain' }, body: 'token expired' };
  });

  // timeouts, retries, redirects, cookies
  const later = (ms: number, spec: ResponseSpec) => (_req: RecordedRequest, res: ServerResponse) => void setTimeout(() => writeResponse(res, spec), ms);
  for (const prefix of ['', '/v1']) {
    server.expect({ method: 'GET', path: `${prefix}/slow-report`, respond: later(50, text('report ready')) });
    server.expect({ method: 'GET', path: `${prefix}/slow`, respond: later(3_000, text('slow answer')) });
  }
  let flaky = 0;
  route('GET', '/flaky', () => (++flaky <= 2 ? text('busy', 'text/plain', 503) : text(`finally up, after ${flaky} attempts`)));
  route('GET', '/old', { status: 301, headers: { Location: '/v1/users/42' } });
  route('GET', '/loop', (req) => ({ status: 302, headers: { Location: req.path } }));
  route('POST', '/login', { status: 204, headers: { 'Set-Cookie': 'session=s-123; Path=/; HttpOnly' } });
  route('GET', '/me', (req) => (req.cookies.session === 's-123' ? json({ name: 'Ada Lovelace' }) : json({ error: 'sign in first' }, 401)));

  // content types
  route('GET', '/hello', text('Hello, world'));
  route('GET', '/count', text('42'));
  route('GET', '/time', json('2024-05-01T10:00:00.000Z'));
  route('GET', '/gzipped', { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ compressed: true }), encoding: 'gzip' });
  route('GET', '/report.csv', text('id,name\n42,Ada Lovelace\n43,Grace Hopper\n', 'text/csv'));
  route('GET', '/feed.xml', text('<feed><entry id="1">First</entry><entry id="2">Second</entry></feed>', 'application/xml'));
  route('GET', '/prefs', text('theme=dark&lang=en&lang=fr', 'application/x-www-form-urlencoded'));
  route('GET', '/legacy', { headers: { 'Content-Type': 'text/plain; charset=iso-8859-1' }, body: Buffer.from('Café crème', 'latin1') });
  route('GET', '/events', text('{"type":"signup","user":42}\n{"type":"login","user":42}\n', 'application/x-ndjson'));
  route('POST', '/events', (req) =>
    json({
      received: req.body
        .toString('utf8')
        .split('\n')
        .filter((line) => line !== '').length,
    }),
  );

  // caching: a product the server lets clients reuse for a minute, and revalidate by its ETag
  route('GET', '/products/7', (req) =>
    req.headers['if-none-match'] === '"p7-v1"'
      ? { status: 304, headers: { ETag: '"p7-v1"', 'Cache-Control': 'max-age=60' } }
      : json({ id: 7, name: 'Teapot', price: 18 }, 200, { ETag: '"p7-v1"', 'Cache-Control': 'max-age=60' }),
  );

  // pagination: GitHub-style Link headers, and a cursor API
  const ISSUES = ['Crash on start', 'Typo in README', 'Slow search', 'Dark mode', 'Export to CSV'].map((title, index) => ({ number: index + 1, title }));
  route('GET', '/repos/acme/widgets/issues', (req) => {
    const perPage = Number(req.query.per_page?.[0] ?? 30);
    const page = Number(req.query.page?.[0] ?? 1);
    const last = Math.ceil(ISSUES.length / perPage);
    const link = (n: number, rel: string) => `<${req.path}?per_page=${perPage}&page=${n}>; rel="${rel}"`;
    const links = [...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []), ...(page > 1 ? [link(1, 'first'), link(page - 1, 'prev')] : [])];
    return json(ISSUES.slice((page - 1) * perPage, page * perPage), 200, links.length > 0 ? { Link: links.join(', ') } : {});
  });
  const AUDIT = ['login', 'invite', 'role-change', 'logout', 'login'].map((action, index) => ({ id: `e${index + 1}`, action }));
  route('GET', '/audit-log', (req) => {
    const limit = Number(req.query.limit?.[0] ?? 2);
    const start = req.query.cursor === undefined ? 0 : AUDIT.findIndex((entry) => entry.id === req.query.cursor?.[0]) + 1;
    const entries = AUDIT.slice(start, start + limit);
    return json({ entries, next_cursor: start + limit < AUDIT.length ? entries.at(-1)?.id : null });
  });

  // streams: a log that grows, and server-sent events that come one by one
  const trickle = (contentType: string, pieces: readonly string[]) => async (_req: RecordedRequest, res: ServerResponse) => {
    res.writeHead(200, { 'Content-Type': contentType });
    for (const piece of pieces) {
      res.write(piece);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    res.end();
  };
  for (const prefix of ['', '/v1']) {
    server.expect({
      method: 'GET',
      path: `${prefix}/logs/tail`,
      respond: trickle('text/plain; charset=utf-8', ['10:00 started\n10:01 ready', '\n10:02 request /health\n']),
    });
    server.expect({
      method: 'GET',
      path: `${prefix}/notifications`,
      respond: trickle('text/event-stream', [
        ': connected\n\n',
        'event: mention\nid: 101\ndata: {"from":"grace","text":"see PR #7"}\n\n',
        'event: build\nid: 102\ndata: {"status":"passed"}\n\n',
      ]),
    });
    // events that resume where Last-Event-ID says (docs/streaming.md, reconnecting): two, one more, then 204 (no more)
    const ticker: Record<string, string[]> = { '': ['retry: 100\nid: 1\ndata: 10.5\n\n', 'id: 2\ndata: 10.7\n\n'], '2': ['id: 3\ndata: 10.6\n\n'] };
    server.expect({
      method: 'GET',
      path: `${prefix}/prices`,
      respond: (req, res) => {
        const pieces = ticker[headerValue(req.rawHeaders, 'last-event-id') ?? ''];
        if (pieces === undefined) return void res.writeHead(204).end();
        return trickle('text/event-stream', pieces)(req, res);
      },
    });
  }
  route('GET', '/files/photo.jpg', { headers: { 'Content-Type': 'image/jpeg' }, body: Buffer.alloc(2048, 0xff) });
  route('GET', '/accounts/acme', text(JSON.stringify({ account_slug: 'acme', seat_count: 3 }), 'application/vnd.acme.account-v2'));
  route('GET', '/broken-json', text('{"id": 42,', 'application/json'));
  route('POST', '/upload', (req) => {
    const parsed = parseMultipart(req.body, headerValue(req.rawHeaders, 'content-type'));
    return json(
      parsed.parts.map((part) => ({
        name: part.disposition?.params.name,
        fileName: part.disposition?.params.filename,
        contentType: part.headers['content-type'],
        size: part.body.length,
      })),
    );
  });
}

/** Files the samples read from their working directory (a fresh temporary one). */
export function writeSandboxFiles(dir: string): void {
  writeFileSync(join(dir, 'notes.txt'), 'Meeting notes\n');
  writeFileSync(join(dir, 'photo.jpg'), Buffer.alloc(2048, 0xff));
  // docs/tls.md reads these when it configures a client (it sends nothing with them); node's TLS
  // tries them when the client is made, so they are real (made once per process)
  chain ??= tlsChain();
  writeFileSync(join(dir, 'private-ca.pem'), chain.root);
  writeFileSync(join(dir, 'client.pem'), chain.client.cert);
  writeFileSync(join(dir, 'client-key.pem'), chain.client.key);
  writeFileSync(join(dir, 'client.p12'), chain.client.pfx);
  process.env.P12_PASSPHRASE = chain.client.passphrase;
}

let chain: TlsChain | undefined;
