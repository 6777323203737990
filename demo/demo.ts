/**
 * `npm run demo`: starts a local HTTP + HTTPS server (self-signed certificate made on the spot)
 * and sends a handful of real requests through httpbuilder-ts, printing what happened.
 */
import { HttpBuilder, HttpException, type HttpConfig } from '../lib/index.js';
import { TestServer } from '../spec/support/test-server.js';

class User {
  id = 0;
  name = '';
  greeting(): string {
    return `Hello, ${this.name} (#${this.id})`;
  }
}

const json = (body: unknown, status = 200) => ({ status, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

async function main(): Promise<void> {
  const server = await TestServer.start();
  server.expect({ method: 'GET', path: '/api/users/42', respond: json({ id: 42, name: 'Ada' }) });
  server.expect({ method: 'POST', path: '/api/users', respond: json({ id: 43, created: true }, 201) });
  server.expect({ method: 'GET', path: '/api/report', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'x'.repeat(5000), encoding: 'gzip' } });
  server.expect({ method: 'GET', path: '/api/missing', respond: json({ error: 'no such thing' }, 404) });
  server.expect({ method: 'HEAD', path: '/api/users/42', respond: { headers: { ETag: '"v7"' } } });

  const http = HttpBuilder.configure((c: HttpConfig) => {
    c.request.uri = `${server.httpsUrl}/api`;
    c.execution.tls = { ca: server.ca }; // trust the demo's self-signed certificate
    c.request.headers['X-Demo'] = 'yes';
  });

  try {
    const user = await http.get(User, (c) => void (c.request.uri.path = 'users/42'));
    show('GET users/42 as a User instance', user.greeting());

    const created = await http.post((c) => {
      c.request.uri.path = 'users';
      c.request.contentType = 'application/json';
      c.request.body = { name: 'Grace' };
      c.response.success((fromServer, body) => ({ status: fromServer.statusCode, body }));
    });
    show('POST users with a JSON body', created);

    const report = await http.get(String, (c) => {
      c.request.uri.path = 'report';
      c.response.success((fromServer, body) => `${String(body).length} chars, Content-Encoding: ${fromServer.headers.get('content-encoding')}`);
    });
    show('GET report (gzip, decoded transparently)', report);

    const missing = await http.get((c) => void (c.request.uri.path = 'missing')).catch((error: unknown) => error);
    if (missing instanceof HttpException)
      show('GET missing rejects with HttpException', `${missing.statusCode} ${missing.message} ${JSON.stringify(missing.body)}`);

    const etag = await http.head((c) => {
      c.request.uri.path = 'users/42';
      c.response.success((fromServer) => fromServer.headers.get('etag'));
    });
    show('HEAD users/42, a handler reads a header', etag);

    const timed = await http
      .configure((c) => c.execution.interceptor('GET', async (request, next) => `${request.method} ${request.url} → ${JSON.stringify(await next(request))}`))
      .get((c) => void (c.request.uri.path = 'users/42'));
    show('An interceptor wraps the call', timed);

    console.log('\nWhat the server received:');
    for (const request of server.requests)
      console.log(`  ${request.method} ${request.target}  (${String(request.headers['user-agent'])}, X-Demo: ${String(request.headers['x-demo'])})`);
  } finally {
    await http.close();
    await server.close();
  }
}

function show(title: string, value: unknown): void {
  console.log(`\n• ${title}\n  ${typeof value === 'string' ? value : JSON.stringify(value)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
