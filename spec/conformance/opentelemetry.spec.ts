import { afterEach, expect, it } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NetworkError } from '../../lib/index.js';
import { openTelemetry } from '../../lib/opentelemetry.js';
import { digestRoute } from '../support/auth/index.js';
import { closedPort } from '../support/closed-port.js';
import { otelRig, traceparentOf, type OtelRig } from '../opentelemetry/otel-rig.js';
import { conformance, type Kit } from './kit.js';

let rig: OtelRig;
afterEach(async () => rig?.shutdown());

/** A client of this column reporting to a fresh in-memory SDK. */
function traced(kit: Kit, block?: Parameters<Kit['client']>[0]) {
  rig = otelRig();
  return kit.client((c) => {
    c.client.telemetry = openTelemetry({ tracerProvider: rig.tracerProvider, meterProvider: rig.meterProvider, propagator: rig.propagator });
    if (block) void block.call(c, c);
  });
}

/** `path` answers 503 (Retry-After: 0) the first time, then as `answer` says. */
function unavailableOnce(kit: Kit, path: string, answer: (res: ServerResponse) => void): void {
  let calls = 0;
  kit.server.expect({ method: 'GET', path, respond: (_req, res) => void (++calls === 1 ? res.writeHead(503, { 'Retry-After': '0' }).end() : answer(res)) });
}

const ok = { status: 200, headers: { 'Content-Type': 'text/plain' }, body: 'ok' };
const statusOf = (span: ReadableSpan) => span.status.code;

