/**
 * httpbuilder-ts for browsers and Workers (the `browser`, `worker` and `workerd` export
 * conditions): the same API as on Node, without the node platform. The default backend is
 * `fetch` on the global `fetch`; `fromServer.stream()` is a web `ReadableStream`; the node
 * backends, `client.proxy` and `client.cache` are ConfigErrors naming the runtime, and in a
 * browser so is `client.cookies` (the browser manages cookies).
 *
 * @example
 * import { HttpBuilder } from 'httpbuilder-ts';
 * const http = HttpBuilder.configure((c) => { c.request.uri = 'https://api.example.com'; });
 * const user = await http.get(User, (c) => { c.request.uri.path = '/users/42'; });
 *
 * @module
 */
export * from './public-api.js';
