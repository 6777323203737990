import type * as Api from '@opentelemetry/api';
import type { Attributes, Context, MeterProvider, Span, TextMapPropagator, Tracer, TracerProvider } from '@opentelemetry/api';
import type { AttemptOutcome, AttemptTelemetry, Telemetry, TelemetryAttempt } from '../config/telemetry.js';
import { VERSION } from '../core/version.js';
import { DurationHistogram } from './otel-duration.js';
import { errorType, INSTRUMENTATION_NAME, methodAttribute, protocolVersion } from './otel-names.js';

/** What `openTelemetry()` takes; each defaults to OpenTelemetry's global one. */
export interface OpenTelemetryOptions {
  /** Where the attempts' spans go (default: the global tracer provider, `trace.getTracerProvider()`). */
  readonly tracerProvider?: TracerProvider;
  /** Where `http.client.request.duration` goes (default: the global meter provider, as it is at each attempt). */
  readonly meterProvider?: MeterProvider;
  /** What writes `traceparent`/`tracestate` (default: the global propagator, `propagation`). */
  readonly propagator?: TextMapPropagator;
}

/** The one `@opentelemetry/api` value this module uses, given by the entry that loaded the package. */
export type OpenTelemetryApi = Pick<typeof Api, 'context' | 'trace' | 'metrics' | 'propagation' | 'SpanKind' | 'SpanStatusCode'>;

/** Sets a header on a plain object: what a propagator writes into. */
const HEADER_SETTER: Api.TextMapSetter<Record<string, string>> = { set: (carrier, key, value) => void (carrier[key] = value) };

/** The {@link Telemetry} that `openTelemetry(options)` returns, over the API the entry loaded. */
export function openTelemetryWith(api: OpenTelemetryApi, options: OpenTelemetryOptions): Telemetry {
  const tracer: Tracer = (options.tracerProvider ?? api.trace.getTracerProvider()).getTracer(INSTRUMENTATION_NAME, VERSION);
  const duration = new DurationHistogram(options.meterProvider, () => api.metrics.getMeterProvider());
  const inject = (context: Context, carrier: Record<string, string>) =>
    options.propagator ? options.propagator.inject(context, carrier, HEADER_SETTER) : api.propagation.inject(context, carrier, HEADER_SETTER);
  return {
    startAttempt(attempt: TelemetryAttempt): AttemptTelemetry {
      const started = performance.now();
      const method = methodAttribute(attempt.method);
      const attributes: Attributes = {
        'http.request.method': method,
        'server.address': attempt.serverAddress,
        'server.port': attempt.serverPort,
      };
      if (method === '_OTHER') attributes['http.request.method_original'] = attempt.method;
      const spanAttributes: Attributes = { ...attributes, 'url.full': attempt.url };
      if (attempt.resendCount > 0) spanAttributes['http.request.resend_count'] = attempt.resendCount;
      const parent = api.context.active();
      const span = tracer.startSpan(method === '_OTHER' ? 'HTTP' : method, { kind: api.SpanKind.CLIENT, attributes: spanAttributes }, parent);
      const context = api.trace.setSpan(parent, span);
      const headers: Record<string, string> = {};
      inject(context, headers);
      return {
        headers,
        run: (send) => api.context.with(context, send),
        end(outcome: AttemptOutcome) {
          const ended = endAttributes(outcome);
          Object.assign(attributes, ended);
          span.setAttributes(ended);
          failed(api, span, outcome);
          span.end();
          duration.record((performance.now() - started) / 1000, attributes);
        },
      };
    },
  };
}

/** What an attempt's end adds to its span and its duration point. */
function endAttributes(outcome: AttemptOutcome): Attributes {
  const attributes: Attributes = {};
  if (outcome.statusCode !== undefined) {
    attributes['http.response.status_code'] = outcome.statusCode;
    const version = protocolVersion(outcome.httpVersion);
    if (version !== undefined) attributes['network.protocol.version'] = version;
    if (outcome.statusCode >= 400) attributes['error.type'] = String(outcome.statusCode);
  } else if (outcome.error !== undefined) {
    attributes['error.type'] = errorType(outcome.error);
  }
  return attributes;
}

/** Status `ERROR` for a response >= 400 (no description, as the conventions ask) and for an attempt without a response. */
function failed(api: OpenTelemetryApi, span: Span, outcome: AttemptOutcome): void {
  if (outcome.statusCode !== undefined) {
    if (outcome.statusCode >= 400) span.setStatus({ code: api.SpanStatusCode.ERROR });
  } else if (outcome.error !== undefined) {
    span.recordException(outcome.error);
    span.setStatus({ code: api.SpanStatusCode.ERROR, message: outcome.error.message });
  }
}
