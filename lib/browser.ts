/**
 * httpbuilder-ts for browsers and Workers (the `browser`, `worker` and `workerd` export
 * conditions): the same API as on Node, without the node platform. The default backend is
 * `fetch` on the global `fetch`; `fromServer.stream()` is a web `ReadableStream<Uint8Array>`
 * and `fromServer.bytes()` a `Uint8Array` (there is no `Buffer`). What the runtime does itself is
 * a ConfigError naming the runtime: the node backends, `client.proxy` (its network stack picks
 * the proxy; no `HTTP_PROXY` is read), `client.cache` (the browser's own HTTP cache applies),
 * and in a browser `client.cookies` (the browser manages cookies: fetch may not read `Set-Cookie`).
 *
 * @example
 * import { HttpBuilder } from 'httpbuilder-ts';
 * const http = HttpBuilder.configure((c) => { c.request.uri = 'https://api.example.com'; });
 * const user = await http.get(User, (c) => { c.request.uri.path = '/users/42'; });
 *
 * @module
 */
export * from './public-api.js';
