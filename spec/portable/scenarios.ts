/**
 * The portable scenarios: what a new user tries first, written against the public API only, so
 * that the same module runs on Node, Bun and Deno (scripts/test-runtimes.ts), and in a browser
 * or a Worker. It imports nothing at run time (no `node:` module, no test framework): the
 * library comes in as an argument, from whichever entry the runner bundled (the node entry, a
 * browser one), and the answers come from spec/portable/server.ts at `base`.
 *
 * @example
 * import * as library from '../../lib/index.js';
 * import { Stream } from '../../lib/stream.js';
 * const results = await runScenarios({ ...library, Stream }, 'http://127.0.0.1:8080', 'fetch');
 */
import type * as Index from '../../lib/index.js';
import type * as StreamModule from '../../lib/stream.js';

/** What the scenarios use of the library: the public exports of its entry and of `httpbuilder-ts/stream`. */
export type PortableLibrary = Pick<typeof Index, 'HttpBuilder' | 'withResponse' | 'multipart' | 'HttpException' | 'TimeoutError' | 'ConfigError'> &
  Pick<typeof StreamModule, 'Stream'>;

/** One scenario's outcome on one backend. */
export interface ScenarioResult {
  readonly backend: string;
  readonly scenario: string;
  readonly ok: boolean;
  /** Why it failed: the error's name and message. */
  readonly error?: string;
  readonly ms: number;
}

type Client = ReturnType<PortableLibrary['HttpBuilder']['configure']>;

interface Context {
  readonly lib: PortableLibrary;
  readonly http: Client;
  readonly base: string;
  readonly backend: string;
  /** Unique to this run and backend (the retry route counts attempts per key). */
  readonly key: string;
}

class User {
  id = 0;
  name = '';
  greeting(): string {
    return `hello ${this.name}`;
  }
}

interface Echo {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`expected ${what}`);
}

function same(actual: unknown, expected: unknown, what: string): void {
  const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)];
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

/** Runs `call`, which must reject; returns what it rejected with. */
async function rejection(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, and it resolved');
}

