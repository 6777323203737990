/**
 * `httpbuilder-ts/testing`: test the code that calls an API through httpbuilder-ts without a
 * server. {@link MockBackend} answers from expectations; the whole pipeline above the transport
 * runs for real.
 *
 * @example
 * import { MockBackend } from 'httpbuilder-ts/testing';
 * const mock = new MockBackend();
 * mock.on('GET', '/users/42').reply(200, { id: 42 });
 * const http = HttpBuilder.configure((c) => { c.request.uri = 'https://api.example.com'; c.client.backend = mock; });
 *
 * @module
 */
// a node entry: node's transports, decoders and streams, whichever entry is imported first
import './node-platform.js';
export { MockBackend, MockUnmatchedError } from './testing/mock-backend.js';
export { MockExpectation, type MockUrl, type MockHeaderMatch, type MockBodyMatch, type MockReplyTuple, type MockAnswer } from './testing/mock-expectation.js';
export type { MockCall } from './testing/mock-call.js';
export type { Har, HarLog, HarEntry, HarRequest, HarResponse, HarNameValue, HarPostData, HarContent } from './testing/har.js';
export type { HarRecordOptions } from './testing/har-recorder.js';
