/**
 * `require('httpbuilder-ts/opentelemetry')`: the CommonJS build of `opentelemetry.ts`, the same
 * API; it loads `@opentelemetry/api` with `require()`, as a top-level await cannot be in CommonJS.
 *
 * @module
 */
import type { Telemetry } from './config/telemetry.js';
import { openTelemetryWith, type OpenTelemetryApi, type OpenTelemetryOptions } from './telemetry/otel-telemetry.js';
import { otelApiError } from './telemetry/otel-peer.js';

export type { OpenTelemetryOptions } from './telemetry/otel-telemetry.js';

const api = ((): OpenTelemetryApi => {
  try {
    // only the CommonJS build (dist/cjs) runs this file: exports' `require` condition leads here
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('@opentelemetry/api') as OpenTelemetryApi;
  } catch (error) {
    throw otelApiError(error);
  }
})();

/**
 * Makes the `c.client.telemetry` that reports to OpenTelemetry: one `CLIENT` span per attempt and
 * the `http.client.request.duration` histogram; see `httpbuilder-ts/opentelemetry`'s documentation.
 *
 * @example
 * const { openTelemetry } = require('httpbuilder-ts/opentelemetry');
 * const http = HttpBuilder.configure((c) => { c.client.telemetry = openTelemetry(); });
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): Telemetry {
  return openTelemetryWith(api, options);
}
