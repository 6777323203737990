/**
 * What a message calls the runtime a browser/Workers build runs on, when it says what that
 * runtime lacks ("needs node:http, which a browser does not have"): `'Cloudflare Workers'`
 * (workerd's `navigator.userAgent`), else `'a browser'`.
 * @internal
 */
export function webRuntimeName(): string {
  const agent = (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent;
  return agent === 'Cloudflare-Workers' ? 'Cloudflare Workers' : 'a browser';
}
