import { isDeepStrictEqual } from 'node:util';
import { ConfigError, type NetworkErrorReason } from '../core/errors.js';
import { describeValue } from '../core/describe-value.js';
import type { MockCall } from './mock-call.js';

/** What a reply function returns: `[status, body?, headers?]`, or a promise of it. */
export type MockReplyTuple = readonly [status: number, body?: unknown, headers?: Readonly<Record<string, string | readonly string[]>>];

/** How an expectation answers: a canned reply, a function of the request, or a network failure. */
export type MockAnswer =
  | { readonly kind: 'reply'; readonly reply: (call: MockCall) => MockReplyTuple | Promise<MockReplyTuple> }
  | { readonly kind: 'fail'; readonly reason: NetworkErrorReason };

/** What `on(method, url)` takes as `url`: an absolute URL, a path with its query (any origin), or a RegExp on the full URL. */
export type MockUrl = string | RegExp;

/** A header value to match: the exact value, or a RegExp. */
export type MockHeaderMatch = string | RegExp;

/** A body to match: the exact text or bytes, a value compared with the JSON body, or a predicate. */
export type MockBodyMatch = string | Uint8Array | ((body: unknown) => boolean) | object | number | boolean | null;

const REASONS: readonly NetworkErrorReason[] = ['refused', 'dns', 'reset', 'tls', 'other'];

/**
 * One expectation of a {@link MockBackend}, made by `mock.on(method, url)`: narrow it with
 * `withHeaders`/`withBody`, say how often and how late with `times`/`persist`/`delay`, and end
 * it with `reply` or `fail`.
 *
 * @example
 * mock.on('POST', '/users').withBody({ name: 'Ada' }).times(2).reply(201, { id: 7 });
 */
export class MockExpectation {
  readonly #method: string;
  readonly #url: MockUrl;
  #headers: Readonly<Record<string, MockHeaderMatch>> = {};
  #body: { readonly match: MockBodyMatch } | undefined;
  #times = 1;
  #persist = false;
  #delay = 0;
  #answer: MockAnswer | undefined;
  /** Requests it answered so far. */
  calls = 0;

