// The public API of httpbuilder-ts, one list for both entries: index.ts (Node, Bun, Deno: with the
// node platform) and browser.ts (browsers and Workers: without it).

// the client and its verbs
export { HttpBuilder, type Verb, type HeadVerb } from './http-builder.js';
export type { ResultFor, HeadResultFor, VerbArgument, StreamResult, BlockFor } from './verb-arguments.js';
export { withResponse, type WithResponse, type ResponseOf, type BodyOf } from './result/with-response.js';

// what a configuration block writes (objects the block receives: types only)
export type { HttpConfig, ConfigBlock } from './config/http-config.js';
export type { RequestConfig, Headers, Cookies } from './config/request-config.js';
export type { CompressSetting, CompressOptions, RequestCoding } from './config/compress-options.js';
export type { UriConfig, Query, QueryValue } from './config/uri-config.js';
export type { AuthConfig, AuthOptions, BearerToken, BearerOptions, BearerRefresh } from './config/auth-config.js';
export type { ResponseConfig } from './config/response-config.js';
export type { PaginationOptions, NextPageBlock } from './config/pagination.js';
export type { ResponseHandler, ExceptionHandler } from './config/handlers.js';
export type { ExecutionConfig, Progress, ProgressListener, Interceptor, Next } from './config/execution-config.js';
export type { Timeouts, RetryOptions, RedirectOptions, Backoff } from './config/execution-options.js';
export type { Hooks, Attempt, AttemptResponse, RetryInfo, RedirectTarget } from './config/hooks.js';
export type { Logger } from './config/logger.js';
export type { ClientConfig, BackendChoice, BackendName, CookiesChoice, ProxyChoice } from './config/client-config.js';
export type { CacheChoice, CacheOptions, CacheStore, CacheEntry } from './config/cache-options.js';

// bodies: encoders, parsers, multipart
export type { Encoder, EncodedBody, EncodedWire } from './content/encoders.js';
export type { Parser } from './content/parsers.js';
export type { RawUpload } from './content/raw-upload.js';
export type { PipeableStream } from './content/stream-source.js';
export {
  multipart,
  Multipart,
  type MultipartBuilder,
  type MultipartPart,
  type PartContent,
  type PartStream,
  type PathSource,
  type SizedStream,
} from './content/multipart.js';

// what interceptors, handlers and parsers see
export type { RequestRecord } from './model/request-record.js';
export { FromServer } from './model/from-server.js';
export type { Timings, TimingPhases, TimingsRecorder } from './core/timings.js';
export type { Telemetry, TelemetryAttempt, AttemptTelemetry, AttemptOutcome } from './config/telemetry.js';
export type { PublicOnlyChoice } from './config/public-only.js';
export type { ConcurrencyOptions, RateLimitOptions } from './config/flow-options.js';
export type { CallMessage, AttemptMessage } from './pipeline/observed.js';
export { ResponseHeaders } from './model/response-headers.js';
export type { ResponseCookie } from './model/set-cookie.js';
export type { BodyBytes, BodyStream, PlatformBodyTypes } from './core/platform-types.js';

// result types
export { nullable, type NullableOf, type ResultType, type ResultOf, type FromJson, type VerbType, type HandlerValueOf } from './result/result-type.js';
export type { StandardSchemaV1, StandardResult } from './result/standard-schema.js';

// your own backend: the transport contract
export type {
  Backend,
  WireRequest,
  WireResponse,
  WireBody,
  TlsOptions,
  TlsVersion,
  ConnectionOptions,
  LookupFunction,
  TransportOptions,
  PublicOnlyPolicy,
} from './model/backend.js';
export type { ProxyRoute, ProxyEndpoint, ProxyAnswers, SocksLogin, SocksVersion } from './model/proxy-route.js';
export { bufferedBody, streamedBody, CONNECT_TIMEOUT, HEADERS_TIMEOUT, BODY_TIMEOUT } from './model/backend.js';

export { VERSION } from './core/version.js';
export * from './core/errors.js';
