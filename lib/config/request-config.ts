import type { Encoder } from '../content/encoders.js';
import { AuthConfig } from './auth-config.js';
import { checkFunction } from './callbacks.js';
import { stringList } from '../core/scalar.js';
import { UriConfig } from './uri-config.js';
import { checkKnown, settingsOf } from './known-settings.js';
import { type Credentials } from './auth-config.js';
import type { CompressSetting } from './compress-options.js';

/** Header values by name; `null` removes an inherited header. */
export type Headers = Record<string, string | number | boolean | null | undefined>;

/** Cookie values by name; `null` removes an inherited cookie. */
export type Cookies = Record<string, string | number | boolean | null | undefined>;

/**
 * What to send: `c.request` inside a configuration block.
 *
 * @example
 * await http.post((c) => {
 *   c.request.uri.path = '/users';
 *   c.request.headers['X-Trace'] = 'abc';
 *   c.request.contentType = 'application/json';
 *   c.request.body = { name: 'Ada' };
 * });
 */
export class RequestConfig {
  #uri: UriConfig | undefined;
  #headers: Headers | undefined;
  #cookies: Cookies | undefined;
  /** @internal encoders registered at this level. */
  encoders: Map<string, Encoder> | undefined;

  /** `Content-Type` of the body, sent as given. */
  contentType: string | undefined;
  /** Charset of text bodies; when set, `; charset=<charset>` is appended to `Content-Type` (a content type naming another charset is refused). */
  charset: string | undefined;
  /** `Accept`, a string or a list joined by `, `. */
  accept: string | readonly string[] | undefined;
  /**
   * Compress the encoded body (streams too) with `'gzip'`, `'deflate'` or `'br'`, sending
   * `Content-Encoding`; bodies under 1024 bytes go as they are unless `{ encoding, minSize }`
   * says otherwise. Off by default (`false`/`undefined`); a request whose own headers carry
   * `Content-Encoding` is sent as it is.
   *
   * @example
   * c.request.compress = 'gzip';
   * c.request.compress = { encoding: 'br', minSize: 0 };
   */
  compress: CompressSetting;
  #body: unknown;
  #bodySet = false;
  #auth: AuthConfig | undefined;

  /** Credentials for Basic or Digest authentication. */
  get auth(): AuthConfig {
    return (this.#auth ??= new AuthConfig());
  }

  /** @internal the credentials this level set, if any. */
  get credentialsSet(): Credentials | undefined {
    return this.#auth?.credentials;
  }

  /** The body; encoded by the encoder of `contentType`. `null`/`undefined`: no body (also over an inherited one). */
  get body(): unknown {
    return this.#body;
  }
  set body(value: unknown) {
    this.#body = value;
    this.#bodySet = true;
  }

  /** @internal whether this level assigned a body (even `null`). */
  get bodySet(): boolean {
    return this.#bodySet;
  }

  /** The URI: assign a string or `URL`, or set its parts. */
  get uri(): UriConfig {
    return (this.#uri ??= new UriConfig());
  }
  set uri(value: string | URL) {
    const uri = new UriConfig();
    uri.assign(value);
    this.#uri = uri;
  }

  /** @internal the URI layer when touched. */
  get uriSet(): UriConfig | undefined {
    return this.#uri;
  }

  /** A pre-encoded path and query, sent byte for byte (replaces `uri.path` and `uri.query`). */
  get raw(): string | undefined {
    return this.#uri?.raw;
  }
  set raw(value: string | undefined) {
    this.uri.raw = value;
  }

  /** Headers to send; assign an object or add to it. `null`/`{}` adds none; a `null` value removes an inherited header. */
  get headers(): Headers {
    return (this.#headers ??= {});
  }
  set headers(value: Headers | null | undefined) {
    this.#headers = value ?? {};
  }

  /** Cookies, all sent in one `Cookie` header joined by `; `. */
  get cookies(): Cookies {
    return (this.#cookies ??= {});
  }
  set cookies(value: Cookies | null | undefined) {
    this.#cookies = value ?? {};
  }

  /** Adds one cookie. */
  cookie(name: string, value: string | number | boolean): void {
    this.cookies[name] = value;
  }

  /**
   * Registers an encoder for one or more content types (suffix keys like `*\/*+json` allowed).
   *
   * @example
   * c.request.encoder('text/yaml', (body) => YAML.stringify(body));
   */
  encoder(contentType: string | readonly string[], encode: Encoder): void {
    checkFunction(encode, 'request.encoder()');
    this.encoders ??= new Map();
    for (const type of stringList(contentType, 'request.encoder(): the content type')) this.encoders.set(type.toLowerCase(), encode);
  }

  /** @internal Refuses what the block added here (or to `uri`, `auth`) that is no setting: see `checkKnown` in known-settings.ts. */
  checkSettings(path: string): void {
    checkKnown(this, REQUEST_SETTINGS, path);
    if (this.#uri) checkKnown(this.#uri, URI_SETTINGS, `${path}.uri`);
    if (this.#auth) checkKnown(this.#auth, AUTH_SETTINGS, `${path}.auth`);
  }

  /** @internal headers/cookies as set at this level (undefined when untouched). */
  get headersSet(): Headers | undefined {
    return this.#headers;
  }
  /** @internal */
  get cookiesSet(): Cookies | undefined {
    return this.#cookies;
  }
}

const REQUEST_SETTINGS = settingsOf(new RequestConfig());
const URI_SETTINGS = settingsOf(new UriConfig());
const AUTH_SETTINGS = settingsOf(new AuthConfig());
