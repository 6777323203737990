import { isThenable } from './core/maybe-promise.js';
import { ConfigError } from './core/errors.js';
import { describeValue } from './core/describe-value.js';
import { HttpConfig, type ConfigBlock } from './config/http-config.js';
import type { Settings } from './config/settings.js';
import { releaseUpload } from './content/raw-upload.js';
import type { Plan } from './pipeline/plan.js';
import type { RequestRecord } from './model/request-record.js';
import { verbArguments, type BlockFor, type HeadResultFor, type ResultFor, type VerbArgument, type VerbArguments } from './verb-arguments.js';
import { clientClosed } from './model/backend.js';
import type { PageSender, PageWatch } from './paginate.js';
import type { ResponseCache } from './cache/response-cache.js';
import type { NodeStages } from './pipeline/platform-stages.js';
import type { ResolvedCacheOptions } from './config/cache-options.js';
import type { ResultOf, ResultType } from './result/result-type.js';
import { loadOnce } from './core/load-once.js';
import { callModules, callModulesWithLibrary, type CallModules } from './pipeline/call-modules.js';
import type { ClientPool } from './pipeline/client-setup.js';

/**
 * A verb: `verb()`, `verb(block)`, or `verb(Type, block?)` resolving to the result converted to `Type`.
 * Never throws synchronously: every failure, bad input included, is a rejection. With a `Type`,
 * the block's handlers may return only values of it ({@link BlockFor}): `Type` is taken from
 * the first argument, never widened to fit a handler.
 */
export type Verb = <A extends VerbArgument>(first?: A, block?: BlockFor<NoInfer<A>>) => Promise<ResultFor<A>>;

/** HEAD: a {@link Verb} whose result may be `null`, since a HEAD response has no body (so its handlers may return `null`). */
export type HeadVerb = <A extends VerbArgument>(first?: A, block?: BlockFor<NoInfer<A>, null>) => Promise<HeadResultFor<A>>;

/**
 * A client as made: its parent (none for {@link HttpBuilder.configure}) and what its block set.
 * Merged into its settings and pool when the call's modules are in (call-modules.ts): when it is
 * made on node, at its first request in the browser/Workers build.
 */
interface Made {
  readonly parent: HttpBuilder | undefined;
  readonly layer: HttpConfig | undefined;
}

/**
 * An immutable HTTP client. Configure once, derive variants with {@link HttpBuilder.configure},
 * call a verb per request, and {@link HttpBuilder.close} when done.
 *
 * @example
 * const http = HttpBuilder.configure((c) => { c.request.uri = 'https://api.example.com'; });
 * const user = await http.get(User, (c) => { c.request.uri.path = '/users/42'; });
 * await http.close();
 */
export class HttpBuilder {
  /** until its settings are merged: then let go (a derived client keeps no hold on its parent) */
  #made: Made | undefined;
  /** the settings merged from every level's block, once they are (see {@link Made}) */
  #settings: Settings | undefined;
  #pool: ClientPool | undefined;
  /** whether this client made its pool (a derived client sharing its parent's does not) */
  #ownsPool = false;
  /** `client.cache`'s cache for this client's way of connecting, once loaded (at the client's first request); else undefined */
  #cache: ResponseCache | undefined;

  private constructor(parent: HttpBuilder | undefined, layer: HttpConfig | undefined) {
    this.#made = { parent, layer };
    // on node, a bad setting fails here, when the client is made (in the browser/Workers build, at its first request)
    const calls = callModulesWithLibrary();
    if (calls !== undefined) this.#resolve(calls);
  }

  /**
   * Makes a client with its own connection pool.
   *
   * @example
   * const http = HttpBuilder.configure((c) => {
   *   c.request.uri = 'https://localhost:8443/api';
   *   c.execution.tls = { ca: caPem };
   * });
   */
  static configure(block?: ConfigBlock): HttpBuilder {
    return new HttpBuilder(undefined, clientLayer(block));
  }

  /**
   * A new client with this one's settings plus the block's. It shares this client's pool unless
   * the block picks another backend, TLS settings, proxy, connection settings, `http2`,
   * `publicOnly` or flow settings; a new pool still shares the cookie jar, and the
   * `concurrency` slots and `rateLimit` turns unless the block changed those.
   *
   * @example
   * const v2 = http.configure((c) => { c.request.uri.path = 'v2'; });
   */
  configure(block: ConfigBlock): HttpBuilder {
    return new HttpBuilder(this, clientLayer(block));
  }

