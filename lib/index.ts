/**
 * httpbuilder-ts: an HTTP client with a configuration DSL, typed results and interchangeable backends.
 *
 * @example
 * import { HttpBuilder } from 'httpbuilder-ts';
 * const http = HttpBuilder.configure((c) => { c.request.uri = 'https://api.example.com'; });
 * const user = await http.get(User, (c) => { c.request.uri.path = '/users/42'; });
 *
 * @module
 */
// node's transports, decoders and file parts (the browser entry, browser.ts, leaves them out)
import './node-platform.js';

export * from './public-api.js';
