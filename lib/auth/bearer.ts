import { isStreamed, type WireRequest, type WireResponse } from '../model/backend.js';
import { checkToken, type BearerCredentials, type BearerToken } from '../config/auth-config.js';
import type { Send, WireCall } from '../pipeline/plan.js';
import { carriedThrow } from '../pipeline/progress.js';
import type { BearerState } from './auth-cache.js';

/**
 * Sends with `Authorization: Bearer <token>`. With `refresh`, a 401 gets one more try with a
 * new token: the one a refresh of the client gave since this request went out, or the one the
 * refresh it starts (or waits for, when another request started it) gives. A second 401 is the
 * answer. A streamed body cannot be sent again: its 401 goes to the handlers.
 */
export async function sendWithBearer(next: Send, wire: WireRequest, call: WireCall, credentials: BearerCredentials): Promise<WireResponse> {
  const { refresh } = credentials;
  const state = refresh && call.plan.pool.authCache.bearer(refresh);
  // a token a refresh gave replaces the configured one for the client's later requests
  const sent = state?.token ?? (await tokenOf(credentials.token));
  const response = await next(withBearer(wire, sent), call);
  if (response.statusCode !== 401 || !state || isStreamed(wire.body)) return response;
  response.discard();
  const fresh = state.token !== undefined && state.token !== sent ? state.token : await refreshed(state, refresh);
  return next(withBearer(wire, fresh), call);
}

async function tokenOf(token: BearerToken): Promise<string> {
  if (typeof token === 'string') return token;
  const given = await callersOwn(token, "auth.bearer()'s token function");
  checkToken(given, "the token auth.bearer()'s function gave");
  return given;
}

/** What the caller's function gives; what it throws comes back to the caller as it was thrown, never taken for a network failure (and retried). */
async function callersOwn(fn: () => string | Promise<string>, source: string): Promise<unknown> {
  try {
    return await fn();
  } catch (error) {
    throw carriedThrow(error, source);
  }
}

/** The refresh running for the client, or a new one: concurrent 401s share one call. */
function refreshed(state: BearerState, refresh: () => string | Promise<string>): Promise<string> {
  state.refreshing ??= (async () => {
    try {
      const token = await callersOwn(refresh, "auth.bearer()'s refresh");
      checkToken(token, "the token auth.bearer()'s refresh gave");
      state.token = token;
      return token;
    } finally {
      state.refreshing = undefined;
    }
  })();
  return state.refreshing;
}

function withBearer(wire: WireRequest, token: string): WireRequest {
  return { ...wire, headers: { ...wire.headers, Authorization: `Bearer ${token}` } };
}
