// An OpenTelemetry SDK set up as the tests need it: spans kept in memory, metrics collected on
// demand, W3C trace context, and the AsyncLocalStorage context manager (registered once for the
// test file, as an application registers it once at start).
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader, type HistogramMetricData, type MetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** A reader that exports nowhere: the test asks for what was recorded with `collect()`. */
class CollectingReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

let contextManager: AsyncLocalStorageContextManager | undefined;

/** Registers the AsyncLocalStorage context manager, once: without one, no context follows async steps. */
export function useAsyncContext(): void {
  if (contextManager !== undefined) return;
  contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
}

export interface OtelRig {
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  readonly propagator: W3CTraceContextPropagator;
  /** The spans ended so far, in the order they ended. */
  spans(): ReadableSpan[];
  /** The `http.client.request.duration` metric of an instrumentation scope (ours by default) as collected now, if anything was recorded. */
  duration(scope?: string): Promise<HistogramMetricData | undefined>;
  shutdown(): Promise<void>;
}

/** A tracer provider and a meter provider of their own, for one test. */
export function otelRig(): OtelRig {
  useAsyncContext();
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    propagator: new W3CTraceContextPropagator(),
    spans: () => exporter.getFinishedSpans(),
    async duration(name = 'httpbuilder-ts') {
      const { resourceMetrics } = await reader.collect();
      const metrics: MetricData[] = resourceMetrics.scopeMetrics.filter((scope) => scope.scope.name === name).flatMap((scope) => scope.metrics);
      return metrics.find((metric) => metric.descriptor.name === 'http.client.request.duration') as HistogramMetricData | undefined;
    },
    shutdown: async () => void (await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()])),
  };
}

/** The `traceparent` a span's context makes (W3C Trace Context, sampled). */
export function traceparentOf(span: ReadableSpan): string {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-0${traceFlags.toString(16)}`;
}
