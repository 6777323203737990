// What @opentelemetry/instrumentation-undici emits for the same request, beside what
// httpbuilder-ts/opentelemetry emits: the attribute names we share carry the same values, and the
// ones only it has are listed (they describe the socket, which only a transport sees, or are
// opt-in in the semantic conventions). And how the two coexist on the undici backend.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { propagation, SpanKind } from '@opentelemetry/api';
import { CompositePropagator } from '@opentelemetry/core';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { request } from 'undici';
import { HttpBuilder } from '../../lib/index.js';
import { openTelemetry } from '../../lib/opentelemetry.js';
import { closedPort } from '../support/closed-port.js';
import { TestServer } from '../support/test-server.js';
import { otelRig, traceparentOf, type OtelRig } from './otel-rig.js';

/**
 * What the undici instrumentation adds that we do not: the socket's peer (only a transport knows
 * it), the method as sent (the conventions ask for it only when `http.request.method` is `_OTHER`,
 * as ours does), and attributes the conventions make opt-in (`url.scheme`; `user_agent.original`
 * too, which it adds when the request has a User-Agent, as fetch's has) or do not name for clients.
 */
const ONLY_UNDICI = ['http.request.method_original', 'network.peer.address', 'network.peer.port', 'url.path', 'url.query', 'url.scheme'];
/** What we add that it does not: the conventions' `http.request.resend_count` (it sees one request, not a call's attempts). */
const ONLY_OURS = ['http.request.resend_count'];

let server: TestServer;
let rig: OtelRig;
let undici: UndiciInstrumentation;
beforeAll(async () => void (server = await TestServer.start()));
afterAll(async () => server.close());
afterEach(async () => {
  server.reset();
  undici?.disable();
  propagation.disable();
  await rig?.shutdown();
});

/** The undici instrumentation, reporting to a fresh rig (as an application's SDK would set it up). */
function instrumentUndici(): void {
  rig = otelRig();
  undici = new UndiciInstrumentation(); // enabled as it is made; { enabled: false } is how it is turned off
  undici.setTracerProvider(rig.tracerProvider);
  undici.setMeterProvider(rig.meterProvider);
}

const scope = (name: string) => (span: ReadableSpan) => span.instrumentationScope.name === name;
const names = (span: ReadableSpan) => Object.keys(span.attributes).sort();

describe('the attributes beside @opentelemetry/instrumentation-undici', () => {
  it('one request each way: the shared attributes have the same values; the differences are the listed ones', async () => {
    server.expect({ method: 'GET', path: '/same', respond: { status: 404, headers: { 'Content-Type': 'text/plain' }, body: 'none' } });
    instrumentUndici();
    const url = `${server.httpUrl}/same?q=1`;
    await (await request(url)).body.text();
    const http = HttpBuilder.configure((c) => {
      c.client.backend = 'native'; // a transport the undici instrumentation does not see
      c.client.telemetry = openTelemetry({ tracerProvider: rig.tracerProvider, meterProvider: rig.meterProvider });
    });
    await http.get(String, (c) => void ((c.request.uri = url), c.response.failure(() => 'none')));
    await http.close();
    const theirs = rig.spans().find(scope('@opentelemetry/instrumentation-undici'))!;
    const ours = rig.spans().find(scope('httpbuilder-ts'))!;
    expect([ours.name, ours.kind, ours.status]).toEqual([theirs.name, theirs.kind, theirs.status]);
    expect(names(theirs).filter((name) => !(name in ours.attributes))).toEqual(ONLY_UNDICI);
    expect(names(ours).filter((name) => !(name in theirs.attributes))).toEqual([]);
    for (const name of names(ours)) expect([name, ours.attributes[name]]).toEqual([name, theirs.attributes[name]]);
    expect(ours.attributes['error.type']).toBe('404');
    // the duration points: the same attribute names, but url.scheme (opt-in for this metric)
    const [oursMetric, theirsMetric] = [await rig.duration(), await rig.duration('@opentelemetry/instrumentation-undici')];
    const [oursPoint, theirsPoint] = [oursMetric!.dataPoints, theirsMetric!.dataPoints].map((points) => (expect(points).toHaveLength(1), points[0]));
    expect(Object.keys(theirsPoint.attributes).filter((name) => !(name in oursPoint.attributes))).toEqual(['url.scheme']);
    for (const [name, value] of Object.entries(oursPoint.attributes)) expect([name, value]).toEqual([name, theirsPoint.attributes[name]]);
    expect([oursMetric!.descriptor.unit, oursMetric!.dataPointType]).toEqual([theirsMetric!.descriptor.unit, theirsMetric!.dataPointType]);
  });

  it("a retry is where we add the resend count; a refused connection: the same error.type (the transport's code)", async () => {
    const port = await closedPort();
    instrumentUndici();
    await expect(request(`http://127.0.0.1:${port}/`)).rejects.toThrow();
    const http = HttpBuilder.configure((c) => {
      c.request.uri = `http://127.0.0.1:${port}/`;
      c.client.backend = 'native';
      c.client.telemetry = openTelemetry({ tracerProvider: rig.tracerProvider, meterProvider: rig.meterProvider });
      c.execution.retry = { limit: 1, backoff: () => 1 };
    });
    await expect(http.get()).rejects.toThrow();
    await http.close();
    const theirs = rig.spans().find(scope('@opentelemetry/instrumentation-undici'))!;
    const ours = rig.spans().filter(scope('httpbuilder-ts'));
    expect(ours.map((span) => span.attributes['error.type'])).toEqual([theirs.attributes['error.type'], theirs.attributes['error.type']]);
    expect(theirs.attributes['error.type']).toBe('ECONNREFUSED');
    expect(names(ours[1]).filter((name) => !(name in theirs.attributes))).toEqual(ONLY_OURS);
  });
});