const SCENARIOS: ReadonlyArray<readonly [string, (context: Context) => Promise<void>]> = [
  [
    'typed GET',
    async ({ http }) => {
      const user = await http.get(User, (c) => void (c.request.uri.path = '/users/42'));
      check(user instanceof User, 'a User instance');
      same(user.greeting(), 'hello Ada', 'greeting');
    },
  ],
  [
    'POST JSON',
    async ({ http }) => {
      const echo = (await http.post((c) => {
        c.request.uri.path = '/echo';
        c.request.contentType = 'application/json';
        c.request.body = { name: 'Grace', tags: ['a', 'é'] };
      })) as Echo;
      same([echo.method, JSON.parse(echo.body)], ['POST', { name: 'Grace', tags: ['a', 'é'] }], 'echoed request');
      check(echo.headers['content-type'].startsWith('application/json'), 'a JSON content type');
    },
  ],
  [
    'handlers',
    async ({ lib, http }) => {
      const done = await http.get(String, (c) => {
        c.request.uri.path = '/users/42';
        c.response.success((fromServer) => `ok ${fromServer.statusCode}`);
      });
      const failed = await http.get((c) => {
        c.request.uri.path = '/fail';
        c.response.failure((fromServer, body) => ({ status: fromServer.statusCode, body }));
      });
      const missing = await http.get((c) => {
        c.request.uri.path = '/missing';
        c.response.when(404, () => null);
      });
      same([done, failed, missing], ['ok 200', { status: 500, body: { error: 'boom' } }, null], 'handler results');
      const error = await rejection(() => http.get((c) => void (c.request.uri.path = '/missing')));
      check(error instanceof lib.HttpException && error.statusCode === 404, `an HttpException 404, got ${String(error)}`);
    },
  ],
  [
    'interceptor',
    async ({ http }) => {
      const intercepted = http.configure((c) => {
        c.execution.interceptor('get', async (request, next) => {
          const echo = (await next({ ...request, headers: { ...request.headers, 'X-Intercepted': 'yes' } })) as Echo;
          return { ...echo, seen: true };
        });
      });
      const echo = (await intercepted.get((c) => void (c.request.uri.path = '/echo'))) as Echo & { seen: boolean };
      same([echo.headers['x-intercepted'], echo.seen], ['yes', true], 'header added and result changed');
    },
  ],
  [
    'hooks',
    async ({ http }) => {
      const statuses: number[] = [];
      const echo = (await http.get((c) => {
        c.request.uri.path = '/echo';
        c.execution.hooks = {
          beforeAttempt: (attempt) => void (attempt.headers['X-Hooked'] = attempt.method),
          afterAttempt: (_attempt, response) => void statuses.push(response.statusCode),
        };
      })) as Echo;
      same([echo.headers['x-hooked'], statuses], ['GET', [200]], 'hooked header and statuses');
    },
  ],
  [
    'form body',
    async ({ http }) => {
      const echo = (await http.post((c) => {
        c.request.uri.path = '/echo';
        c.request.contentType = 'application/x-www-form-urlencoded';
        c.request.body = { a: '1', b: 'two words', c: ['x', 'y'] };
      })) as Echo;
      same(echo.body, 'a=1&b=two+words&c=x&c=y', 'form body');
      check(echo.headers['content-type'].startsWith('application/x-www-form-urlencoded'), 'a form content type');
    },
  ],
  [
    'multipart',
    async ({ lib, http }) => {
      const parts = await http.post((c) => {
        c.request.uri.path = '/upload';
        c.request.body = lib.multipart((mp) => {
          mp.field('alpha', 'one');
          mp.part('notes', 'notes.txt', 'text/plain', 'some text');
          mp.part('bytes', 'b.bin', 'application/octet-stream', new Uint8Array([104, 105]));
        });
      });
      same(
        parts,
        [
          { name: 'alpha', size: 3, text: 'one' },
          { name: 'notes', fileName: 'notes.txt', contentType: 'text/plain', size: 9, text: 'some text' },
          { name: 'bytes', fileName: 'b.bin', contentType: 'application/octet-stream', size: 2, text: 'hi' },
        ],
        'parts received',
      );
    },
  ],
  [
    'Basic',
    async ({ http }) => {
      const answer = await http.get((c) => {
        c.request.uri.path = '/basic';
        c.request.auth.basic('alice', 'wonder land');
      });
      same(answer, { user: 'alice' }, 'Basic answer');
    },
  ],
  [
    'Digest MD5 and SHA-256',
    async ({ http }) => {
      for (const algorithm of ['MD5', 'SHA-256']) {
        const answer = await http.get((c) => {
          c.request.uri.path = `/digest/${algorithm}`;
          c.request.auth.digest('alice', 'wonder land');
        });
        same(answer, { user: 'alice', algorithm }, `Digest ${algorithm} answer`);
      }
    },
  ],
  [
    'retry',
    async ({ http, key }) => {
      const answer = await http.get((c) => {
        c.request.uri.path = '/flaky';
        c.request.uri.query = { key };
        c.execution.retry = { limit: 2, backoff: () => 10 };
      });
      same(answer, { attempts: 2 }, 'answer after one retry');
    },
  ],
  [
    'timeouts (response, read, total)',
    async ({ lib, http }) => {
      const phases: unknown[] = [];
      for (const [path, timeout] of [
        ['/slow-head', { response: 300 }],
        ['/slow-body', { read: 300 }],
        ['/slow-head', { total: 300 }],
      ] as const) {
        const started = Date.now();
        const error = await rejection(() =>
          http.get((c) => {
            c.request.uri.path = path;
            c.request.uri.query = { ms: '2000' };
            c.execution.timeout = timeout;
          }),
        );
        check(error instanceof lib.TimeoutError, `a TimeoutError for ${path}, got ${String(error)}`);
        check(Date.now() - started < 1500, `${path} to time out within 1.5 s`);
        phases.push(error.phase);
      }
      same(phases, ['response', 'read', 'total'], 'timeout phases');
    },
  ],
  [
    'timings and afterAttemptError',
    async ({ lib, http, key }) => {
      const heads: string[] = [];
      const { timings } = await http.get(lib.withResponse(), (c) => {
        c.request.uri.path = '/flaky';
        c.request.uri.query = { key: `${key}-timings` };
        c.execution.retry = { limit: 2, backoff: () => 10 };
        c.execution.hooks = { afterAttempt: (_attempt, head) => void heads.push(`${head.statusCode} ${typeof head.timings.phases.firstByte}`) };
      });
      same(heads, ['503 number', '200 number'], 'each attempt with its timings');
      check(timings !== undefined && timings.end !== undefined && timings.phases.total! >= timings.phases.firstByte!, 'the last attempt read to its end');
      const failed: string[] = [];
      const error = await rejection(() =>
        http.get((c) => {
          c.request.uri.path = '/slow-head';
          c.request.uri.query = { ms: '2000' };
          c.execution.timeout = { response: 100 };
          c.execution.hooks = { afterAttemptError: (_attempt, failure) => void failed.push(`${failure.name} ${typeof failure.timings?.error}`) };
        }),
      );
      check(error instanceof lib.TimeoutError && typeof error.timings?.phases.total === 'number', 'a TimeoutError with timings');
      same(failed, ['TimeoutError number'], 'afterAttemptError before the call fails');
    },
  ],
  [
    'gzip',
    async ({ http }) => {
      same(await http.get((c) => void (c.request.uri.path = '/gzip')), { zipped: true }, 'decoded body');
    },
  ],
  [
    'Stream lines and NDJSON',
    async ({ lib, http }) => {
      const lines: string[] = [];
      for await (const line of await http.get((c) => ((c.request.uri.path = '/lines'), lib.Stream.lines(c)))) lines.push(line);
      const items: unknown[] = [];
      for await (const item of await http.get((c) => ((c.request.uri.path = '/ndjson'), lib.Stream.ndjson(c)))) items.push(item);
      same(
        [lines, items],
        [
          ['one', 'two', 'three'],
          [{ n: 1 }, { n: 2 }, { n: 3 }],
        ],
        'streamed items',
      );
    },
  ],
  [
    'withResponse',
    async ({ lib, http }) => {
      const { statusCode, headers, body } = await http.get(lib.withResponse(User), (c) => void (c.request.uri.path = '/users/42'));
      same([statusCode, headers.get('content-type')], [200, 'application/json'], 'status and content type');
      check(body instanceof User && body.name === 'Ada', 'a User body');
    },
  ],
  [
    'close',
    async ({ lib, base, backend }) => {
      const http = lib.HttpBuilder.configure((c) => {
        c.request.uri = base;
        c.client.backend = backend as never;
      });
      await http.get((c) => void (c.request.uri.path = '/users/42'));
      await http.close();
      await http.close(); // twice is fine
      const error = await rejection(() => http.get((c) => void (c.request.uri.path = '/users/42')));
      check(error instanceof lib.ConfigError && /closed/.test(error.message), `a ConfigError saying closed, got ${String(error)}`);
    },
  ],
];

