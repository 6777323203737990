import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { metrics, propagation, SpanStatusCode, trace } from '@opentelemetry/api';
import { ConfigError, HttpBuilder, TimeoutError, type ConfigBlock } from '../../lib/index.js';
import * as semconv from '@opentelemetry/semantic-conventions';
import { openTelemetry } from '../../lib/opentelemetry.js';
import { otelApiError } from '../../lib/telemetry/otel-peer.js';
import { TestServer } from '../support/test-server.js';
import { otelRig, traceparentOf, type OtelRig } from './otel-rig.js';

let server: TestServer;
let rig: OtelRig;
const open: HttpBuilder[] = [];
beforeAll(async () => void (server = await TestServer.start()));
afterAll(async () => server.close());
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
  trace.disable();
  metrics.disable();
  propagation.disable();
  server.reset();
  await rig?.shutdown();
});

function client(block: ConfigBlock): HttpBuilder {
  const made = HttpBuilder.configure((c) => {
    c.request.uri = server.httpUrl;
    c.client.backend = 'native';
    void block.call(c, c);
  });
  open.push(made);
  return made;
}

const ok = { status: 200, headers: { 'Content-Type': 'text/plain' }, body: 'ok' };

describe('openTelemetry() without options', () => {
  it('uses the global tracer provider, propagator and meter provider, also when they are registered after it was made', async () => {
    server.expect({ method: 'GET', path: '/global', respond: ok });
    const telemetry = openTelemetry();
    rig = otelRig();
    trace.setGlobalTracerProvider(rig.tracerProvider);
    metrics.setGlobalMeterProvider(rig.meterProvider);
    propagation.setGlobalPropagator(rig.propagator);
    await client((c) => void (c.client.telemetry = telemetry)).get((c) => void (c.request.uri.path = '/global'));
    const [span] = rig.spans();
    expect(span.attributes['http.response.status_code']).toBe(200);
    expect(server.requests[0].headers.traceparent).toBe(traceparentOf(span));
    expect((await rig.duration())?.dataPoints.map((p) => p.value.count)).toEqual([1]);
  });
});

describe('the names', () => {
  it('every attribute, and the metric, is a stable name of @opentelemetry/semantic-conventions (its main entry has only those)', async () => {
    let calls = 0;
    server.expect({ method: 'GET', path: '/names', respond: (_req, res) => void (++calls === 1 ? res.writeHead(503).end() : res.writeHead(200).end('ok')) });
    rig = otelRig();
    const telemetry = openTelemetry({ tracerProvider: rig.tracerProvider, meterProvider: rig.meterProvider });
    await client((c) => {
      c.client.telemetry = telemetry;
      c.execution.retry = { limit: 1, backoff: () => 1 };
    }).get((c) => void (c.request.uri.path = '/names'));
    telemetry
      .startAttempt({ method: 'PROPFIND', url: 'http://127.0.0.1:1/', serverAddress: '127.0.0.1', serverPort: 1, resendCount: 0 })
      .end({ timings: undefined });
    const stable = new Set<unknown>(Object.values(semconv));
    const metric = await rig.duration();
    const names = new Set([...rig.spans().flatMap((span) => Object.keys(span.attributes)), ...metric!.dataPoints.flatMap((p) => Object.keys(p.attributes))]);
    expect([...names].filter((name) => !stable.has(name))).toEqual([]);
    expect(names.size).toBe(9); // what the contract lists, and method_original for the _OTHER method
    expect(metric!.descriptor.name).toBe(semconv.METRIC_HTTP_CLIENT_REQUEST_DURATION);
  });
});

