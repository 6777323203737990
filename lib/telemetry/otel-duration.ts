import type { Attributes, Histogram, MeterProvider } from '@opentelemetry/api';
import { VERSION } from '../core/version.js';
import { INSTRUMENTATION_NAME } from './otel-names.js';

/** The advisory bucket boundaries the HTTP semantic conventions give `http.client.request.duration` (seconds). */
export const DURATION_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
 * The `http.client.request.duration` histogram of one meter provider: the given one, or the global
 * one as it is at each attempt. The global meter provider has no proxy (as the tracer provider
 * has): one registered after `openTelemetry()` was called is found at the next attempt.
 */
export class DurationHistogram {
  #provider: MeterProvider | undefined;
  #histogram: Histogram | undefined;

  constructor(
    private readonly given: MeterProvider | undefined,
    private readonly global: () => MeterProvider,
  ) {}

  /** Records one attempt's duration, in seconds. */
  record(seconds: number, attributes: Attributes): void {
    this.#current().record(seconds, attributes);
  }

  #current(): Histogram {
    const provider = this.given ?? this.global();
    if (provider !== this.#provider || this.#histogram === undefined) {
      this.#provider = provider;
      this.#histogram = provider.getMeter(INSTRUMENTATION_NAME, VERSION).createHistogram('http.client.request.duration', {
        description: 'Duration of HTTP client requests.',
        unit: 's',
        advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
      });
    }
    return this.#histogram;
  }
}
