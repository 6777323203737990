import { ConfigError } from '../core/errors.js';
import { isRecord } from '../core/scalar.js';
import type { RequestRecord } from '../model/request-record.js';
import type { Interceptor, Next } from '../config/execution-config.js';

/** Chains the interceptors registered for `method` around `core`, first registered outermost. */
export function chain(
  interceptors: ReadonlyArray<{ readonly methods: ReadonlySet<string>; readonly intercept: Interceptor }>,
  method: string,
  core: Next,
): Next {
  let next = core;
  for (let i = interceptors.length - 1; i >= 0; i--) {
    const { methods, intercept } = interceptors[i];
    if (!methods.has(method)) continue;
    // bound, not an arrow made per call: docs/performance.md, "Arrows made per request"
    next = intercepted.bind(undefined, intercept, next);
  }
  return next;
}

/** `intercept(request, inner)`, always as a promise (an interceptor may throw or return a plain value). */
async function intercepted(intercept: Interceptor, inner: Next, request: RequestRecord): Promise<unknown> {
  return await intercept(request, inner);
}

/** What an interceptor passed to `next()`, checked to be a request record before anything reads it. */
export function checkedRecord(request: unknown): RequestRecord {
  const record = request as RequestRecord | null | undefined;
  if (typeof record !== 'object' || record === null || typeof record.method !== 'string' || typeof record.url !== 'string') {
    throw new ConfigError('an interceptor passed something other than a request record to next()');
  }
  const wrong = invalidPart(record);
  if (wrong !== undefined) throw new ConfigError(`an interceptor passed a request record to next() without valid ${wrong}`);
  return record;
}

/** The part of a record that is read further in as it stands, and is not what it must be (headers as an array would go out as a header named `0`). */
function invalidPart(record: RequestRecord): string | undefined {
  if (!isRecord(record.headers)) return 'headers (an object of { name: value })';
  if (record.contentType !== undefined && typeof record.contentType !== 'string') return 'contentType (a string)';
  if (record.charset !== undefined && typeof record.charset !== 'string') return 'charset (a string)';
  if (typeof record.context !== 'function') return 'context() (copy the record with { ...request, ... })';
  return undefined;
}
