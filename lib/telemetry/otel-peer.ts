import { isMissingModule } from '../backends/optional-peer.js';
import { ConfigError } from '../core/errors.js';

/** The package `httpbuilder-ts/opentelemetry` needs: an optional peer of the library, never a dependency of its own. */
export const OTEL_API = '@opentelemetry/api';

/**
 * The error of an entry that could not load `@opentelemetry/api`: when it is not installed, a
 * `ConfigError` that says which package to add (as the backends' optional peers do); any other
 * failure as it came.
 */
export function otelApiError(error: unknown): unknown {
  return isMissingModule(error, OTEL_API)
    ? new ConfigError(`httpbuilder-ts/opentelemetry needs the '${OTEL_API}' package: npm install ${OTEL_API}`, { cause: error })
    : error;
}