conformance('OpenTelemetry: httpbuilder-ts/opentelemetry', (kit) => {
  const port = () => Number(new URL(kit.server.url(kit.secure)).port);
  const base = () => kit.server.url(kit.secure).replace(/\/$/, '');
  const version = () => (kit.http2 ? '2' : '1.1');

  it('a retried call: a CLIENT span per attempt with the stable HTTP attributes, the resend count from the second on, traceparent sent with each', async () => {
    unavailableOnce(kit, '/flaky', (res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok'));
    const client = traced(kit, (c) => void (c.execution.retry = { limit: 2, backoff: () => 1 }));
    expect(await client.get((c) => void ((c.request.uri.path = '/flaky'), (c.request.uri.query = { token: 's3cret', q: 'x' })))).toBe('ok');
    const spans = rig.spans();
    expect(spans.map((s) => [s.name, s.kind, statusOf(s)])).toEqual([
      ['GET', SpanKind.CLIENT, SpanStatusCode.ERROR],
      ['GET', SpanKind.CLIENT, SpanStatusCode.UNSET],
    ]);
    const common = { 'http.request.method': 'GET', 'server.address': '127.0.0.1', 'server.port': port(), 'network.protocol.version': version() };
    expect(spans[0].attributes).toEqual({ ...common, 'url.full': expect.any(String), 'http.response.status_code': 503, 'error.type': '503' });
    expect(spans[1].attributes).toEqual({ ...common, 'url.full': expect.any(String), 'http.response.status_code': 200, 'http.request.resend_count': 1 });
    // credentials redacted as in logs
    expect(spans.map((s) => s.attributes['url.full'])).toEqual([`${base()}/flaky?token=***&q=x`, `${base()}/flaky?token=***&q=x`]);
    expect(spans[0].instrumentationScope).toEqual(expect.objectContaining({ name: 'httpbuilder-ts', version: expect.stringMatching(/^\d+\.\d+\.\d+/) }));
    // the server saw each attempt's own span as the parent of its work
    expect(kit.server.requests.map((r) => r.headers.traceparent)).toEqual(spans.map(traceparentOf));
    // attempts of one call are siblings: no span is made for the call as a whole
    expect(new Set(spans.map((s) => s.parentSpanContext?.spanId))).toEqual(new Set([undefined]));
  });

  it('a redirect: a span per hop, the second with resend_count 1 and its own URL', async () => {
    kit.server.expect({ method: 'GET', path: '/from', respond: { status: 302, headers: { Location: '/to' }, body: '' } });
    kit.server.expect({ method: 'GET', path: '/to', respond: ok });
    expect(await traced(kit).get((c) => void (c.request.uri.path = '/from'))).toBe('ok');
    const spans = rig.spans();
    expect(spans.map((s) => [s.attributes['url.full'], s.attributes['http.response.status_code'], s.attributes['http.request.resend_count']])).toEqual([
      [`${base()}/from`, 302, undefined],
      [`${base()}/to`, 200, 1],
    ]);
    expect(spans.map(statusOf)).toEqual([SpanStatusCode.UNSET, SpanStatusCode.UNSET]);
    expect(kit.server.requests.map((r) => r.headers.traceparent)).toEqual(spans.map(traceparentOf));
  });

  it('a Digest round: the challenged attempt (401, ERROR) and the answered one, each with its trace context', async () => {
    digestRoute(kit.server, { user: 'alice', password: 'wonderland' });
    expect(await traced(kit, (c) => c.request.auth.digest('alice', 'wonderland')).get((c) => void (c.request.uri.path = '/digest'))).toBe('ok-text');
    const spans = rig.spans();
    expect(spans.map((s) => [s.attributes['http.response.status_code'], s.attributes['error.type'], statusOf(s)])).toEqual([
      [401, '401', SpanStatusCode.ERROR],
      [200, undefined, SpanStatusCode.UNSET],
    ]);
    expect(spans[1].attributes['http.request.resend_count']).toBe(1);
    expect(kit.server.requests.map((r) => r.headers.traceparent)).toEqual(spans.map(traceparentOf));
  });

  it("the attempt's span is current in the hooks (a user's span there is its child), and a span around the call is its parent", async () => {
    kit.server.expect({ method: 'GET', path: '/nested', respond: ok });
    const client = traced(kit, (c) => {
      const tracer = rig.tracerProvider.getTracer('app');
      c.execution.hooks = {
        beforeAttempt: () => tracer.startSpan('sign').end(),
        afterAttempt: async () => {
          await new Promise((resolve) => setTimeout(resolve, 1)); // after an async step too
          tracer.startSpan('audit').end();
        },
      };
    });
    const outer = rig.tracerProvider.getTracer('app').startSpan('checkout');
    await context.with(trace.setSpan(context.active(), outer), () => client.get((c) => void (c.request.uri.path = '/nested')));
    outer.end();
    const byName = Object.fromEntries(rig.spans().map((s) => [s.name, s]));
    const attempt = byName.GET.spanContext();
    expect(byName.sign.parentSpanContext?.spanId).toBe(attempt.spanId);
    expect(byName.audit.parentSpanContext?.spanId).toBe(attempt.spanId);
    expect(byName.GET.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    expect(new Set(rig.spans().map((s) => s.spanContext().traceId))).toEqual(new Set([outer.spanContext().traceId]));
  });

  it("a refused connection: error.type is the transport's code, status ERROR, no status code", async () => {
    const refused = await closedPort();
    const client = traced(kit, (c) => void (c.request.uri = `http://127.0.0.1:${refused}`));
    await expect(client.get()).rejects.toBeInstanceOf(NetworkError);
    const [span] = rig.spans();
    expect(span.attributes).toEqual({
      'http.request.method': 'GET',
      'url.full': `http://127.0.0.1:${refused}/`,
      'server.address': '127.0.0.1',
      'server.port': refused,
      'error.type': 'ECONNREFUSED',
    });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: expect.stringContaining('127.0.0.1') });
    expect(span.events.map((e) => e.name)).toEqual(['exception']);
  });

  it('http.client.request.duration: one point per attempt, in seconds, with method, server, status code and error.type', async () => {
    unavailableOnce(kit, '/timed', (res) => void setTimeout(() => res.writeHead(200).end('ok'), 30));
    const started = performance.now();
    await traced(kit, (c) => void (c.execution.retry = { limit: 2, backoff: () => 1 })).get((c) => void (c.request.uri.path = '/timed'));
    const elapsed = (performance.now() - started) / 1000;
    const metric = await rig.duration();
    expect(metric?.descriptor).toEqual(expect.objectContaining({ name: 'http.client.request.duration', unit: 's' }));
    const points = metric!.dataPoints.sort((a, b) => Number(a.attributes['http.response.status_code']) - Number(b.attributes['http.response.status_code']));
    const common = { 'http.request.method': 'GET', 'server.address': '127.0.0.1', 'server.port': port(), 'network.protocol.version': version() };
    expect(points.map((p) => p.attributes)).toEqual([
      { ...common, 'http.response.status_code': 200 },
      { ...common, 'http.response.status_code': 503, 'error.type': '503' },
    ]);
    expect(points.map((p) => p.value.count)).toEqual([1, 1]);
    // the delayed head is in the 200's duration, and no attempt took longer than the call
    expect(points[0].value.sum).toBeGreaterThanOrEqual(0.025);
    expect(points[0].value.sum! + points[1].value.sum!).toBeLessThanOrEqual(elapsed);
    expect(points[0].value.buckets.boundaries).toEqual([0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]);
  });
});
