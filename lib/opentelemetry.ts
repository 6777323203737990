/**
 * `httpbuilder-ts/opentelemetry`: OpenTelemetry tracing and metrics for every attempt, through
 * `c.client.telemetry`. Needs `@opentelemetry/api` (an optional peer: install it beside the SDK).
 *
 * @example
 * import { HttpBuilder } from 'httpbuilder-ts';
 * import { openTelemetry } from 'httpbuilder-ts/opentelemetry';
 * const http = HttpBuilder.configure((c) => { c.client.telemetry = openTelemetry(); });
 *
 * @module
 */
import type { Telemetry } from './config/telemetry.js';
import { openTelemetryWith, type OpenTelemetryApi, type OpenTelemetryOptions } from './telemetry/otel-telemetry.js';
import { otelApiError } from './telemetry/otel-peer.js';

export type { OpenTelemetryOptions } from './telemetry/otel-telemetry.js';

// loaded here, once, so that a missing package is a ConfigError naming it (a static import would fail
// before any of this module ran); require() gets opentelemetry-require.ts, which loads it its own way
const api: OpenTelemetryApi = await import('@opentelemetry/api').catch((error: unknown) => {
  throw otelApiError(error);
});

/**
 * Makes the `c.client.telemetry` that reports to OpenTelemetry: one `CLIENT` span per attempt
 * (every retry, redirect hop and authentication round) named by the method, with the stable HTTP
 * semantic conventions (`http.request.method`, `url.full` redacted, `server.address`,
 * `server.port`, `http.response.status_code`, `network.protocol.version`, `error.type`,
 * `http.request.resend_count`); status `ERROR` for a response >= 400 and for an attempt without
 * one. The span is current while the attempt's hooks and transport run, and its `traceparent` and
 * `tracestate` go out with the attempt. Each attempt's duration goes to the
 * `http.client.request.duration` histogram (seconds). Without options, OpenTelemetry's global
 * tracer provider, meter provider and propagator are used.
 *
 * @example
 * import { HttpBuilder } from 'httpbuilder-ts';
 * import { openTelemetry } from 'httpbuilder-ts/opentelemetry';
 * import { trace } from '@opentelemetry/api';
 * const http = HttpBuilder.configure((c) => {
 *   c.request.uri = 'https://api.example.com';
 *   c.client.telemetry = openTelemetry({ tracerProvider: trace.getTracerProvider() });
 * });
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): Telemetry {
  return openTelemetryWith(api, options);
}
