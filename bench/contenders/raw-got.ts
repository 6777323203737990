/**
 * `raw got`: got used the way its users usually do, with keep-alive agents added.
 *
 * @module
 */
import http from 'node:http';
import https from 'node:https';
import { libraryLikeHeaders, type Contender } from '../contender.js';

/**
 * `got.extend({ agent: { http, https } keep-alive, headers })` and `await api.get(url).json()`:
 * got's defaults otherwise (redirects, decompression, retries, HTTP errors thrown).
 */
export const rawGot: Contender = {
  name: 'raw got',
  description: 'got.extend({ agent: { http, https } keepAlive, same headers }), await api.get(origin + path).json() / api.post(url, { json: object }).json(); got defaults otherwise',
  async open(origin) {
    const { default: got } = await import('got');
    const agent = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
    const api = got.extend({ agent, headers: libraryLikeHeaders('got') });
    return {
      getJson: (path) => api.get(origin + path).json<unknown>(),
      postJson: (path, body) => api.post(origin + path, { json: body }).json<unknown>(),
      close: () => {
        agent.http.destroy();
        agent.https.destroy();
        return Promise.resolve();
      },
    };
  },
};
