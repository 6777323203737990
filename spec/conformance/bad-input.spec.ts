import { expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import { inspect } from 'node:util';
import { ConfigError, EncodeError, HttpBuilderError, multipart, ResultTypeError, streamedBody, type ConfigBlock, type HttpBuilder } from '../../lib/index.js';
import { Mapping } from '../../lib/mapping.js';
import { conformance } from './kit.js';

/** A one-byte upload, as a stream. */
function oneByte(): ReadableStream<Uint8Array> {
  return ReadableStream.from([new Uint8Array([1])]);
}

/** Eight bytes whose buffer was transferred away (to nowhere): the view now has none. */
function detachedView(): Uint8Array {
  const view = new Uint8Array(8);
  structuredClone(view.buffer, { transfer: [view.buffer] });
  return view;
}

type ErrorClass = typeof ConfigError | typeof EncodeError | typeof ResultTypeError;

/** Each case: a call that must reject with `type`, naming `culprit`, before the server sees anything. */
const CASES: Array<[string, ErrorClass, RegExp, (client: HttpBuilder) => Promise<unknown>]> = [
  ['an invalid URL', ConfigError, /not a valid absolute URL/, (h) => h.get((c) => void (c.request.uri = 'http://exa mple.com:99999/'))],
  [
    'a URL whose password holds a # (shown without it)',
    ConfigError,
    /not a valid absolute URL: 'http:\/\/\*\*\*@127.0.0.1\/'$/,
    (h) => h.get((c) => void (c.request.uri = 'http://user:hunter2#x@127.0.0.1/')),
  ],
  ['a relative URL string', ConfigError, /not a valid absolute URL: 'just-a-path'/, (h) => h.get((c) => void (c.request.uri = 'just-a-path'))],
  ['an ftp URL', ConfigError, /uri.scheme 'ftp'/, (h) => h.get((c) => void (c.request.uri = 'ftp://127.0.0.1/x'))],
  ['a port out of range', ConfigError, /uri.port '70000'/, (h) => h.get((c) => void (c.request.uri.port = 70000))],
  ['a host with a space', ConfigError, /uri.host 'a b'/, (h) => h.get((c) => void (c.request.uri.host = 'a b'))],
  ['CR LF in a header value', ConfigError, /header 'X-Evil'/, (h) => h.get((c) => void (c.request.headers['X-Evil'] = 'a\r\nInjected: yes'))],
  ['NUL in a header value', ConfigError, /header 'X-Nul'/, (h) => h.get((c) => void (c.request.headers['X-Nul'] = 'a\0b'))],
  ['LF in a header name', ConfigError, /header name 'X-A\\nB'/, (h) => h.get((c) => void (c.request.headers['X-A\nB'] = 'v'))],
  ['a cookie name with a space', ConfigError, /cookie name 'bad name'/, (h) => h.get((c) => c.request.cookie('bad name', 'v'))],
  ['CR LF in a cookie value', ConfigError, /cookie 'id'/, (h) => h.get((c) => c.request.cookie('id', 'x\r\nSet: 1'))],
  [
    'a path that changes the origin (//host)',
    ConfigError,
    /uri.path '\/\/evil.example\/x' would change the origin/,
    (h) => h.get((c) => void (c.request.uri.path = '//evil.example/x')),
  ],
  [
    'a path with a scheme',
    ConfigError,
    /uri.path 'http:\/\/evil.example\/x' would change the origin/,
    (h) => h.get((c) => void (c.request.uri.path = 'http://evil.example/x')),
  ],
  ['CR LF in a path', ConfigError, /uri.path .* control character/, (h) => h.get((c) => void (c.request.uri.path = '/a\r\nHost: evil'))],
  ['a raw target starting with //', ConfigError, /request.raw '\/\/evil\/x'/, (h) => h.get((c) => void (c.request.raw = '//evil/x'))],
  ['a space in a raw target', ConfigError, /request.raw '\/a b'/, (h) => h.get((c) => void (c.request.raw = '/a b'))],
  ['client.backend in a request block', ConfigError, /client.backend is a client-level setting/, (h) => h.get((c) => void (c.client.backend = 'native'))],
  [
    'execution.tls in a request block',
    ConfigError,
    /execution.tls is a client-level setting/,
    (h) => h.get((c) => void (c.execution.tls = { rejectUnauthorized: false })),
  ],
  ['an unknown status in when()', ConfigError, /response.when\(\): 'often'/, (h) => h.get((c) => c.response.when('often', () => 1))],
  ['an object body with no content type', EncodeError, /no content type is set/, (h) => h.post((c) => void (c.request.body = { a: 1 }))],
  [
    'an object body for a type with no encoder',
    EncodeError,
    /content type 'image\/png'/,
    (h) => h.post((c) => Object.assign(c.request, { contentType: 'image/png', body: { a: 1 } })),
  ],
  ['a number as the first argument', ResultTypeError, /get\(\): the first argument .* not a number \(42\)/, (h) => h.get(42 as never)],
  // no JSON text for these two: the message once crashed on them with a TypeError of its own
  ['a bigint as the first argument', ResultTypeError, /get\(\): the first argument .* not a bigint \(10\)/, (h) => h.get(10n as never)],
  ['a symbol as the first argument', ResultTypeError, /get\(\): the first argument .* not a symbol$/, (h) => h.get(Symbol('secret') as never)],
  ['a Date as the first argument', ResultTypeError, /get\(\): the first argument .* not an instance of Date$/, (h) => h.get(new Date() as never)],
  // the built-ins results convert to are String, Number, Boolean, Date, Object, Buffer and Uint8Array: a Map came back broken, a Promise failed after sending
  ['Map as the result type', ResultTypeError, /^get\(\): Map is not a result type: use String, Number/, (h) => h.get(Map as never)],
  ['Promise as the result type', ResultTypeError, /^get\(\): Promise is not a result type/, (h) => h.get(Promise as never)],
  ['Array as the result type', ResultTypeError, /^post\(\): Array is not a result type/, (h) => h.post(Array as never, (c) => void (c.request.body = 'x'))],
  [
    'a first argument with a ~standard that cannot validate',
    ResultTypeError,
    /^get\(\): the first argument has '~standard' but no validate function there/,
    (h) => h.get({ '~standard': { version: 1, vendor: 'x', validate: 5 } } as never),
  ],
  ['a string as the first argument', ConfigError, /post\(\): the first argument is a string.*c\.request\.uri\.path/, (h) => h.post('/alpha' as never)],
  ['a plain object as the first argument', ResultTypeError, /the first argument/, (h) => h.put({ path: '/x' } as never)],
  ['a non-function second argument', ResultTypeError, /the second argument must be a configuration block/, (h) => h.get(String, '/x' as never)],
  [
    'an arrow function followed by a block',
    ResultTypeError,
    /'block' is not a class or built-in constructor/,
    (h) => {
      const block: ConfigBlock = () => undefined;
      return h.get(block as never, () => undefined);
    },
  ],
  [
    'an object as a header value',
    ConfigError,
    /header 'X-Obj' must be a string, number or boolean, not an object/,
    (h) => h.get((c) => void (c.request.headers['X-Obj'] = {} as never)),
  ],
  [
    'a function as a header value',
    ConfigError,
    /header 'X-Fn' must be a string, number or boolean, not an anonymous function/,
    (h) => h.get((c) => void (c.request.headers['X-Fn'] = (() => 1) as never)),
  ],
  [
    'a string as the headers',
    ConfigError,
    /request.headers must be a plain object of \{ name: value \}, not a string/,
    (h) => h.get((c) => void (c.request.headers = 'abc' as never)),
  ],
  [
    'an object as the accept value',
    ConfigError,
    /request.accept must be a string or an array of strings, not an object/,
    (h) => h.get((c) => void (c.request.accept = {} as never)),
  ],
  ['an empty list as the accept value', ConfigError, /^request.accept is an empty list/, (h) => h.get((c) => void (c.request.accept = []))],
  [
    'an object as a cookie value',
    ConfigError,
    /cookie 'id' must be a string, number or boolean, not an object/,
    (h) => h.get((c) => void (c.request.cookies = { id: { a: 1 } as never })),
  ],
  [
    'an object as a query value',
    ConfigError,
    /uri.query parameter 'a' must be a string, number or boolean \(or a list of them\), not an object/,
    (h) => h.get((c) => void (c.request.uri.query = { a: { b: 1 } as never })),
  ],
  [
    'null inside a query list',
    ConfigError,
    /uri.query parameter 'a' .* not null/,
    (h) => h.get((c) => void (c.request.uri.query = { a: [null, 'x'] as never })),
  ],
  ['a string as the query', ConfigError, /uri.query must be a plain object .* not a string/, (h) => h.get((c) => void (c.request.uri.query = 'a=b' as never))],
  [
    'a number as the content type',
    ConfigError,
    /request.contentType must be a string, not a number/,
    (h) => h.post((c) => Object.assign(c.request, { contentType: 5, body: 'x' })),
  ],
  [
    'a number as the charset',
    ConfigError,
    /request.charset must be a string, not a number/,
    (h) => h.post((c) => Object.assign(c.request, { contentType: 'text/plain', charset: 8, body: 'x' })),
  ],
  ['a number as the path', ConfigError, /uri.path must be a string, not a number/, (h) => h.get((c) => void (c.request.uri.path = 5 as never))],
  ['a number as the host', ConfigError, /uri.host must be a string, not a number/, (h) => h.get((c) => void (c.request.uri.host = 127 as never))],
  [
    'an object in a form field',
    EncodeError,
    /form field 'a' must be a string, number or boolean \(or a list of them\), not an object/,
    (h) => h.post((c) => Object.assign(c.request, { contentType: 'application/x-www-form-urlencoded', body: { a: { b: 1 } } })),
  ],
  [
    'a control character in a header value',
    ConfigError,
    /header 'X-Ctl' has a character not allowed/,
    (h) => h.get((c) => void (c.request.headers['X-Ctl'] = 'a\u0001b')),
  ],
  ['a character beyond Latin-1 in a header value', ConfigError, /header 'X-Snow'/, (h) => h.get((c) => void (c.request.headers['X-Snow'] = '\u2603'))],
  [
    'CR LF in the content type',
    ConfigError,
    /header 'Content-Type'/,
    (h) => h.post((c) => Object.assign(c.request, { contentType: 'text/plain\r\nX-Injected: 1', body: 'x' })),
  ],
  ['non-ASCII text in a raw target', ConfigError, /request.raw '\/\u2603'.*percent-encode/, (h) => h.get((c) => void (c.request.raw = '/\u2603'))],
  ['a host that is no host name', ConfigError, /uri.host 'a\^b' is not a valid host name/, (h) => h.get((c) => void (c.request.uri.host = 'a^b'))],
  ['an unclosed IPv6 literal', ConfigError, /uri.host '\[zz' is not a valid host name/, (h) => h.get((c) => void (c.request.uri.host = '[zz'))],
  ['a port smuggled in the host', ConfigError, /uri.host '127.0.0.1:9'/, (h) => h.get((c) => void (c.request.uri.host = '127.0.0.1:9'))],
  ['a lone surrogate in a query value', ConfigError, /uri.query .* lone UTF-16 surrogate/, (h) => h.get((c) => void (c.request.uri.query = { q: '\ud800' }))],
  [
    'an encoder returning a number',
    EncodeError,
    /encoder for 'text\/x-num' returned a number/,
    (h) =>
      h.post((c) => {
        c.request.encoder('text/x-num', () => 42 as never);
        Object.assign(c.request, { contentType: 'text/x-num', body: { a: 1 } });
      }),
  ],
  [
    'a circular JSON body',
    EncodeError,
    /encoder for 'application\/json' failed: .*circular/i,
    (h) => {
      const body: Record<string, unknown> = {};
      body.self = body;
      return h.post((c) => Object.assign(c.request, { contentType: 'application/json', body }));
    },
  ],
  [
    "an encoder's wire body whose length is no byte count",
    EncodeError,
    /encoded body's length must be a whole number of bytes/,
    (h) =>
      h.post((c) => {
        c.request.encoder('text/x-len', () => ({ wire: { ...streamedBody(oneByte()), length: '1\r\nX-Injected: 1' as never } }));
        Object.assign(c.request, { contentType: 'text/x-len', body: 'x' });
      }),
  ],
  [
    'a function as a JSON body',
    EncodeError,
    /has no JSON form/,
    (h) => h.post((c) => Object.assign(c.request, { contentType: 'application/json', body: () => 1 })),
  ],
  // checked once the block has run: a sloppy-mode script's typo is refused as well (sealing threw only in strict code)
  [
    'a misspelled setting',
    ConfigError,
    /^c.request.header is not a setting \(misspelled\?\)/,
    (h) => h.get((c) => void ((c.request as unknown as Record<string, unknown>).header = { a: '1' })),
  ],
  [
    'a misspelled uri part',
    ConfigError,
    /^c.request.uri.paht is not a setting/,
    (h) => h.get((c) => void ((c.request.uri as unknown as Record<string, unknown>).paht = '/x')),
  ],
  [
    'a misspelled execution setting',
    ConfigError,
    /^c.execution.timeOut is not a setting/,
    (h) => h.get((c) => void ((c.execution as unknown as Record<string, unknown>).timeOut = 5)),
  ],
  [
    'a misspelled response setting',
    ConfigError,
    /^c.response.sucess is not a setting/,
    (h) => h.get((c) => void ((c.response as unknown as Record<string, unknown>).sucess = () => 1)),
  ],
  [
    'a misspelled auth setting',
    ConfigError,
    /^c.request.auth.user is not a setting/,
    (h) => h.get((c) => void ((c.request.auth as unknown as Record<string, unknown>).user = 'ada')),
  ],
  [
    'a setting on the block object itself',
    ConfigError,
    /^c.requets is not a setting/,
    (h) => h.get((c) => void ((c as unknown as Record<string, unknown>).requets = {})),
  ],
  // a deleted setting and a typo keep the count of names: the names themselves are compared
  [
    'a misspelled setting in place of a deleted one',
    ConfigError,
    /^c.request.contentTyp is not a setting/,
    (h) =>
      h.post((c) => {
        delete (c.request as unknown as Record<string, unknown>).charset;
        (c.request as unknown as Record<string, unknown>).contentTyp = 'application/json';
      }),
  ],
  [
    'a misspelled setting in an async block',
    ConfigError,
    /^c.request.contentTyp is not a setting/,
    (h) =>
      h.post(async (c) => {
        await Promise.resolve();
        (c.request as unknown as Record<string, unknown>).contentTyp = 'application/json';
      }),
  ],
  // no options to read in these: they were taken for empty ones
  [
    'an array as the timeouts',
    ConfigError,
    /^execution.timeout must be an object of options, not an array/,
    (h) => h.get((c) => void (c.execution.timeout = [] as never)),
  ],
  [
    'a Date as the timeouts',
    ConfigError,
    /^execution.timeout must be an object of options, not an instance of Date/,
    (h) => h.get((c) => void (c.execution.timeout = new Date() as never)),
  ],
  [
    'a Map as the retry options',
    ConfigError,
    /^execution.retry must be an object of options, not an instance of Map/,
    (h) => h.get((c) => void (c.execution.retry = new Map([['limit', 3]]) as never)),
  ],
  ['an unknown timeout phase', ConfigError, /execution.timeout has no option 'idle'/, (h) => h.get((c) => void (c.execution.timeout = { idle: 5 } as never))],
  ['a negative timeout', ConfigError, /execution.timeout.read must be a number >= 0/, (h) => h.get((c) => void (c.execution.timeout = { read: -1 }))],
  [
    'a timeout longer than a timer can hold',
    ConfigError,
    /execution.timeout.total must be at most 2147483647 ms/,
    (h) => h.get((c) => void (c.execution.timeout = { total: 2 ** 31 })),
  ],
  [
    'a Retry-After cap longer than a timer can hold',
    ConfigError,
    /execution.retry.maxRetryAfter must be at most 2147483647 ms/,
    (h) => h.get((c) => void (c.execution.retry = { maxRetryAfter: 3e9 })),
  ],
  [
    'a retry limit that is not a whole number',
    ConfigError,
    /execution.retry.limit must be a whole number >= 0/,
    (h) => h.get((c) => void (c.execution.retry = { limit: 1.5 })),
  ],
  [
    'a redirect limit that is not a whole number',
    ConfigError,
    /execution.redirects.max must be a whole number >= 0/,
    (h) => h.get((c) => void (c.execution.redirects = { max: 2.5 })),
  ],
  [
    'a signal without removeEventListener',
    ConfigError,
    /execution.signal must be an AbortSignal/,
    (h) => h.get((c) => void (c.execution.signal = { aborted: false, addEventListener: () => undefined } as never)),
  ],
  [
    'a retry limit that is not a number',
    ConfigError,
    /execution.retry.limit must be a whole number >= 0/,
    (h) => h.get((c) => void (c.execution.retry = { limit: '3' as never })),
  ],
  [
    'a status that is not one',
    ConfigError,
    /execution.retry.statusCodes must be an array/,
    (h) => h.get((c) => void (c.execution.retry = { statusCodes: [1000] })),
  ],
  [
    'an unknown redirect option',
    ConfigError,
    /execution.redirects has no option 'maxHops'/,
    (h) => h.get((c) => void (c.execution.redirects = { maxHops: 3 } as never)),
  ],
  ['a size limit of zero', ConfigError, /execution.maxResponseSize must be a whole number >= 1/, (h) => h.get((c) => void (c.execution.maxResponseSize = 0))],
  ['a signal that is not one', ConfigError, /execution.signal must be an AbortSignal/, (h) => h.get((c) => void (c.execution.signal = {} as never))],
  ['cookies in a request block', ConfigError, /client.cookies is a client-level setting/, (h) => h.get((c) => void (c.client.cookies = true))],
  [
    'a Content-Length that is not a number',
    ConfigError,
    /header 'Content-Length' must be a number/,
    (h) =>
      h.post((c) => {
        c.request.headers['Content-Length'] = '3, 4';
        c.request.body = ReadableStream.from([new Uint8Array([1, 2, 3])]);
      }),
  ],
  [
    'CR LF in a URL string',
    ConfigError,
    /request.uri 'http:\/\/127.0.0.1\/a\\r\\nX: y' contains a control character/,
    (h) => h.get((c) => void (c.request.uri = 'http://127.0.0.1/a\r\nX: y')),
  ],
  ['NUL in a URL string', ConfigError, /request.uri .* contains a control character/, (h) => h.get((c) => void (c.request.uri = 'http://127.0.0.1/a\0b'))],
  [
    'CR LF in the method (from an interceptor)',
    ConfigError,
    /the method 'GET \/x HTTP\/1.1\\r\\nX: y' is not a valid HTTP method token/,
    (h) => h.get((c) => c.execution.interceptor('GET', (request, next) => next({ ...request, method: 'GET /x HTTP/1.1\r\nX: y' }))),
  ],
  [
    'CR LF in a URL from an interceptor',
    ConfigError,
    /an interceptor set a URL with a control character/,
    (h) => h.get((c) => c.execution.interceptor('GET', (request, next) => next({ ...request, url: `${request.url}x\r\nHost: evil` }))),
  ],
  [
    'an interceptor passing nothing to next()',
    ConfigError,
    /interceptor passed something other than a request record/,
    (h) => h.get((c) => c.execution.interceptor('GET', (_request, next) => next(undefined as never))),
  ],
  [
    'a string as a success handler',
    ConfigError,
    /response.success\(\) needs a function, not a string/,
    (h) => h.get((c) => c.response.success('nope' as never)),
  ],
  ['a number as a when() handler', ConfigError, /response.when\(200\) needs a function, not a number/, (h) => h.get((c) => c.response.when(200, 42 as never))],
  ['a number as a parser', ConfigError, /response.parser\(\) needs a function, not a number/, (h) => h.get((c) => c.response.parser('text/plain', 5 as never))],
  [
    'an object as an encoder content type',
    ConfigError,
    /request.encoder\(\): the content type must be a string or an array of strings/,
    (h) => h.get((c) => c.request.encoder({} as never, () => '')),
  ],
  [
    'an interceptor for a verb the client has not',
    ConfigError,
    /execution.interceptor\(\): 'GETT' is not a verb of the client \(GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS\)/,
    (h) => h.get((c) => c.execution.interceptor(['get', 'gett'], (request, next) => next(request))),
  ],
  [
    'an interceptor for no verb',
    ConfigError,
    /execution.interceptor\(\) needs at least one verb/,
    (h) => h.get((c) => c.execution.interceptor([], (request, next) => next(request))),
  ],
  [
    'a string as an interceptor',
    ConfigError,
    /execution.interceptor\(\) needs a function, not a string/,
    (h) => h.get((c) => c.execution.interceptor('GET', 'nope' as never)),
  ],
  [
    'a user name with a colon for Basic',
    ConfigError,
    /auth.basic\(\): the user name cannot contain ':'/,
    (h) => h.get((c) => c.request.auth.basic('ali:ce', 'pw', { preemptive: true })),
  ],
  [
    'a user name with %3A in a URL',
    ConfigError,
    /the user name in request.uri \(%3A decoded\) cannot contain ':'/,
    (h) => h.get((c) => void (c.request.uri = 'http://ali%3Ace:pw@127.0.0.1/')),
  ],
  [
    'CONNECT in lower case from an interceptor',
    ConfigError,
    /the method CONNECT is not supported/,
    (h) => h.get((c) => c.execution.interceptor('GET', (request, next) => next({ ...request, method: 'connect' }))),
  ],
  [
    'a Map as the headers',
    ConfigError,
    /request.headers must be a plain object of \{ name: value \}, not an instance of Map/,
    (h) => h.get((c) => void (c.request.headers = new Map([['X-A', '1']]) as never)),
  ],
  [
    'a size limit that is not a whole number',
    ConfigError,
    /execution.maxResponseSize must be a whole number >= 1/,
    (h) => h.get((c) => void (c.execution.maxResponseSize = 1.5)),
  ],
  [
    'a string as a progress listener',
    ConfigError,
    /execution.onDownloadProgress needs a function, not a string/,
    (h) => h.get((c) => void (c.execution.onDownloadProgress = 'nope' as never)),
  ],
  [
    'no credentials for Digest',
    ConfigError,
    /auth.digest\(\): the user name must be a string/,
    (h) => h.get((c) => c.request.auth.digest(undefined as never, undefined as never)),
  ],
  [
    'a lone surrogate in a Digest password',
    ConfigError,
    /auth.digest\(\): the password contains a lone UTF-16 surrogate/,
    (h) => h.get((c) => c.request.auth.digest('alice', 'pw\ud800')),
  ],
  [
    'CONNECT from an interceptor',
    ConfigError,
    /the method CONNECT is not supported/,
    (h) => h.get((c) => c.execution.interceptor('GET', (request, next) => next({ ...request, method: 'CONNECT' }))),
  ],
  ['a Trailer header', ConfigError, /header 'Trailer' announces trailer fields/, (h) => h.get((c) => void (c.request.headers.Trailer = 'X-Checksum'))],
  [
    'an IPv4-like host that is no address',
    ConfigError,
    /uri.host '1.2.3.256' is not a valid host name/,
    (h) => h.get((c) => void (c.request.uri.host = '1.2.3.256')),
  ],
  [
    'a content type naming a charset, and a charset',
    ConfigError,
    /request.contentType 'text\/plain; charset=utf-8' names charset 'utf-8', and request.charset is 'utf-16le'/,
    (h) => h.post((c) => Object.assign(c.request, { contentType: 'text/plain; charset=utf-8', charset: 'utf-16le', body: 'x' })),
  ],
  [
    'a content type naming another charset than request.charset',
    ConfigError,
    /names charset 'iso-8859-1', and request.charset is 'UTF-8'/,
    (h) => h.post((c) => Object.assign(c.request, { contentType: 'text/plain; charset="iso-8859-1"', charset: 'UTF-8', body: 'x' })),
  ],
  [
    'text beyond ISO-8859-1 for charset iso-8859-1',
    EncodeError,
    /characters beyond ISO-8859-1/,
    (h) => h.post((c) => Object.assign(c.request, { contentType: 'text/plain', charset: 'iso-8859-1', body: '5 €' })),
  ],
  [
    'an array as an XML body',
    EncodeError,
    /an XML body must be a string or an object .* not an array/,
    (h) => h.post((c) => Object.assign(c.request, { contentType: 'application/xml', body: [1, 2] })),
  ],
  [
    'a locked ReadableStream as the body',
    EncodeError,
    /a ReadableStream that is locked/,
    (h) => {
      const locked = oneByte();
      locked.getReader();
      return h.post((c) => Object.assign(c.request, { contentType: 'application/octet-stream', body: locked }));
    },
  ],
  [
    'a view of a detached ArrayBuffer as the body',
    EncodeError,
    /a detached ArrayBuffer, transferred elsewhere/,
    (h) => h.post((c) => Object.assign(c.request, { contentType: 'application/octet-stream', body: detachedView() })),
  ],
  [
    'a detached ArrayBuffer as the body',
    EncodeError,
    /a detached ArrayBuffer, transferred elsewhere/,
    (h) => h.post((c) => Object.assign(c.request, { contentType: 'application/octet-stream', body: detachedView().buffer })),
  ],
  [
    'an object with pipe() that cannot be iterated as the body',
    EncodeError,
    /has pipe\(\) or getReader\(\) but cannot be iterated/,
    (h) => h.post((c) => Object.assign(c.request, { contentType: 'application/json', body: { pipe: () => undefined, id: 1 } })),
  ],
  // user info where none belongs is refused, and the message shows none of it
  [
    'user info in uri.host',
    ConfigError,
    /^uri.host '\*\*\*@example.com' is not a valid host name$/,
    (h) => h.get((c) => void (c.request.uri.host = 'admin:s3cretPW@example.com')),
  ],
  [
    'user info in an origin-changing uri.path',
    ConfigError,
    /^uri.path '\/\/\*\*\*@evil.com\/x' would change the origin/,
    (h) => h.get((c) => void (c.request.uri.path = '//admin:s3cretPW@evil.com/x')),
  ],
  [
    'user info in an origin-changing request.raw',
    ConfigError,
    /^request.raw '\/\/\*\*\*@evil.com\/x' must start with a single/,
    (h) => h.get((c) => void (c.request.raw = '//admin:s3c/retPW@evil.com/x')),
  ],
  // what an encoder throws need not be an Error: the message once read `.message` off undefined
  [
    'an encoder throwing undefined',
    EncodeError,
    /the encoder for 'x\/y' failed: it threw undefined/,
    (h) =>
      h.post((c) => {
        c.request.encoder('x/y', () => {
          // eslint-disable-next-line @typescript-eslint/only-throw-error -- the point of the case
          throw undefined;
        });
        Object.assign(c.request, { contentType: 'x/y', body: { a: 1 } });
      }),
  ],
  [
    'an async encoder rejecting with a string',
    EncodeError,
    /the encoder for 'x\/y' failed: nope/,
    (h) =>
      h.post((c) => {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the point of the case
        c.request.encoder('x/y', () => Promise.reject('nope'));
        Object.assign(c.request, { contentType: 'x/y', body: { a: 1 } });
      }),
  ],
  // sent, each would go out as an empty body
  [
    'a Readable read to its end (by an earlier request) as the body',
    EncodeError,
    /the request body is a stream that was already read to its end/,
    async (h) => {
      const used = Readable.from([Buffer.from('sent once')]);
      for await (const chunk of used) void chunk;
      return h.post((c) => Object.assign(c.request, { contentType: 'application/octet-stream', body: used }));
    },
  ],
  [
    'a destroyed Readable as the body',
    EncodeError,
    /the request body is a stream that was already read to its end, destroyed or failed/,
    (h) => h.post((c) => Object.assign(c.request, { contentType: 'application/octet-stream', body: Readable.from([Buffer.from('x')]).destroy() })),
  ],
  [
    'an interceptor passing headers as an array',
    ConfigError,
    /interceptor passed a request record to next\(\) without valid headers/,
    (h) => h.get((c) => c.execution.interceptor('GET', (request, next) => next({ ...request, headers: ['a'] as never }))),
  ],
  [
    'an interceptor passing a number as the charset',
    ConfigError,
    /without valid charset \(a string\)/,
    (h) => h.get((c) => c.execution.interceptor('GET', (request, next) => next({ ...request, charset: 5 as never }))),
  ],
  [
    'an interceptor passing a record without context()',
    ConfigError,
    /without valid context\(\)/,
    (h) =>
      h.get(String, (c) =>
        c.execution.interceptor('GET', (request, next) => next({ method: request.method, url: request.url, headers: request.headers } as never)),
      ),
  ],
  // each was a TypeError, or ('no' being truthy) credentials sent up front
  [
    'a number as the content type of c.context()',
    ConfigError,
    /^c.context\(\): the content type must be a string or an array of strings, not a number/,
    (h) => h.get((c) => c.context(5 as never, 'id', 1)),
  ],
  [
    'an object without read() as the mapper in c.context()',
    ConfigError,
    /^c.context\(..., Mapping.MAPPER_ID, mapper\): a mapper is an object with read\(value, Type\) and write\(value\) functions, not an object/,
    (h) => h.get((c) => c.context('application/json', Mapping.MAPPER_ID, {})),
  ],
  [
    'a number as the content types of Mapping.use()',
    ConfigError,
    /^Mapping: the content types must be a string or an array of strings, not a number/,
    (h) => h.get((c) => Mapping.use(c, 5 as never)),
  ],
  [
    'null as the options of auth.basic()',
    ConfigError,
    /^auth.basic\(\): the options must be an object \(\{ preemptive \}\), not null/,
    (h) => h.get((c) => c.request.auth.basic('u', 'p', null as never)),
  ],
  [
    "'no' as preemptive",
    ConfigError,
    /^auth.digest\(\): preemptive must be true or false, not a string/,
    (h) => h.get((c) => c.request.auth.digest('u', 'p', { preemptive: 'no' as never })),
  ],
  [
    'a multipart part whose stream was read to its end',
    EncodeError,
    /^multipart part 'f' is a stream that was already read to its end/,
    async (h) => {
      const used = Readable.from([Buffer.from('FILEDATA')]);
      for await (const chunk of used) void chunk;
      return h.post((c) => void (c.request.body = multipart((mp) => mp.part('f', 'a.txt', 'text/plain', used))));
    },
  ],
  [
    'a multipart part of a detached ArrayBuffer',
    EncodeError,
    /^multipart part 'f' is \(a view of\) a detached ArrayBuffer/,
    (h) => h.post((c) => void (c.request.body = multipart((mp) => mp.part('f', 'a.bin', 'application/octet-stream', detachedView())))),
  ],
  [
    'an interceptor passing garbage to next()',
    ConfigError,
    /interceptor passed something other than a request record/,
    (h) => h.get((c) => c.execution.interceptor('GET', (_request, next) => next('nope' as never))),
  ],
];

conformance('bad input is rejected before anything is sent', (kit) => {
  for (const [title, type, culprit, call] of CASES) {
    it(`${title} → ${type.name}`, async () => {
      let result: Promise<unknown> | undefined;
      expect(() => (result = call(kit.client()))).not.toThrow(); // verbs never throw synchronously
      const error = await result!.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect((error as Error).name).toBe(type.name);
      expect(error).toBeInstanceOf(HttpBuilderError);
      expect((error as Error).message).toMatch(culprit);
      expect(kit.server.requests).toHaveLength(0);
    });
  }

  it("a client's bad header is refused on every call, with or without the request's own headers", async () => {
    const client = kit.client((c) => void (c.request.headers['X-Bad'] = 'a\r\nInjected: yes'));
    for (const call of [() => client.get(), () => client.get(), () => client.get((c) => void (c.request.headers['X-Fine'] = 'ok')), () => client.delete()]) {
      await expect(call()).rejects.toThrow(/header 'X-Bad' has a character not allowed/);
    }
    expect(kit.server.requests).toHaveLength(0);
  });

  it("a client's headers checked by an earlier call do not let a later call's content type or length through unchecked", async () => {
    const client = kit.client((c) => void (c.request.headers['X-Client'] = 'fine'));
    kit.server.expect({ method: 'POST', path: '/first', respond: { status: 204 } });
    await client.post((c) => {
      c.request.uri.path = '/first';
      Object.assign(c.request, { contentType: 'text/plain', body: 'ok' });
    });
    await expect(client.post((c) => Object.assign(c.request, { contentType: 'text/plain\r\nX-Injected: 1', body: 'x' }))).rejects.toThrow(
      /header 'Content-Type'/,
    );
    await expect(
      client.post((c) => {
        c.request.encoder('text/x-len', () => ({ wire: { ...streamedBody(oneByte()), length: 1.5 } }));
        Object.assign(c.request, { contentType: 'text/x-len', body: 'x' });
      }),
    ).rejects.toThrow(/encoded body's length must be a whole number of bytes/);
    // a charset goes into the Content-Type too (a byte body is not encoded with it, so only the header check sees it)
    await expect(
      client.post((c) => Object.assign(c.request, { contentType: 'application/octet-stream', charset: 'utf-8\r\nX-Injected: 1', body: new Uint8Array([1]) })),
    ).rejects.toThrow(/header 'Content-Type'/);
    expect(kit.server.requests).toHaveLength(1);
    expect(kit.server.requests[0].headers['x-client']).toBe('fine');
  });

  it("a client's own framing headers never go out, on its first request or any later one", async () => {
    const client = kit.client((c) => Object.assign(c.request.headers, { 'Content-Length': '5', 'Transfer-Encoding': 'chunked' }));
    for (const path of ['/framed-1', '/framed-2', '/framed-3']) {
      kit.server.expect({ method: 'POST', path, respond: { status: 204 } });
      await client.post((c) => {
        c.request.uri.path = path;
        Object.assign(c.request, { contentType: 'text/plain', body: 'hi' });
      });
    }
    for (const request of kit.server.requests) {
      expect(request.headers['content-length']).toBe('2');
      expect(request.headers['transfer-encoding']).toBeUndefined();
      expect(request.rawHeaders.filter(([name]) => /^(content-length|transfer-encoding)$/i.test(name)).map(([name]) => name.toLowerCase())).toEqual([
        'content-length',
      ]);
    }
  });

  it('header values are never echoed in the error (they may be secrets)', async () => {
    const error = await kit
      .client()
      .get((c) => void (c.request.headers.Authorization = 'Bearer top-secret\r\nX: y'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(inspect(error)).not.toContain('top-secret');
    expect(JSON.stringify(error)).not.toContain('top-secret');
  });

  it('a URL with credentials never shows them in an error', async () => {
    const error = await kit
      .client()
      .get((c) => void (c.request.uri = 'http://admin:hunter2@exa mple.com/'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(inspect(error)).not.toContain('hunter2');
  });

  it('a value in a message is cut short: a response can be megabytes', async () => {
    kit.server.expect({ method: 'GET', path: '/big', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'z'.repeat(100_000) } });
    const error = await kit
      .client()
      .get(Number, (c) => void (c.request.uri.path = '/big'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResultTypeError);
    expect((error as Error).message.length).toBeLessThan(200);
  });

  it('a result that cannot be converted rejects with ResultTypeError after the response', async () => {
    kit.server.expect({ method: 'GET', path: '/text', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'ok-text' } });
    const error = await kit
      .client()
      .get(Number, (c) => void (c.request.uri.path = '/text'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResultTypeError);
    expect((error as Error).message).toMatch(/\(a string \("ok-text"\)\) cannot be converted to Number/);
    expect(kit.server.requests).toHaveLength(1);
  });

  it("a handler's symbol result that cannot be converted is a ResultTypeError naming it, not a TypeError of the message", async () => {
    kit.server.expect({ method: 'GET', path: '/text', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'ok-text' } });
    const error = await kit
      .client()
      .get(Date, (c) => {
        c.request.uri.path = '/text';
        // a value the types refuse (a handler must return a Date here): what plain JavaScript can still do
        c.response.success(() => Symbol('result') as never);
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResultTypeError);
    expect((error as Error).message).toMatch(/\(a symbol\) cannot be converted to Date/);
  });

  it('the exception handler does not swallow bad input', async () => {
    const error = await kit
      .client()
      .get((c) => {
        c.request.uri.path = '//evil/x';
        c.response.exception(() => 'swallowed');
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
  });
});
