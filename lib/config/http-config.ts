import { ClientConfig } from './client-config.js';
import { ExecutionConfig } from './execution-config.js';
import { RequestConfig } from './request-config.js';
import { ResponseConfig } from './response-config.js';
import type { Scope } from './scope.js';
import { checkKnown, settingsOf } from './known-settings.js';
import { stringList } from '../core/scalar.js';
import { checkMapper, MAPPER_ID } from '../result/result-type.js';

/** Per-content-type settings for encoders and parsers: content type → id → value. */
export type ContextMap = ReadonlyMap<string, ReadonlyMap<string | symbol, unknown>>;

/**
 * What a configuration block receives, as its argument and as `this`.
 *
 * `R` and `E` type what the block's handlers may return (`c.response`): `unknown` (anything) in a
 * client block and in a block without a result type; in the block of `verb(Type, block)`, the
 * verbs make them that type's value, so a handler cannot make the call resolve to something its
 * type does not say.
 *
 * @example
 * HttpBuilder.configure((c) => { c.request.uri = 'https://api.example.com'; });
 * HttpBuilder.configure(function (this: HttpConfig) { this.request.uri = 'https://api.example.com'; });
 */
export class HttpConfig<R = unknown, E = R> {
  /** What to send. */
  readonly request = new RequestConfig();
  /** @internal */
  contextSet: Map<string, Map<string | symbol, unknown>> | undefined;
  // made on first use: most request blocks touch only `request`, and a block runs per call
  #response: ResponseConfig<R, E> | undefined;
  #execution: ExecutionConfig | undefined;
  #client: ClientConfig | undefined;

  readonly #scope: Scope;

  /** @internal */
  constructor(scope: Scope) {
    this.#scope = scope;
  }

  /** How to handle the response. */
  get response(): ResponseConfig<R, E> {
    return (this.#response ??= new ResponseConfig<R, E>());
  }

  /** How to run the exchange. */
  get execution(): ExecutionConfig {
    return (this.#execution ??= new ExecutionConfig(this.#scope));
  }

  /** Client-level settings (rejected in a request block). */
  get client(): ClientConfig {
    return (this.#client ??= new ClientConfig(this.#scope));
  }

  /** @internal What the block set of each part; `undefined` for a part it never touched. */
  get touched(): { readonly response?: ResponseConfig; readonly execution?: ExecutionConfig; readonly client?: ClientConfig } {
    return { response: this.#response, execution: this.#execution, client: this.#client };
  }

  /**
   * @internal Refuses what the block added to any part that is no setting (a misspelling), once
   * the block has run: see `checkKnown` in known-settings.ts.
   */
  checkSettings(): void {
    checkKnown(this, HTTP_SETTINGS, 'c');
    this.request.checkSettings('c.request');
    if (this.#response) checkKnown(this.#response, RESPONSE_SETTINGS, 'c.response');
    if (this.#execution) checkKnown(this.#execution, EXECUTION_SETTINGS, 'c.execution');
    if (this.#client) checkKnown(this.#client, CLIENT_SETTINGS, 'c.client');
  }

  /**
   * Stores a per-content-type setting for encoders and parsers (for example the mapper).
   *
   * @example
   * c.context('application/json', 'my-plugin.indent', 2);
   */
  context(contentType: string | readonly string[], id: string | symbol, value: unknown): void {
    if (id === MAPPER_ID) checkMapper(value, 'c.context(..., Mapping.MAPPER_ID, mapper)');
    this.contextSet ??= new Map();
    for (const type of stringList(contentType, 'c.context(): the content type')) {
      const key = type.toLowerCase();
      let entries = this.contextSet.get(key);
      if (!entries) this.contextSet.set(key, (entries = new Map<string | symbol, unknown>()));
      entries.set(id, value);
    }
  }
}

const HTTP_SETTINGS = settingsOf(new HttpConfig('client'));
const RESPONSE_SETTINGS = settingsOf(new ResponseConfig());
const EXECUTION_SETTINGS = settingsOf(new ExecutionConfig('client'));
const CLIENT_SETTINGS = settingsOf(new ClientConfig('client'));

/**
 * A configuration block, in either style: `c => { c.request... }` or `function () { this.request... }`.
 * `R` and `E`: what its handlers may return (see {@link HttpConfig}); anything by default.
 */
export type ConfigBlock<R = unknown, E = R> = (this: HttpConfig<R, E>, config: HttpConfig<R, E>) => unknown;