  /** @internal Made by `MockBackend.on`. */
  constructor(method: string, url: MockUrl) {
    if (typeof method !== 'string' || !/^[A-Za-z]+$/.test(method))
      throw new ConfigError(`MockBackend.on: the method must be a word like 'GET', not ${describeValue(method)}`);
    if (typeof url === 'string' ? !(url.startsWith('/') || /^https?:\/\//i.test(url)) : !(url instanceof RegExp))
      throw new ConfigError(`MockBackend.on: the url must be an absolute http(s) URL, a path starting with '/', or a RegExp, not ${describeValue(url)}`);
    this.#method = method.toUpperCase();
    this.#url = typeof url === 'string' && url.startsWith('/') ? url : typeof url === 'string' ? new URL(url).href : url;
  }

  /** Only requests carrying these headers (names in any case; a RegExp tests the value). */
  withHeaders(headers: Readonly<Record<string, MockHeaderMatch>>): this {
    this.#headers = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    return this;
  }

  /**
   * Only requests with this body: a string or bytes compared exactly, another value compared with
   * the parsed JSON body, or a predicate given the parsed JSON body (the text when it is no JSON).
   */
  withBody(body: MockBodyMatch): this {
    this.#body = { match: body };
    return this;
  }

  /** Answers `n` requests (default 1), then matches no more. */
  times(n: number): this {
    if (!Number.isInteger(n) || n < 1) throw new ConfigError(`MockExpectation.times: n must be a whole number from 1, not ${describeValue(n)}`);
    this.#times = n;
    return this;
  }

  /** Answers every matching request, however many. */
  persist(): this {
    this.#persist = true;
    return this;
  }

  /** Waits `ms` before answering (the call's timeouts and signal apply while it waits). */
  delay(ms: number): this {
    if (!Number.isFinite(ms) || ms < 0) throw new ConfigError(`MockExpectation.delay: ms must be a number from 0, not ${describeValue(ms)}`);
    this.#delay = ms;
    return this;
  }

  /**
   * Answers with `status`, `body` (a string, bytes, or a value sent as JSON) and `headers`, or
   * with what `reply(request)` returns as `[status, body?, headers?]`.
   */
  reply(status: number, body?: unknown, headers?: MockReplyTuple[2]): void;
  reply(fn: (request: MockCall) => MockReplyTuple | Promise<MockReplyTuple>): void;
  reply(status: number | ((request: MockCall) => MockReplyTuple | Promise<MockReplyTuple>), body?: unknown, headers?: MockReplyTuple[2]): void {
    if (typeof status === 'function') this.#answer = { kind: 'reply', reply: status };
    else {
      const tuple: MockReplyTuple = [status, body, headers];
      this.#answer = { kind: 'reply', reply: () => tuple };
    }
  }

  /** Fails the request as the transport would: a `NetworkError` with this `reason`. */
  fail(reason: NetworkErrorReason): void {
    if (!REASONS.includes(reason)) throw new ConfigError(`MockExpectation.fail: the reason must be one of ${REASONS.join(', ')}, not ${describeValue(reason)}`);
    this.#answer = { kind: 'fail', reason };
  }

  /** @internal How it answers, and after how long; `undefined` until `reply` or `fail`. */
  get answer(): { readonly answer: MockAnswer; readonly delay: number } | undefined {
    return this.#answer && { answer: this.#answer, delay: this.#delay };
  }

  /** @internal Whether it may answer one more request. */
  get open(): boolean {
    return this.#persist || this.calls < this.#times;
  }

  /** @internal Whether it got all the requests it expects (a persistent one: at least one). */
  get done(): boolean {
    return this.#answer !== undefined && this.calls >= (this.#persist ? 1 : this.#times);
  }

  /** `GET /users/42 (answered 0 of 1)`: the expectation, as messages name it. */
  toString(): string {
    const count = this.#persist ? `${this.calls}, persistent` : `${this.calls} of ${this.#times}`;
    return `${this.#method} ${String(this.#url)}${this.#answer ? '' : ' (no reply or fail yet)'} (answered ${count})`;
  }

  /**
   * @internal What about `call` differs from this expectation, part by part (none when it
   * matches), and how far it is: the method weighs most, then the URL, then each header or the body.
   */
  mismatch(call: MockCall): { readonly parts: readonly string[]; readonly distance: number } {
    const parts: string[] = [];
    let distance = 0;
    if (call.method !== this.#method) {
      parts.push(`method ${call.method}, not ${this.#method}`);
      distance += 100;
    }
    if (!this.#urlMatches(call)) {
      parts.push(`url ${this.#urlShown(call)}, not ${String(this.#url)}`);
      distance += 10;
    }
    for (const [name, expected] of Object.entries(this.#headers)) {
      const value = call.headers[name];
      const ok = value !== undefined && (typeof expected === 'string' ? value === expected : expected.test(value));
      if (!ok) parts.push(`header ${name} ${value === undefined ? 'missing' : `'${value}'`}, not ${String(expected)}`);
    }
    if (this.#body && !bodyMatches(this.#body.match, call)) parts.push(`body ${preview(call.body)}`);
    return { parts, distance: distance + parts.length };
  }

  #urlMatches(call: MockCall): boolean {
    const url = this.#url;
    if (url instanceof RegExp) return url.test(call.url);
    return url.startsWith('/') ? url === call.target : url === call.url;
  }

  #urlShown(call: MockCall): string {
    return typeof this.#url === 'string' && this.#url.startsWith('/') ? call.target : call.url;
  }
}

function bodyMatches(match: MockBodyMatch, call: MockCall): boolean {
  if (typeof match === 'string') return call.body.toString('utf8') === match;
  if (match instanceof Uint8Array) return Buffer.from(match.buffer, match.byteOffset, match.byteLength).equals(call.body);
  const text = call.body.toString('utf8');
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    if (typeof match !== 'function') return false; // a value is compared with JSON only
  }
  return typeof match === 'function' ? (match as (body: unknown) => unknown)(parsed) === true : isDeepStrictEqual(parsed, match);
}

function preview(body: Buffer): string {
  if (body.length === 0) return '(empty)';
  const text = body.toString('utf8');
  return text.length > 60 ? `'${text.slice(0, 60)}…' (${body.length} bytes)` : `'${text}'`;
}
