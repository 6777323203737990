import { isStreamed, type WireRequest, type WireResponse } from '../model/backend.js';
import { checkToken, type BearerCredentials, type BearerRefresh, type BearerToken } from '../config/auth-config.js';
import { underControl, type CallControl } from '../pipeline/call-control.js';
import type { Send, WireCall } from '../pipeline/plan.js';
import { carriedThrow } from '../pipeline/progress.js';
import { BearerRefreshes } from './bearer-refreshes.js';
import '../pipeline/shared-chunk.js'; // loads with the client's modules in one chunk

/**
 * Sends with `Authorization: Bearer <token>`: the request's own token, or what a refresh of
 * that very token gave (never another request's). With `refresh`, a 401 gets one more try with
 * a new token: the one a refresh of the client gave that token since this request went out, or
 * the one the refresh it starts (or waits for, when another request started it) gives. A second
 * 401 is the answer. A streamed body cannot be sent again: its 401 goes to the handlers. The
 * call's timeout and signal end its wait for the token function or a refresh as they end a
 * round trip (the refresh itself runs on for the other requests waiting for it).
 */
export async function sendWithBearer(next: Send, wire: WireRequest, call: WireCall, credentials: BearerCredentials): Promise<WireResponse> {
  const { refresh } = credentials;
  const configured = await tokenOf(credentials.token, call.control);
  const refreshes = refresh && (call.plan.pool.auth.bearerRefreshes ??= new BearerRefreshes());
  const sent = refreshes ? refreshes.current(configured) : configured;
  const response = await next(withBearer(wire, sent), call);
  if (response.statusCode !== 401 || !refreshes || isStreamed(wire.body)) return response;
  response.discard();
  const fresh = await refreshes.renew(configured, sent, () => refreshed(refresh, sent), call.control?.signal);
  return next(withBearer(wire, fresh), call);
}

async function tokenOf(token: BearerToken, control: CallControl | undefined): Promise<string> {
  if (typeof token === 'string') return token;
  const asked = callersOwn(token, "auth.bearer()'s token function");
  const given = await underControl(asked, control);
  checkToken(given, "the token auth.bearer()'s function gave");
  return given;
}

/** What the caller's refresh gives for the token that got a 401, checked. */
async function refreshed(refresh: BearerRefresh, expired: string): Promise<string> {
  const token = await callersOwn(() => refresh(expired), "auth.bearer()'s refresh");
  checkToken(token, "the token auth.bearer()'s refresh gave");
  return token;
}

/** What the caller's function gives; what it throws comes back to the caller as it was thrown, never taken for a network failure (and retried). */
async function callersOwn(fn: () => string | Promise<string>, source: string): Promise<unknown> {
  try {
    return await fn();
  } catch (error) {
    throw carriedThrow(error, source);
  }
}

function withBearer(wire: WireRequest, token: string): WireRequest {
  return { ...wire, headers: { ...wire.headers, Authorization: `Bearer ${token}` } };
}