describe('without client.telemetry', () => {
  it('nothing is emitted or sent, even with an SDK registered', async () => {
    server.expect({ method: 'GET', path: '/plain', respond: ok });
    rig = otelRig();
    trace.setGlobalTracerProvider(rig.tracerProvider);
    metrics.setGlobalMeterProvider(rig.meterProvider);
    propagation.setGlobalPropagator(rig.propagator);
    await client(() => undefined).get((c) => void (c.request.uri.path = '/plain'));
    expect(rig.spans()).toEqual([]);
    expect(await rig.duration()).toBeUndefined();
    expect(server.requests[0].headers.traceparent).toBeUndefined();
  });
});

describe('error.type of an attempt without a response', () => {
  it("a timeout: the error's code (ERR_TIMEOUT), status ERROR, the exception recorded", async () => {
    server.expect({ method: 'GET', path: '/slow', respond: (_req, res) => void setTimeout(() => res.writeHead(200).end('late'), 500) });
    rig = otelRig();
    const http = client((c) => {
      c.client.telemetry = openTelemetry({ tracerProvider: rig.tracerProvider, meterProvider: rig.meterProvider });
      c.execution.timeout = { response: 50 };
    });
    await expect(http.get((c) => void (c.request.uri.path = '/slow'))).rejects.toBeInstanceOf(TimeoutError);
    const [span] = rig.spans();
    expect([span.attributes['error.type'], span.attributes['http.response.status_code'], span.status.code]).toEqual([
      'ERR_TIMEOUT',
      undefined,
      SpanStatusCode.ERROR,
    ]);
    expect(span.events[0].attributes?.['exception.message']).toMatch(/timeout/);
    expect((await rig.duration())?.dataPoints.map((p) => p.attributes['error.type'])).toEqual(['ERR_TIMEOUT']);
  });

  it('an aborted call: ERR_ABORTED', async () => {
    server.expect({ method: 'GET', path: '/hang', respond: (_req, res) => void setTimeout(() => res.writeHead(200).end('late'), 500) });
    rig = otelRig();
    const controller = new AbortController();
    const http = client((c) => {
      c.client.telemetry = openTelemetry({ tracerProvider: rig.tracerProvider, meterProvider: rig.meterProvider });
      c.execution.signal = controller.signal;
    });
    const call = http.get((c) => void (c.request.uri.path = '/hang'));
    setTimeout(() => controller.abort(), 30);
    await expect(call).rejects.toThrow();
    expect(rig.spans().map((span) => span.attributes['error.type'])).toEqual(['ERR_ABORTED']);
  });
});

describe('a method the semantic conventions do not know', () => {
  it('is _OTHER, with the method sent in http.request.method_original, in a span named HTTP', () => {
    rig = otelRig();
    const attempt = openTelemetry({ tracerProvider: rig.tracerProvider, meterProvider: rig.meterProvider }).startAttempt({
      method: 'PROPFIND',
      url: 'http://127.0.0.1:1/dav',
      serverAddress: '127.0.0.1',
      serverPort: 1,
      resendCount: 0,
    });
    attempt.end({ statusCode: 207, httpVersion: '1.1', timings: undefined });
    const [span] = rig.spans();
    expect([span.name, span.attributes['http.request.method'], span.attributes['http.request.method_original']]).toEqual(['HTTP', '_OTHER', 'PROPFIND']);
  });
});

describe('a missing @opentelemetry/api', () => {
  it('is a ConfigError that says what to install', () => {
    const missing = Object.assign(new Error("Cannot find package '@opentelemetry/api' imported from /app/node_modules/httpbuilder-ts/dist/opentelemetry.js"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const error = otelApiError(missing);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe("httpbuilder-ts/opentelemetry needs the '@opentelemetry/api' package: npm install @opentelemetry/api");
    expect((error as ConfigError).cause).toBe(missing);
  });

  it('another failure (a module the package itself misses, a broken install) is left as it came', () => {
    const inner = Object.assign(new Error("Cannot find module './build/src/index.js'"), { code: 'MODULE_NOT_FOUND' });
    const broken = new SyntaxError('Unexpected token');
    expect([otelApiError(inner), otelApiError(broken)]).toEqual([inner, broken]);
  });
});