  /**
   * Releases the connection pool this client made: later calls of every client using it reject
   * with `ConfigError`, calls in flight with `AbortError`. A derived client that shares its
   * parent's pool releases nothing (its `close()` resolves at once).
   *
   * @example
   * const http = HttpBuilder.configure((c) => { c.request.uri = 'https://api.example.com'; });
   * try { await http.get(); } finally { await http.close(); }
   */
  close(): Promise<void> {
    if (this.#pool === undefined) return this.#closeUnresolved();
    if (!this.#ownsPool) return Promise.resolve();
    this.#pool.closed = true;
    this.#pool.stop.abort(clientClosed());
    return this.#pool.backend.close();
  }

  /**
   * close() of a client whose settings are not merged yet (the browser/Workers build, before its
   * first request): merged first, so that its pool is there to be closed for the clients that
   * share it; a client whose settings fail to merge has made no pool, and releases nothing.
   */
  async #closeUnresolved(): Promise<void> {
    const calls = callModules.loaded ?? (await callModules());
    try {
      this.#resolve(calls);
    } catch {
      return; // no pool was made: nothing to release (its calls reject with the setting's ConfigError)
    }
    return this.close();
  }

  /**
   * This client's settings merged over its parent's (each level's block once), its pool made or
   * shared: at once when it is made on node, at its first request (or close()) in the
   * browser/Workers build. A bad setting throws its ConfigError, every time it is asked for.
   */
  #resolve(calls: CallModules): Settings {
    if (this.#settings !== undefined) return this.#settings;
    const { parent, layer } = this.#made!;
    if (parent === undefined) {
      const settings = calls.clientSettings(calls.rootSettings(), layer);
      this.#pool = calls.newPool(settings, {});
      this.#ownsPool = true;
      this.#made = undefined;
      return (this.#settings = settings);
    }
    const mine = parent.#resolve(calls);
    const pool = parent.#pool!;
    const settings = calls.clientSettings(mine, layer);
    // another pool for another transport, but the same cookies: derived clients share the jar
    const shares = calls.samePool(settings, mine);
    this.#pool = shares ? pool : calls.newPool(settings, pool.cookies, { settings: mine, pool });
    this.#ownsPool = !shares;
    this.#made = undefined;
    return (this.#settings = settings);
  }

  /**
   * GET. `get()`, `get(block)`, or `get(Type, block?)` to convert the result.
   *
   * @example
   * const text = await http.get(String, (c) => { c.request.uri.path = '/hello'; });
   */
  readonly get: Verb = this.#verb('GET');

  /** HEAD: resolves to `null` (no body) unless a handler returns something; handlers see the headers. @example await http.head((c) => { c.response.success((fs) => fs.headers.get('etag')); }); */
  readonly head: HeadVerb = this.#verb('HEAD');

  /** POST. @example await http.post((c) => { c.request.contentType = 'application/json'; c.request.body = { a: 1 }; }); */
  readonly post: Verb = this.#verb('POST');

  /** PUT. @example await http.put((c) => { c.request.contentType = 'text/plain'; c.request.body = 'hi'; }); */
  readonly put: Verb = this.#verb('PUT');

  /** DELETE. @example await http.delete((c) => { c.request.uri.path = '/users/42'; }); */
  readonly delete: Verb = this.#verb('DELETE');

  /** PATCH. @example await http.patch((c) => { c.request.contentType = 'application/json'; c.request.body = { name: 'Ada' }; }); */
  readonly patch: Verb = this.#verb('PATCH');

  /** OPTIONS. @example await http.options((c) => { c.response.success((fs) => fs.headers.get('allow')); }); */
  readonly options: Verb = this.#verb('OPTIONS');

  /**
   * Any method, with the same three shapes as the verbs: `request(method)`,
   * `request(method, block)`, `request(method, Type, block?)`. The method is an RFC 9110 token
   * (`QUERY`, `PROPFIND`, `PURGE`, ...), sent in upper case; `CONNECT` is refused. `QUERY` is
   * retried as an idempotent request.
   *
   * @example
   * const found = await http.request('QUERY', (c) => {
   *   c.request.uri.path = '/contacts';
   *   c.request.contentType = 'application/json';
   *   c.request.body = { name: 'Ada' };
   * });
   */
  request<A extends VerbArgument>(method: string, first?: A, block?: BlockFor<NoInfer<A>>): Promise<ResultFor<A>> {
    if (typeof method !== 'string' || method === '') {
      return Promise.reject(new ConfigError(`request(method, ...) needs a method name first ('QUERY', 'PROPFIND', ...), not ${describeValue(method)}`));
    }
    const upper = method.toUpperCase();
    return this.#call(upper, 'request', first, block) as Promise<ResultFor<A>>;
  }

  /**
   * The items of every page of a list, as an `AsyncIterable`: `paginate(block)`, or
   * `paginate(Type, block)` to convert (or validate) each item. A page is requested only when the
   * loop needs its items. Each page's body must be an array, and the next page is the
   * `Link: <...>; rel="next"` target, unless `c.response.paginate({ items, next, maxPages, maxItems })`
   * says otherwise. A failing page rejects the loop after the items already yielded, and so does
   * a next page the walk already fetched (an `HttpBuilderError` with code `ERR_PAGINATION_LOOP`);
   * at most 10,000 pages are requested unless `maxPages` says otherwise.
   *
   * @example
   * for await (const user of http.paginate(User, (c) => { c.request.uri.path = '/users'; c.request.uri.query = { per_page: 100 }; })) {
   *   console.log(user.name);
   * }
   */
  // the block overload first: an arrow tried against the typed one first would lose its parameter's type
  paginate(block?: ConfigBlock): AsyncIterable<unknown>;
  paginate<T extends ResultType>(type: T, block?: ConfigBlock): AsyncIterable<ResultOf<T>>;
  paginate(first?: unknown, block?: ConfigBlock): AsyncIterable<unknown> {
    return pages(this.#sendPage.bind(this), first, block, this.#pagination.bind(this));
  }

  #sendPage(layer: HttpConfig, watch: PageWatch): Promise<unknown> {
    return this.#send('GET', PAGE_ARGUMENTS, layer, watch);
  }

  /** `response.paginate()` as this client's levels set it (the settings merged first, when they are not yet). */
  async #pagination(): Promise<Settings['pagination']> {
    const calls = callModules.loaded ?? (await callModules());
    return this.#resolve(calls).pagination;
  }

  #verb(method: string): (first?: VerbArgument, block?: ConfigBlock) => Promise<never> {
    // the generic result type exists only in the signature: #call resolves to whatever Type produced
    const name = method.toLowerCase(); // for messages: once per verb, not per call
    return (first, block) => this.#call(method, name, first, block) as Promise<never>;
  }

  // Every failure, bad input included, is a rejection, never a synchronous throw. Not `async`:
  // a synchronous block (the usual kind) then costs no extra trip through the microtask queue.
  #call(method: string, name: string, first: unknown, second: ConfigBlock | undefined): Promise<unknown> {
    try {
      const args = verbArguments(name, first, second);
      const block = args.block;
      if (!block) return this.#send(method, args, undefined, undefined);
      const layer = new HttpConfig('request');
      const returned: unknown = block.call(layer, layer);
      if (isThenable(returned)) return Promise.resolve(returned).then(this.#send.bind(this, method, args, layer, undefined));
      return this.#send(method, args, layer, undefined);
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- pass on exactly what the block threw
      return Promise.reject(error);
    }
  }

  // also bound as the step after an async block, whose value then comes as a fifth argument: ignored
  #send(method: string, args: VerbArguments, layer: HttpConfig | undefined, page: PageWatch | undefined): Promise<unknown> {
    const calls = callModules.loaded;
    if (calls === undefined) return this.#sendLoading(method, args, layer, page);
    let base = this.#settings;
    let settings: Settings;
    let frozen: ReturnType<CallModules['freezeRecord']>;
    try {
      base ??= this.#resolve(calls);
      if (base.cache !== undefined && this.#cache === undefined) return this.#sendWithCache(calls, base.cache, method, args, layer, page);
      if (this.#pool!.closed) throw clientClosed();
      settings = layer ? calls.mergeSettings(base, layer) : base;
      const taker = args.type === undefined && !page ? undefined : calls.bodyTaker(settings);
      if (taker && page) throw new ConfigError(`paginate(): ${calls.TAKES_BODY[taker]}, but each page's body must be parsed for its items`);
      if (taker) {
        throw new ConfigError(
          `${method.toLowerCase()}(): ${calls.TAKES_BODY[taker]}, so the call's result type must be the default one (drop the result type, or use withResponse() without one; Stream.ndjson(c, Type) converts each value)`,
        );
      }
      // the client's own header map when the block set no header: its requests share one frozen object
      frozen = calls.freezeRecord(method, settings, settings.headers === base.headers);
      page?.sending(frozen.record); // a page the walk fetched before throws here, unsent
    } catch (error) {
      releaseUpload(layer?.request.body); // bad input: nothing will read the upload's source
      throw error;
    }
    const { record, target } = frozen;
    const pool = this.#pool!;
    const plan: Plan = {
      target,
      pool,
      handlers: settings.handlers,
      encoders: settings.encoders,
      compress: settings.compress,
      parsers: settings.parsers,
      resultType: args.type,
      withResponse: args.withResponse,
      credentials: settings.credentials,
      onDownloadProgress: settings.onDownloadProgress,
      onUploadProgress: settings.onUploadProgress,
      execution: settings.execution,
      jar: settings.cookieJar ? calls.ClientCookieJar.of(settings.cookieJar, pool.cookies) : undefined,
      cache: this.#cache,
      telemetry: settings.telemetry,
      onResponse: page?.received,
    };
    // no interceptor (the usual case): no chain around the exchange
    if (settings.interceptors.length === 0) return calls.exchange(record, plan);
    return calls.chain(settings.interceptors, method, exchangeChecked.bind(undefined, calls, plan))(record);
  }

  /** A request before the call's modules are in (the application's first, in the browser/Workers build): loaded once, then sent as every later one is. */
  #sendLoading(method: string, args: VerbArguments, layer: HttpConfig | undefined, page: PageWatch | undefined): Promise<unknown> {
    return callModules().then(
      () => this.#send(method, args, layer, page),
      (error: unknown) => {
        releaseUpload(layer?.request.body); // nothing will read the upload's source
        throw error;
      },
    );
  }

  /**
   * The first request of a client with `client.cache`: the cache (and its module, which clients
   * without one never load) comes first. client-level settings only (a request cannot change
   * them): the cache is found once per client.
   */
  #sendWithCache(
    calls: CallModules,
    cache: ResolvedCacheOptions,
    method: string,
    args: VerbArguments,
    layer: HttpConfig | undefined,
    page: PageWatch | undefined,
  ): Promise<unknown> {
    const { tls, connection, publicOnly } = this.#settings!;
    // only node has a cache: the browser/Workers build refuses client.cache when the client's settings are merged
    return (calls.nodeStages() as NodeStages).loadCache(cache, tls, connection, publicOnly).then(
      (loaded) => {
        this.#cache = loaded;
        return this.#send(method, args, layer, page);
      },
      (error: unknown) => {
        releaseUpload(layer?.request.body); // nothing will read the upload's source
        throw error;
      },
    );
  }
}

