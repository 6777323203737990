import { afterEach, expect, it } from '@jest/globals';
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import { NetworkError, type AttemptOutcome, type Telemetry, type TelemetryAttempt } from '../../lib/index.js';
import { closedPort } from '../support/closed-port.js';
import { conformance } from './kit.js';

const NAMES = ['call:start', 'call:end', 'call:error', 'attempt:start', 'attempt:end'] as const;
type Seen = Array<{ name: string; message: Record<string, unknown> }>;

/** Subscribes to the five channels until the test ends; what they publish, in order. */
function listen(): Seen {
  const seen: Seen = [];
  for (const name of NAMES) {
    const listener = (message: unknown) => void seen.push({ name, message: message as Record<string, unknown> });
    diagnostics.subscribe(`httpbuilder:${name}`, listener);
    unsubscribe.push(() => diagnostics.unsubscribe(`httpbuilder:${name}`, listener));
  }
  return seen;
}
const unsubscribe: Array<() => void> = [];
afterEach(() => unsubscribe.splice(0).forEach((undo) => undo()));

conformance('diagnostics channels and client.telemetry', (kit) => {
  it('a retried call: call:start, an attempt:start/end pair per attempt, call:end, one call object with the redacted URL', async () => {
    let calls = 0;
    kit.server.expect({
      method: 'GET',
      path: '/flaky',
      respond: (_req, res) =>
        void (++calls === 1 ? res.writeHead(503, { 'Retry-After': '0' }).end() : res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok')),
    });
    const seen = listen();
    const client = kit.client((c) => void (c.execution.retry = { limit: 2, backoff: () => 1 }));
    expect(await client.get((c) => void ((c.request.uri.path = '/flaky'), (c.request.uri.query = { token: 's3cret' })))).toBe('ok');
    expect(seen.map((s) => s.name)).toEqual(['call:start', 'attempt:start', 'attempt:end', 'attempt:start', 'attempt:end', 'call:end']);
    const call = seen[0].message.call as { method: string; url: string };
    expect(call.method).toBe('GET');
    expect(call.url).not.toContain('s3cret');
    for (const { message } of seen) expect(message.call).toBe(call);
    expect(seen.filter((s) => s.name === 'attempt:end').map((s) => (s.message.response as { statusCode: number }).statusCode)).toEqual([503, 200]);
    expect(seen[4].message.timings).toEqual(expect.objectContaining({ start: expect.any(Number), response: expect.any(Number) }));
    expect(seen[5].message.result).toBe('ok');
  });

  it('a refused connection: attempt:end with the typed error and its timings, then call:error', async () => {
    const port = await closedPort();
    const seen = listen();
    const client = kit.client((c) => void (c.request.uri = `http://127.0.0.1:${port}`));
    await expect(client.get()).rejects.toBeInstanceOf(NetworkError);
    expect(seen.map((s) => s.name)).toEqual(['call:start', 'attempt:start', 'attempt:end', 'call:error']);
    expect(seen[2].message.error).toBeInstanceOf(NetworkError);
    expect(seen[2].message.timings).toEqual(expect.objectContaining({ error: expect.any(Number) }));
    expect(seen[3].message.error).toBeInstanceOf(NetworkError);
  });

  it('client.telemetry: each attempt started with its resend count, its headers sent, run around the hooks, ended with the status', async () => {
    let calls = 0;
    kit.server.expect({
      method: 'GET',
      path: '/t',
      respond: (_req, res) =>
        void (++calls === 1 ? res.writeHead(503, { 'Retry-After': '0' }).end() : res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok')),
    });
    const started: TelemetryAttempt[] = [];
    const ended: AttemptOutcome[] = [];
    // the attempt's context, as OpenTelemetry's context manager keeps it: what runs inside sees it, async steps included
    const context = new AsyncLocalStorage<number>();
    const hookSaw: Array<number | undefined> = [];
    const telemetry: Telemetry = {
      startAttempt: (attempt) => {
        started.push(attempt);
        return {
          headers: { 'X-Trace': `attempt-${attempt.resendCount}` },
          run: (send) => context.run(attempt.resendCount, send),
          end: (outcome) => void ended.push(outcome),
        };
      },
    };
    const client = kit.client((c) => {
      c.client.telemetry = telemetry;
      c.execution.retry = { limit: 2, backoff: () => 1 };
      c.execution.hooks = { beforeAttempt: () => void hookSaw.push(context.getStore()) };
    });
    expect(await client.get((c) => void (c.request.uri.path = '/t'))).toBe('ok');
    expect(started.map((a) => [a.method, a.resendCount, a.serverAddress, a.serverPort])).toEqual([
      ['GET', 0, '127.0.0.1', Number(new URL(kit.server.url(kit.secure)).port)],
      ['GET', 1, '127.0.0.1', Number(new URL(kit.server.url(kit.secure)).port)],
    ]);
    expect(kit.server.requests.map((r) => r.headers['x-trace'])).toEqual(['attempt-0', 'attempt-1']);
    expect(ended.map((o) => o.statusCode)).toEqual([503, 200]);
    expect(ended[1].httpVersion).toBe(kit.http2 ? '2.0' : '1.1');
    expect(hookSaw).toEqual([0, 1]);
  });
});