/** The scenarios' names, in the order they run. */
export const SCENARIO_NAMES: readonly string[] = SCENARIOS.map(([name]) => name);

/**
 * Runs every scenario on `backend` against the portable server at `base`, one after another,
 * and never throws: each result says whether its scenario passed, and why not.
 */
export async function runScenarios(lib: PortableLibrary, base: string, backend: string): Promise<ScenarioResult[]> {
  const http = lib.HttpBuilder.configure((c) => {
    c.request.uri = base;
    c.client.backend = backend as never;
  });
  const key = `${backend}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const results: ScenarioResult[] = [];
  for (const [scenario, run] of SCENARIOS) {
    const started = Date.now();
    try {
      await run({ lib, http, base, backend, key });
      results.push({ backend, scenario, ok: true, ms: Date.now() - started });
    } catch (error) {
      results.push({ backend, scenario, ok: false, error: describe(error), ms: Date.now() - started });
    }
  }
  await http.close().catch(() => undefined);
  return results;
}

/**
 * For a backend the runtime cannot run (the docs list it): the first request must reject with
 * a `ConfigError` whose message names the runtime, never a network error.
 */
export async function runUnsupported(lib: PortableLibrary, base: string, backend: string, runtime: string): Promise<ScenarioResult> {
  const started = Date.now();
  const scenario = `ConfigError naming ${runtime}`;
  const http = lib.HttpBuilder.configure((c) => {
    c.request.uri = base;
    c.client.backend = backend as never;
  });
  try {
    const error = await rejection(() => http.get((c) => void (c.request.uri.path = '/users/42')));
    check(error instanceof lib.ConfigError && error.message.includes(runtime), `a ConfigError naming ${runtime}, got ${describe(error)}`);
    return { backend, scenario, ok: true, ms: Date.now() - started };
  } catch (error) {
    return { backend, scenario, ok: false, error: describe(error), ms: Date.now() - started };
  } finally {
    await http.close().catch(() => undefined);
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return `${error.name}: ${error.message}`.slice(0, 400);
}
