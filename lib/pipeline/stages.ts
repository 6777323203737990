import { authorization } from '../auth/auth-stage.js';
import { cookies } from '../cookies/cookie-stage.js';
import { sendAttempt } from './attempt.js';
import { hooks } from './hooks-stage.js';
import { observing } from './observe-stage.js';
import { pacing } from './pacing-stage.js';
import { dedupe } from './dedupe-stage.js';
import type { Send, Stage } from './plan.js';
import { nodeStages } from './platform-stages.js';
import { redirects } from './redirects.js';
import { logging } from './request-log.js';
import { retries } from './retry.js';

/**
 * The wire stages, outermost first: the one list of what happens between a request ready to
 * send and the response that ends its exchange.
 *
 * - `dedupe`: with `client.dedupe`, a GET identical to one in flight joins it (redirects, retries,
 *   authentication done once for all), each call reading the one body through a reader of its own;
 * - `redirects`: each hop to a `Location` is sent through the stages below it;
 * - `retries`: each attempt of a hop (retry policy, and a reused connection the server had closed);
 * - `authorization`: each attempt answers `401` challenges (Basic, Digest) with the credentials;
 * - `proxies`: each attempt goes direct or through the client's proxy (`client.proxy`, `no_proxy`),
 *   and answers the proxy's `407` to an absolute-form request;
 * - `cookies`: the client's jar adds its cookies to each exchange and stores what comes back;
 * - `caching`: with `client.cache`, GET and HEAD are answered from the cache when it may (no
 *   request), revalidated when stale, and stored; below authorization and cookies, so it sees
 *   the credentials and the `Cookie` a `Vary` may name (an answer from it carries no `Set-Cookie`),
 *   and above the hooks, so a request it answers makes no attempt;
 * - `pacing`: each attempt waits while a server's `Retry-After` pauses its origin, and for its
 *   turn under `client.rateLimit`; below the cache (an answer from it is no attempt), above the
 *   hooks (a signature is made when the attempt really goes);
 * - `observing`: with `client.telemetry` or a subscriber to the `httpbuilder:` diagnostics
 *   channels, each attempt is told of (a span current around the hooks and the transport, its
 *   trace headers sent); below the cache, so an answer from it is no attempt;
 * - `hooks`: `execution.hooks` see each exchange with its final headers (signing goes here, so
 *   it runs after every stage that sets a header: authorization, proxies, cookies), all but the
 *   proxy's credentials (hidden from hooks, sent as they are);
 * - `logging`: every wire exchange gets its pair of debug lines (`execution.logger`) — innermost,
 *   so a line is written only for a request that goes out as the hooks left it, and its time is
 *   the round trip's, not a hook's;
 * - then {@link sendAttempt}: one round trip through the backend, under the call's timeouts and signal.
 *
 * A stage with nothing to do for a call (no credentials, no logger, no jar, no hooks) passes it on.
 * `proxies` and `caching` are the node platform's (platform-stages.ts): the browser/Workers build
 * has neither, and its bundle holds neither module.
 */
export function wireStages(): readonly Stage[] {
  const node = nodeStages();
  if (node === undefined) return [dedupe, redirects, retries, authorization, cookies, pacing, observing, hooks, logging];
  return [dedupe, redirects, retries, authorization, node.proxies, cookies, node.caching, pacing, observing, hooks, logging];
}

/** The wire stages folded over the backend's round trip: composed once per client, called once per request. */
export function wirePipeline(stages: readonly Stage[] = wireStages()): Send {
  let send: Send = sendAttempt;
  for (let i = stages.length - 1; i >= 0; i--) send = stages[i](send);
  return send;
}
