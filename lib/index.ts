/**
 * httpbuilder-ts: an HTTP client with a configuration DSL, typed results and interchangeable backends.
 *
 * @example
 * import { HttpBuilder } from 'httpbuilder-ts';
 * const http = HttpBuilder.configure((c) => { c.request.uri = 'https://api.example.com'; });
 * const user = await http.get(User, (c) => { c.request.uri.path = '/users/42'; });
 *
 * @module
 */
export { HttpBuilder, type Verb } from './http-builder.js';
export { HttpConfig, type ConfigBlock, type ContextMap } from './config/http-config.js';
export { RequestConfig, type Headers, type Cookies } from './config/request-config.js';
export { ResponseConfig } from './config/response-config.js';
export { ExecutionConfig } from './config/execution-config.js';
export type { Timeouts, RetryOptions, RedirectOptions, Backoff } from './config/execution-options.js';
export { ClientConfig, type BackendChoice } from './config/client-config.js';
export { UriConfig, type Query, type QueryValue } from './config/uri-config.js';
export { AuthConfig, type AuthOptions } from './config/auth-config.js';
export type { ResponseHandler, ExceptionHandler, HandlerTier } from './config/handlers.js';
export type { Encoder, EncodedBody, EncodedWire } from './content/encoders.js';
export type { Parser } from './content/parsers.js';
export type { RawUpload } from './content/raw-upload.js';
export { multipart, Multipart, type MultipartBuilder, type MultipartPart, type PartContent, type PartStream, type PathSource, type SizedStream } from './content/multipart.js';
export type { RequestRecord } from './model/request-record.js';
export { FromServer } from './model/from-server.js';
export { ResponseHeaders } from './model/response-headers.js';
export type { ResponseCookie } from './model/set-cookie.js';
export type { ResultType, ResultOf, FromJson } from './result/result-type.js';
export type { StandardSchemaV1, StandardResult } from './result/standard-schema.js';
export type { Backend, WireRequest, WireResponse, WireBody, TlsOptions } from './model/backend.js';
export { bufferedBody, streamedBody, CONNECT_TIMEOUT } from './model/backend.js';
export { VERSION } from './core/version.js';
export * from './core/errors.js';
export type { Scope } from './config/scope.js';
export { type BackendName } from './config/client-config.js';
export { type Credentials } from './config/auth-config.js';
export { type Progress, type ProgressListener, type Interceptor, type Next } from './config/execution-config.js';
export { type Logger } from './config/logger.js';
export { type ResultFor, type VerbArgument } from './verb-arguments.js';
