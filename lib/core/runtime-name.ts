/**
 * What messages call the runtime when they say what it lacks ("needs node:http, which a
 * browser does not have"; "Bun's built-in undici lacks a Dispatcher"): `'Bun'`, `'Deno'`,
 * `'Cloudflare Workers'` (workerd's `navigator.userAgent`), `'Node.js'`, else `'a browser'`.
 * @internal
 *
 * @example
 * runtimeName({ Bun: {} }); // 'Bun'
 */
export function runtimeName(scope: object = globalThis): 'Bun' | 'Deno' | 'Cloudflare Workers' | 'Node.js' | 'a browser' {
  if ('Bun' in scope) return 'Bun';
  if ('Deno' in scope) return 'Deno';
  const { navigator, process } = scope as { navigator?: { userAgent?: unknown }; process?: { versions?: { node?: unknown } } };
  if (navigator?.userAgent === 'Cloudflare-Workers') return 'Cloudflare Workers';
  return process?.versions?.node === undefined ? 'a browser' : 'Node.js';
}

/**
 * The name for the browser/Workers build's messages: `'Cloudflare Workers'` or `'a browser'`
 * (that build runs nowhere else, and its seams are tested on Node as the browser's).
 * @internal
 */
export function webRuntimeName(): 'Cloudflare Workers' | 'a browser' {
  return runtimeName() === 'Cloudflare Workers' ? 'Cloudflare Workers' : 'a browser';
}
