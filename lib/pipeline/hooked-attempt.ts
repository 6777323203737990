import type { WireRequest, WireResponse } from '../model/backend.js';
import type { Attempt, AttemptResponse, HookLists, RedirectTarget, RetryInfo } from '../config/hooks.js';
import { ConfigError } from '../core/errors.js';
import { noteHookHeaders } from '../cache/hook-credentials.js';
import { isThenable } from '../core/maybe-promise.js';
import { ResponseHeaders } from '../model/response-headers.js';
import { untilSignal, type CallControl } from './call-control.js';
import { checkHeaders } from './check-headers.js';
import type { Send, WireCall } from './plan.js';
import { carriedThrow, listenerThrown } from './progress.js';
import { toTransportError } from '../model/transport-error.js';
import { withTimings } from '../core/timed-error.js';

// The hook stage's work (hooks-stage.ts holds the stage): loaded at the first exchange of a call
// with `execution.hooks` (deferred-stage.ts), so that an application without hooks never loads it.

/** One wire exchange as an {@link Attempt}: `beforeAttempt` hooks on its headers, `afterAttempt` hooks on its response head. */
export async function hooked(next: Send, wire: WireRequest, call: WireCall): Promise<WireResponse> {
  const lists = call.plan.execution.hooks!;
  const proxyCredentials = proxyStageCredentials(wire, call);
  const attempt = (call.attempt = attemptOf(wire, proxyCredentials !== undefined));
  let sent = wire;
  if (lists.beforeAttempt.length > 0) {
    for (const hook of lists.beforeAttempt) await callHook(call.control, 'an execution.hooks.beforeAttempt hook', hook, attempt);
    const headers = checkedHeaders(attempt.headers, wire.headers, 'beforeAttempt');
    sent = { ...wire, headers: proxyCredentials === undefined ? headers : withProxyCredentials(headers, proxyCredentials) };
    // a credential set here is one the cache (above) never saw: it is told, so it keeps such answers apart
    if (call.plan.cache) noteHookHeaders(lists.beforeAttempt, wire.headers, sent.headers);
  }
  let response: WireResponse;
  try {
    response = await next(sent, call);
  } catch (error) {
    if (lists.afterAttemptError.length > 0) await afterAttemptError(lists.afterAttemptError, call, attempt, error, sent.url);
    throw error;
  }
  if (lists.afterAttempt.length === 0) return response;
  const timings = call.timings!.responded();
  const head: AttemptResponse = { statusCode: response.statusCode, message: response.message, headers: new ResponseHeaders(response.headers), timings };
  try {
    for (const hook of lists.afterAttempt) await callHook(call.control, 'an execution.hooks.afterAttempt hook', hook, attempt, head);
  } catch (error) {
    response.discard(); // never read: its connection goes back or is closed
    throw error;
  }
  return response;
}

/**
 * The `afterAttemptError` hooks for an attempt that failed without a response, told the typed
 * error with the attempt's timings. Not for what never was an exchange: a bad setting
 * (ConfigError) or a caller's own callback's throw, which fail the call as they are.
 */
async function afterAttemptError(hooks: HookLists['afterAttemptError'], call: WireCall, attempt: Attempt, error: unknown, url: string): Promise<void> {
  if (error instanceof ConfigError || listenerThrown(error) !== error) return;
  const typed = withTimings(toTransportError(error, url), call.timings?.failed());
  for (const hook of hooks) await callHook(call.control, 'an execution.hooks.afterAttemptError hook', hook, attempt, typed);
}

/** `wire` as hooks see it: its headers a copy of their own (without the proxy stage's credentials), its body's bytes when it is in memory. */
function attemptOf(wire: WireRequest, hideProxyCredentials = false): Attempt {
  const headers = { ...wire.headers };
  if (hideProxyCredentials) delete headers[PROXY_AUTHORIZATION];
  return { method: wire.method, url: wire.url, target: wire.target, headers, body: wire.body?.bytes };
}

const PROXY_AUTHORIZATION = 'Proxy-Authorization';

