import type { HookLists } from '../config/hooks.js';
import { isCredential } from './credential-names.js';

/** `beforeAttempt` hooks seen adding or changing a credential, with the hooks that ran beside them. */
const adding = new WeakSet<object>();

/**
 * Called by the hook stage (with `client.cache` on) after a call's `beforeAttempt` hooks left
 * `after` from `before`: when they added or changed `Authorization`, `Cookie` or a
 * credential-like header (the cache's rule, {@link isCredential}), each of them is remembered.
 * The cache runs above the hooks and never sees such a credential: see {@link hooksAddCredentials}.
 */
export function noteHookHeaders(hooks: HookLists['beforeAttempt'], before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): void {
  if (hooks.every((hook) => adding.has(hook)) || !addsCredential(before, after)) return;
  for (const hook of hooks) adding.add(hook);
}

/**
 * Whether a call's hooks may add credentials the cache cannot see: one of its `beforeAttempt`
 * hooks was seen doing so (on any call). Such a call is answered only by a public entry, and
 * its response is stored only when public.
 */
export function hooksAddCredentials(hooks: HookLists | undefined): boolean {
  return hooks !== undefined && hooks.beforeAttempt.some((hook) => adding.has(hook));
}

function addsCredential(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): boolean {
  let had: Map<string, string> | undefined;
  for (const [name, value] of Object.entries(after)) {
    const lower = name.toLowerCase();
    if (!isCredential(name, lower)) continue;
    had ??= new Map(Object.entries(before).map(([was, wasValue]) => [was.toLowerCase(), wasValue]));
    if (had.get(lower) !== value) return true;
  }
  return false;
}
