import type { Backend, WireRequest, WireResponse } from '../model/backend.js';
import { HttpBuilderError } from '../core/errors.js';
import { redactUrl } from '../core/redact.js';
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
  /** Every request received, matched or not, in order. */
  readonly calls: MockCall[] = [];
  readonly #expectations: MockExpectation[] = [];

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

  /** @internal The transport: the first open expectation that matches answers. */
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