/**
 * The proxy's credentials the proxy stage put on `wire` (not a caller's own header): the proxy's
 * password, and a hop-by-hop header, so no hook sees it (to export or sign); it goes out as it was.
 */
function proxyStageCredentials(wire: WireRequest, call: WireCall): string | undefined {
  const value = call.proxyAuthorization;
  return value !== undefined && wire.proxy !== undefined && wire.headers[PROXY_AUTHORIZATION] === value ? value : undefined;
}

/** A copy of the headers a hook left (the attempt keeps its own), with the proxy stage's credentials back in place of any `Proxy-Authorization` the hook set. */
function withProxyCredentials(headers: Readonly<Record<string, string>>, value: string): Record<string, string> {
  const sent: Record<string, string> = {};
  for (const name in headers) if (name.toLowerCase() !== 'proxy-authorization') sent[name] = headers[name];
  sent[PROXY_AUTHORIZATION] = value;
  return sent;
}

/**
 * The `beforeRetry` hooks, before the retry stage waits: `wire` is the request retried, the
 * attempt the one the hook stage last saw of it (with the headers it went out with).
 */
export async function beforeRetry(call: WireCall, wire: WireRequest, retry: RetryInfo): Promise<void> {
  const lists = call.plan.execution.hooks;
  if (!lists) return;
  const attempt = call.attempt ?? attemptOf(wire);
  for (const hook of lists.beforeRetry) await callHook(call.control, 'an execution.hooks.beforeRetry hook', hook, attempt, retry);
}

/**
 * The `beforeRedirect` hooks, before the redirect stage sends `hop` (the request for the
 * `Location`, credentials already dropped for another origin): the hop with the headers they
 * left in `to.headers`.
 */
export async function beforeRedirect(call: WireCall, from: WireRequest, hop: WireRequest, statusCode: number): Promise<WireRequest> {
  const lists = call.plan.execution.hooks;
  if (!lists || lists.beforeRedirect.length === 0) return hop;
  const to: RedirectTarget = { url: hop.url, method: hop.method, headers: { ...hop.headers }, statusCode };
  const attempt = call.attempt ?? attemptOf(from);
  for (const hook of lists.beforeRedirect) await callHook(call.control, 'an execution.hooks.beforeRedirect hook', hook, attempt, to);
  return { ...hop, headers: checkedHeaders(to.headers, hop.headers, 'beforeRedirect') };
}

/**
 * Runs one hook; what it throws or rejects with travels wrapped (see progress.ts). A hook still
 * pending when the call is stopped (abort, `total` timeout) is waited for no longer.
 */
async function callHook<A extends unknown[]>(control: CallControl | undefined, source: string, hook: (...args: A) => unknown, ...args: A): Promise<void> {
  let returned: unknown;
  try {
    returned = hook(...args);
  } catch (error) {
    throw carriedThrow(error, source);
  }
  if (!isThenable(returned)) return;
  try {
    await (control ? untilSignal(returned, control.signal, () => control.reason) : returned);
  } catch (error) {
    if (control !== undefined && error === control.reason) throw error;
    throw carriedThrow(error, source);
  }
}

/**
 * The headers a hook left, held to the rules the request's own were (toWireRequest): valid
 * names and values, and the framing untouched — `Content-Length` and `Transfer-Encoding`
 * follow the body, which hooks cannot change.
 */
function checkedHeaders(headers: Record<string, string>, before: Readonly<Record<string, string>>, hook: string): Record<string, string> {
  try {
    checkHeaders(headers);
  } catch (error) {
    throw new ConfigError(`execution.hooks.${hook} left a header the request cannot carry: ${(error as Error).message}`);
  }
  if (framing(headers) !== framing(before)) {
    throw new ConfigError(`execution.hooks.${hook} changed Content-Length or Transfer-Encoding: they follow the body, which a hook cannot change`);
  }
  return headers;
}

function framing(headers: Readonly<Record<string, string>>): string {
  let framing = '';
  for (const name in headers) {
    const lower = name.toLowerCase();
    if (lower === 'content-length' || lower === 'transfer-encoding') framing += `${lower}:${headers[name]}\n`;
  }
  return framing;
}
