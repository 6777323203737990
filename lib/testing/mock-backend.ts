import type { Backend, WireRequest, WireResponse } from '../model/backend.js';
import type { BackendName } from '../config/client-config.js';
import { HttpBuilderError } from '../core/errors.js';
import { redactUrl } from '../core/redact.js';
import { readHar, replayOf } from './har.js';
import { harRecorder, type HarRecordOptions } from './har-recorder.js';
import { receive, type MockCall } from './mock-call.js';
import { MockExpectation, type MockUrl } from './mock-expectation.js';
import { mockFailure, serverDelay, wireReply } from './mock-reply.js';

/**
 * A request no expectation of a {@link MockBackend} matched. The message names the request and
 * the closest expectation, with what differed.
 *
 * @example
 * await http.get().catch((e: unknown) => e instanceof MockUnmatchedError && console.log(e.message));
 */
export class MockUnmatchedError extends HttpBuilderError {
  override readonly name = 'MockUnmatchedError' as const;
  override readonly code = 'ERR_MOCK_UNMATCHED' as const;
}

/**
 * A backend that answers from expectations instead of the network, for testing code that uses
 * httpbuilder-ts: everything above the transport (handlers, result types, redirects, retries,
 * auth challenges, cookies, decompression, parsers, limits, interceptors) runs for real.
 *
 * @example
 * import { MockBackend } from 'httpbuilder-ts/testing';
 * const mock = new MockBackend();
 * mock.on('GET', '/users/42').reply(200, { id: 42, name: 'Ada' });
 * const http = HttpBuilder.configure((c) => {
 *   c.request.uri = 'https://api.example.com';
 *   c.client.backend = mock;
 * });
 * await http.get((c) => { c.request.uri.path = '/users/42'; }); // { id: 42, name: 'Ada' }
 * mock.assertDone();
 */
export class MockBackend implements Backend {
  readonly name: string = 'mock';
  /**
   * A client with `client.proxy` (or the environment's proxies) may use a mock: each call
   * records the proxy it would have gone through ({@link MockCall.proxy}); none is contacted.
   */
  readonly proxies = true;
  /** Every request received, matched or not, in order. */
  readonly calls: MockCall[] = [];
  readonly #expectations: MockExpectation[] = [];

  /**
   * A backend that sends each request through a real one (`'native'` unless `backend` names
   * another, or is a Backend object) and appends the exchange to `file` as a HAR 1.2 entry
   * (the file is created, or read and written back: it holds one valid HAR document after every
   * exchange). Each redirect hop, auth challenge and retry is an entry of its own, with the HTTP
   * version it went in (`HTTP/1.1`, `HTTP/2`).
   *
   * It sends exactly as the client would without it: set as `client.backend`, the backend made
   * from the name gets the client's `execution.tls`, `client.connection` and `client.http2`
   * (a Backend object is used as the client would use it). What it cannot honour is a ConfigError
   * when the client is made: `client.http2` with `'axios'`, `options.tls` beside `execution.tls`.
   *
   * Secrets: the value of every credential header, request and response (`Authorization`,
   * `Cookie`, `Set-Cookie`, `X-Api-Key`, `Private-Token`, `X-Auth-Token`, ...: the rule of logs
   * and `hb -v`) and user info in URLs are written as `***`; query strings and bodies as they are
   * (a replay matches on them). The file has mode 0600, also when it was there with another.
   *
   * A test tool: the whole response body is read before `send` returns (the response timeout
   * covers it), and the response is handed on with that body in memory. `options.tls` (not in
   * the HAR spec, our own) sets the TLS of a backend made from a name for a client without
   * `execution.tls`. `close()` closes the backend made from a name, not a Backend object passed in.
   *
   * @example
   * const recorder = MockBackend.record('fixtures/users.har', 'undici');
   * const http = HttpBuilder.configure((c) => {
   *   c.request.uri = 'https://localhost:8443';
   *   c.client.backend = recorder;
   *   c.execution.tls = { ca: testCa }; // the recorder uses it, as the client would
   * });
   * await http.get((c) => void (c.request.uri.path = '/users/42'));
   * await http.close();
   */
  static record(file: string, backend?: BackendName | Backend, options?: HarRecordOptions): Backend {
    return harRecorder(file, backend, options);
  }