const paginateModule = loadOnce(() => import('./paginate.js'));

/**
 * paginate()'s walk, its module loaded when the loop asks for the first item: an application
 * that never paginates does not carry it (the walk checks its arguments then too).
 */
async function* pages(
  send: PageSender,
  first: unknown,
  block: ConfigBlock | undefined,
  pagination: () => Promise<Settings['pagination']>,
): AsyncIterable<unknown> {
  // checked when the loop starts (as a verb's arguments are, as a rejection): nothing is sent yet
  const args = verbArguments('paginate', first, block);
  const { paginate } = paginateModule.loaded ?? (await paginateModule());
  yield* paginate(send, args, await pagination());
}

/** A page of paginate(): its body as handlers leave it, without a result type (paginate converts each item). */
const PAGE_ARGUMENTS: VerbArguments = { type: undefined, withResponse: false, block: undefined };

/** The exchange of the record an interceptor passed on, checked first. */
function exchangeChecked(calls: CallModules, plan: Plan, request: RequestRecord): Promise<unknown> {
  return calls.exchange(calls.checkedRecord(request), plan);
}

/** A client block run (synchronously: configure() returns the client at once), what it set kept to be merged. */
function clientLayer(block: ConfigBlock | undefined): HttpConfig | undefined {
  if (!block) return undefined;
  const layer = new HttpConfig('client');
  const returned = block.call(layer, layer);
  if (returned instanceof Promise) throw new ConfigError('a client configuration block must be synchronous (HttpBuilder.configure returns the client at once)');
  return layer;
}
