// What a client is made of once its blocks are merged (http-builder.ts): its settings and its
// pool. Loaded with the call's modules (call-entry.ts): on node with the library, so that a bad
// setting fails when the client is made; in the browser/Workers build at the client's first
// request, which it fails before anything is sent.
import { chosenBackend } from '../backends/backend-choice.js';
import type { ClientCookieJar } from '../cookies/cookie-jar.js';
import type { HttpConfig } from '../config/http-config.js';
import { defaultSettings, mergeSettings, type Settings } from '../config/settings.js';
import { DOWNLOADS, STREAMS } from '../content/parsers.js';
import { CallSlots } from './call-slots.js';
import { OriginPacing } from './origin-pacing.js';
import type { PoolState } from './plan.js';
import { checkWebClient, nodeStages, proxyRouterOf } from './platform-stages.js';
import { loggerFromEnvironment } from './request-log.js';
import { wirePipeline } from './stages.js';

/** The connection pool a client owns and the clients derived from it share (what requests see of it: {@link PoolState}). */
export interface ClientPool extends PoolState {
  /** the jar, made when a client first turns `client.cookies` on; shared by every client derived from it, whatever its pool */
  readonly cookies: { jar?: ClientCookieJar };
  closed: boolean;
  /** aborted by close(): what its calls wait for (a slot, a turn, a shared exchange) stops waiting */
  readonly stop: AbortController;
}

/** The defaults, with `DEBUG=httpbuilder` read when a client is made (never per request). */
export function rootSettings(): Settings {
  // no `process` in a browser or a Worker: no DEBUG there
  const logger = loggerFromEnvironment((globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.DEBUG);
  const defaults = defaultSettings();
  return logger ? { ...defaults, execution: { ...defaults.execution, logger } } : defaults;
}

/** `layer` (a client block's settings) over `base`; `base` itself for a client made without a block. */
export function clientSettings(base: Settings, layer: HttpConfig | undefined): Settings {
  const settings = layer ? mergeSettings(base, layer) : base;
  // what the browser/Workers build cannot do (node's settings are checked as they are set)
  if (nodeStages() === undefined) checkWebClient(settings);
  return settings;
}

/**
 * Whether a derived client with `settings` can share its parent's pool (parent's settings:
 * `mine`): not with another backend, TLS settings, proxy, connection settings, `http2`,
 * `publicOnly` or flow settings.
 */
export function samePool(settings: Settings, mine: Settings): boolean {
  return (
    settings.backend === mine.backend &&
    settings.tls === mine.tls &&
    settings.proxy === mine.proxy &&
    settings.connection === mine.connection &&
    settings.http2 === mine.http2 &&
    settings.publicOnly === mine.publicOnly &&
    settings.flow === mine.flow
  );
}

/**
 * A client's pool. A derived client's (`parent`) keeps its parent's cookies, and its flow state
 * when it did not change those settings: the calls in flight (`concurrency`) and the origins'
 * turns and pauses (`rateLimit`, servers' `Retry-After`) count across the clients derived from
 * one, whatever transport each has.
 */
export function newPool(settings: Settings, cookies: ClientPool['cookies'], parent?: { readonly settings: Settings; readonly pool: ClientPool }): ClientPool {
  const transport = { tls: settings.tls, connection: settings.connection, http2: settings.http2, publicOnly: settings.publicOnly };
  const backend = chosenBackend(settings.backend, transport);
  // a bad proxy URL or no_proxy entry fails here, when the client is made
  const router = proxyRouterOf(settings.proxy, backend, settings.connection);
  const { concurrency, rateLimit, dedupe } = settings.flow ?? {};
  const inherited = parent?.settings.flow;
  const slots = parent && concurrency === inherited?.concurrency ? parent.pool.slots : concurrency && new CallSlots(concurrency);
  const pacing = parent && rateLimit === inherited?.rateLimit ? parent.pool.pacing : new OriginPacing(rateLimit);
  const shared = dedupe ? new Map() : undefined;
  const stop = new AbortController();
  return { backend, send: wirePipeline(), auth: {}, router, cookies, closed: false, stop, stopped: stop.signal, pacing, slots, dedupe: shared };
}

/** What takes the body itself, when a level registered a Download or a Stream: the result is its own. */
export function bodyTaker(settings: Settings): keyof typeof TAKES_BODY | undefined {
  for (const level of settings.parsers) {
    for (const parser of level.values()) {
      if (DOWNLOADS in parser) return 'download';
      if (STREAMS in parser) return 'stream';
    }
  }
  return undefined;
}

export const TAKES_BODY = { download: 'a Download writes the body to its target', stream: 'a Stream reads the body as its result' } as const;