describe('beside @opentelemetry/instrumentation-undici on the undici backend', () => {
  it('both add a traceparent (undici appends its own): the server gets two, a header W3C Trace Context does not allow', async () => {
    server.expect({ method: 'GET', path: '/both', respond: { status: 200, headers: { 'Content-Type': 'text/plain' }, body: 'ok' } });
    instrumentUndici();
    propagation.setGlobalPropagator(rig.propagator); // the SDK's default; both inject with the global one
    const http = HttpBuilder.configure((c) => {
      c.request.uri = server.httpUrl;
      c.client.backend = 'undici';
      c.client.telemetry = openTelemetry({ tracerProvider: rig.tracerProvider, meterProvider: rig.meterProvider });
    });
    await http.get((c) => void (c.request.uri.path = '/both'));
    await http.close();
    const [ours, theirs] = [rig.spans().find(scope('httpbuilder-ts'))!, rig.spans().find(scope('@opentelemetry/instrumentation-undici'))!];
    expect(server.requests[0].headers.traceparent).toBe(`${traceparentOf(ours)}, ${traceparentOf(theirs)}`);
  });

  it("with a propagator that writes nothing (docs/observability.md): its transport span is a child of our attempt's span, and the only traceparent sent", async () => {
    server.expect({ method: 'GET', path: '/both', respond: { status: 200, headers: { 'Content-Type': 'text/plain' }, body: 'ok' } });
    instrumentUndici();
    propagation.setGlobalPropagator(rig.propagator);
    const http = HttpBuilder.configure((c) => {
      c.request.uri = server.httpUrl;
      c.client.backend = 'undici';
      const propagator = new CompositePropagator(); // none: the transport's instrumentation sends the trace context
      c.client.telemetry = openTelemetry({ tracerProvider: rig.tracerProvider, meterProvider: rig.meterProvider, propagator });
    });
    expect(await http.get((c) => void (c.request.uri.path = '/both'))).toBe('ok');
    await http.close();
    const ours = rig.spans().find(scope('httpbuilder-ts'))!;
    const theirs = rig.spans().find(scope('@opentelemetry/instrumentation-undici'))!;
    expect([ours.kind, theirs.kind]).toEqual([SpanKind.CLIENT, SpanKind.CLIENT]);
    expect(theirs.parentSpanContext?.spanId).toBe(ours.spanContext().spanId);
    expect(server.requests[0].headers.traceparent).toBe(traceparentOf(theirs));
  });

  it('turned off for our requests by its ignoreRequestHook: one span per attempt, ours', async () => {
    server.expect({ method: 'GET', path: '/ours', respond: { status: 200, headers: { 'Content-Type': 'text/plain' }, body: 'ok' } });
    instrumentUndici();
    undici.setConfig({ ignoreRequestHook: (req) => req.origin === server.httpUrl });
    const http = HttpBuilder.configure((c) => {
      c.request.uri = server.httpUrl;
      c.client.backend = 'undici';
      c.client.telemetry = openTelemetry({ tracerProvider: rig.tracerProvider, meterProvider: rig.meterProvider, propagator: rig.propagator });
    });
    await http.get((c) => void (c.request.uri.path = '/ours'));
    await http.close();
    expect(rig.spans().map((span) => span.instrumentationScope.name)).toEqual(['httpbuilder-ts']);
    expect(server.requests[0].headers.traceparent).toBe(traceparentOf(rig.spans()[0]));
  });
});