  /**
   * A mock that replays a HAR file: one expectation per entry, in order, on the recorded method
   * and absolute URL (and exact body, when the request had one), answering with the recorded
   * status, headers and decoded body (without `Content-Encoding`, `Content-Length` and
   * `Transfer-Encoding`: the mock frames the body itself) and the standard reason phrase. A
   * `Set-Cookie` recorded as `***` replays as `***` (no usable cookie; replayed requests are not
   * matched on their `Cookie` header, so only code that reads the cookie itself sees the difference).
   *
   * @example
   * const mock = MockBackend.fromHar('fixtures/users.har');
   * const http = HttpBuilder.configure((c) => { c.request.uri = 'https://localhost:8443'; c.client.backend = mock; });
   * await http.get((c) => void (c.request.uri.path = '/users/42'));
   * mock.assertDone();
   */
  static fromHar(file: string): MockBackend {
    const mock = new MockBackend();
    for (const entry of readHar(file, 'MockBackend.fromHar').log.entries) {
      const { method, url, requestBody, status, body, headers } = replayOf(entry);
      const expectation = mock.on(method, url);
      if (requestBody !== undefined) expectation.withBody(requestBody);
      expectation.reply(status, body, headers);
    }
    return mock;
  }

  /**
   * Expects a request: `url` is an absolute URL (exact, query included), a path with its query
   * (`'/users?page=2'`, any origin), or a RegExp tested on the full URL. Expectations match in
   * the order registered; each answers once unless `times(n)` or `persist()` says otherwise.
   */
  on(method: string, url: MockUrl): MockExpectation {
    const expectation = new MockExpectation(method, url);
    this.#expectations.push(expectation);
    return expectation;
  }

  /** Throws naming each expectation that has not had all its requests (or has no reply yet). */
  assertDone(): void {
    const unmet = this.#expectations.filter((e) => !e.done);
    if (unmet.length > 0) throw new Error(`MockBackend: ${unmet.length} expectation(s) not met:\n${unmet.map((e) => `  ${e.toString()}`).join('\n')}`);
  }

  /** Forgets every expectation and recorded call. */
  reset(): void {
    this.#expectations.length = 0;
    this.calls.length = 0;
  }

  /** The transport (called by the pipeline): the first open expectation that matches answers. */
  async send(request: WireRequest): Promise<WireResponse> {
    const call = await receive(request);
    this.calls.push(call);
    const expectation = this.#expectations.find((e) => e.open && e.answer !== undefined && e.mismatch(call).parts.length === 0);
    if (expectation === undefined) throw this.#unmatched(call);
    expectation.calls++;
    const { answer, delay } = expectation.answer!;
    await serverDelay(delay, request);
    if (answer.kind === 'fail') throw mockFailure(answer.reason, request);
    return wireReply(await answer.reply(call), request);
  }

  /** Nothing to release. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  #unmatched(call: MockCall): MockUnmatchedError {
    const request = `${call.method} ${redactUrl(call.url)}`;
    if (this.#expectations.length === 0)
      return new MockUnmatchedError(`MockBackend: no expectation for ${request} (none registered: mock.on(method, url).reply(...))`);
    // the closest (see mismatch); one that matches but is used up or has no answer says so
    const [{ e, parts }] = this.#expectations.map((e) => ({ e, ...e.mismatch(call) })).sort((a, b) => a.distance - b.distance);
    const why =
      parts.length > 0
        ? parts.join('; ')
        : e.answer === undefined
          ? 'it has no reply or fail yet'
          : 'it has answered all the requests it expects (times(n), persist())';
    return new MockUnmatchedError(`MockBackend: no expectation for ${request}; the closest is ${e.toString()}: ${why}`);
  }
}
